// Fetching from a real HTTP server concurrently, with VowFoundation: the script starts a small
// server on 127.0.0.1, asks it for five books at once with `when`, checks each response with
// `validate()`, and turns a missing book into `nil` rather than a failure of the whole.
//
//     swift run fetchlocal
import Foundation
import LoopbackHTTP
import Vow
import VowFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Book: Codable, Sendable {
    let id: Int
    let title: String
}

let library = [
    1: "The Analytical Engine", 2: "Notes on Computing", 3: "Compilers in Practice", 5: "Promises Kept",
]
let server = try LoopbackServer()
for id in 1...5 {
    server.route("/books/\(id)") { _ in
        guard let title = library[id] else { return .init(status: 404, text: "no book \(id)") }
        let json = try! JSONEncoder().encode(Book(id: id, title: title))
        return .init(status: 200, headers: ["Content-Type": "application/json"], body: json)
    }
}
defer { server.stop() }

let session = URLSession(configuration: .ephemeral)

/// The book with `id`, or `nil` if the server has none; any other failure rejects.
func book(_ id: Int) -> Promise<Book?> {
    session.dataTask(.promise, with: server.url("/books/\(id)")).validate().map { response in
        try JSONDecoder().decode(Book.self, from: response.data)
    }.recover { error -> Promise<Book?> in
        guard let http = error as? HTTPError, http.status == 404 else { throw error }
        return .value(nil)
    }
}

let books = try hang(when(fulfilled: (1...5).map(book)))
for (id, book) in zip(1..., books) {
    print(book.map { "\($0.id): \($0.title)" } ?? "\(id): not in the library")
}
let requests = server.activity.requests.values.reduce(0, +)
print("\(books.compactMap { $0 }.count) books from \(requests) requests to \(server.baseURL)")
if books.compactMap({ $0 }).count != 4 || requests != 5 {
    print("unexpected: the example did not behave as its comments say")
    exit(1)
}
