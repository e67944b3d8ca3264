import Foundation
import LoopbackHTTP
import Testing
import Vow
import VowFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How long a test waits for something that should happen promptly: long enough for a shared
/// machine under the thread sanitizer, and far shorter than the slow route's delay, so that
/// only a cancellation can end a request to it in time.
private let patience: TimeInterval = 20

/// The slow route's delay, which no test waits out.
private let slowDelay: TimeInterval = 120

@Suite struct URLSessionTests {
    @Test func aSuccessFulfilsWithTheBodyAndTheResponse() async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: ["/hello": { _ in .init(text: "Hello, Vow") }])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }

            let (data, response) = try value(of: session.dataTask(.promise, with: server.url("/hello")))

            #expect(String(decoding: data, as: UTF8.self) == "Hello, Vow")
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(response.url == server.url("/hello"))
        }
    }

    @Test func validatePassesAnyStatusFrom200To299() async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: ["/created": { _ in .init(status: 201, text: "made") }])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }

            let (data, response) = try value(
                of: session.dataTask(.promise, with: server.url("/created")).validate())

            #expect(String(decoding: data, as: UTF8.self) == "made")
            #expect((response as? HTTPURLResponse)?.statusCode == 201)
        }
    }

    @Test(arguments: [404, 500])
    func validateRejectsAnErrorStatusWithWhatTheServerSent(status: Int) async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: [
                "/failing": { _ in
                    .init(status: status, headers: ["X-Reason": "status \(status)"], text: "went wrong")
                }
            ])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }

            let rejection = try error(of: session.dataTask(.promise, with: server.url("/failing")).validate())

            let httpError = try #require(
                rejection as? HTTPError, "rejected with \(String(describing: rejection))")
            #expect(httpError.status == status)
            #expect(httpError.header("x-reason") == "status \(status)")
            #expect(httpError.headers.keys.contains { $0.lowercased() == "x-reason" })
            #expect(String(decoding: httpError.body, as: UTF8.self) == "went wrong")
            #expect(httpError.url == server.url("/failing"))
            #expect(httpError.description.contains("HTTP \(status)"))
            #expect(httpError.description.contains("went wrong"))
        }
    }

    @Test func withoutValidateA404Fulfils() async throws {
        try await offThePool {
            let server = try LoopbackServer()
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }

            let (data, response) = try value(of: session.dataTask(.promise, with: server.url("/nowhere")))

            #expect((response as? HTTPURLResponse)?.statusCode == 404)
            #expect(String(decoding: data, as: UTF8.self) == "No route for /nowhere")
        }
    }

    @Test func anUploadOfDataIsSentAsTheBody() async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: ["/echo": echo])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = "POST"

            let upload = session.uploadTask(.promise, with: request, from: Data("posted".utf8))
            let (data, response) = try value(of: upload.validate())

            #expect(String(decoding: data, as: UTF8.self) == "posted")
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Method") == "POST")
        }
    }

    @Test func anUploadFromAFileSendsTheFile() async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: ["/echo": echo])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("upload.txt")
            let contents = Data(String(repeating: "a line of the file\n", count: 500).utf8)
            try contents.write(to: file)
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = "PUT"

            let (data, response) = try value(of: session.uploadTask(.promise, with: request, fromFile: file))

            #expect(data == contents)
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Method") == "PUT")
        }
    }

    @Test func aDownloadIsMovedToTheSaveLocation() async throws {
        try await offThePool {
            let contents = Data(String(repeating: "downloaded ", count: 1_000).utf8)
            let server = try LoopbackServer(routes: ["/file": { _ in .init(body: contents) }])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let destination = directory.appendingPathComponent("saved.txt")

            let download = session.downloadTask(.promise, with: server.url("/file"), to: destination)
            let (location, response) = try value(of: download)

            #expect(location == destination)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try Data(contentsOf: destination) == contents)
        }
    }

    @Test func aDownloadToADirectoryThatDoesNotExistRejects() async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: ["/file": { _ in .init(text: "unsaved") }])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let destination = directory.appendingPathComponent("missing/saved.txt")

            let rejection = try error(
                of: session.downloadTask(.promise, with: server.url("/file"), to: destination))

            #expect(rejection != nil, "the move to a directory that does not exist succeeded")
            #expect(!(rejection is PromiseError), "rejected with \(String(describing: rejection))")
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
    }

    @Test func aLargeBodyArrivesIntactBothWays() async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: ["/echo": echo])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }
            let large = pseudorandomBytes(count: 8 * 1024 * 1024)
            let sum = checksum(large)
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = "POST"

            let (data, response) = try value(of: session.uploadTask(.promise, with: request, from: large))

            // The server reports what it received, and the body it sends back is checked here.
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.value(forHTTPHeaderField: "X-Received-Count") == String(large.count))
            #expect(http.value(forHTTPHeaderField: "X-Received-Checksum") == String(sum))
            #expect(data.count == large.count)
            #expect(checksum(data) == sum)
        }
    }

    /// Each route sends "café €" in the character set its `Content-Type` names, or bytes that
    /// are no text; `String(data:urlResponse:)` decodes each by what the server said.
    @Test func aBodyIsDecodedInTheCharacterSetItsResponseNames() async throws {
        try await offThePool {
            let text = "café"
            func route(_ contentType: String?, _ body: Data) -> LoopbackServer.Route {
                { _ in .init(headers: contentType.map { ["Content-Type": $0] } ?? [:], body: body) }
            }
            let server = try LoopbackServer(routes: [
                "/latin1": route("text/plain; charset=ISO-8859-1", text.data(using: .isoLatin1)!),
                "/utf16le": route("text/plain; charset=utf-16le", text.data(using: .utf16LittleEndian)!),
                "/quoted": route("text/plain; charset=\"UTF-8\"", Data(text.utf8)),
                "/unnamed": route(nil, Data(text.utf8)),
                "/unknown": route("text/plain; charset=x-no-such-set", Data(text.utf8)),
                "/binary": route("application/octet-stream", Data([0xFF, 0xFE, 0xC3])),
            ])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }
            func decoded(_ path: String) throws -> String? {
                let (data, response) = try value(of: session.dataTask(.promise, with: server.url(path)))
                return String(data: data, urlResponse: response)
            }

            #expect(try decoded("/latin1") == text, "ISO-8859-1 is one byte a letter, so é is 0xE9")
            #expect(try decoded("/utf16le") == text)
            #expect(try decoded("/quoted") == text)
            #expect(try decoded("/unnamed") == text, "no charset means UTF-8")
            #expect(try decoded("/unknown") == text, "an unknown charset means UTF-8")
            #expect(try decoded("/binary") == nil, "0xFF is no UTF-8")
            // The same bytes read as UTF-8 would be wrong: the charset decides.
            #expect(String(data: text.data(using: .isoLatin1)!, encoding: .utf8) == nil)
        }
    }

    @Test func aRefusedConnectionRejectsWithAURLError() async throws {
        try await offThePool {
            let port = try LoopbackServer.closedPort()
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))

            let rejection = try error(of: session.dataTask(.promise, with: url))

            let urlError = try #require(
                rejection as? URLError, "rejected with \(String(describing: rejection))")
            #expect(urlError.code == .cannotConnectToHost)
        }
    }

    @Test func cancellingThePromiseCancelsTheTask() async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: ["/slow": { _ in .init(text: "late", delay: slowDelay) }])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }

            let request = session.dataTask(.promise, with: server.url("/slow"))
            // Cancelled once the server has the request, so that it can see the client leave.
            #expect(server.wait(seconds: patience) { $0.requests["/slow"] == 1 }, "the request never arrived")
            request.cancel()

            let rejection = try error(of: request)
            #expect(
                (rejection as? PromiseError)?.isCancelled == true,
                "rejected with \(String(describing: rejection))")
            #expect(
                server.wait(seconds: patience) { $0.abandoned["/slow"] == 1 },
                "the server did not see the client disconnect: the task was not cancelled")
        }
    }

    @Test func aTimeoutRejectsAndCancelsTheTask() async throws {
        try await offThePool {
            let server = try LoopbackServer(routes: ["/slow": { _ in .init(text: "late", delay: slowDelay) }])
            defer { server.stop() }
            let session = loopbackSession()
            defer { session.invalidateAndCancel() }

            // No handle to the request is kept, so nothing but the time-out waits for it, and the
            // time-out may cancel it.
            let timed = session.dataTask(.promise, with: server.url("/slow")).timeout(seconds: 0.5)

            let rejection = try error(of: timed)
            let timedOut = if case .timedOut? = rejection as? PromiseError { true } else { false }
            #expect(timedOut, "rejected with \(String(describing: rejection))")
            #expect(
                server.wait(seconds: patience) { $0.abandoned["/slow"] == 1 },
                "the server did not see the client disconnect: the task was not cancelled")
        }
    }
}

// MARK: - Support

/// A session of its own for each test, with no cache, cookies or proxy: every request goes
/// straight to the test's server on 127.0.0.1.
private func loopbackSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.connectionProxyDictionary = [:]
    return URLSession(configuration: configuration)
}

/// Answers with the request's body, its method in `X-Method`, and its size and checksum in
/// `X-Received-Count` and `X-Received-Checksum`.
private let echo: LoopbackServer.Route = { request in
    .init(
        headers: [
            "X-Method": request.method,
            "X-Received-Count": String(request.body.count),
            "X-Received-Checksum": String(checksum(request.body)),
        ],
        body: request.body)
}

/// A hash of `data`, FNV-1a over its 8-byte words and then its last bytes: a change to any byte
/// changes it. Words rather than bytes, to spare a shared machine eight times the work.
private func checksum(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { bytes in
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let words = bytes.count / 8
        for word in 0..<words {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)) &* 0x100_0000_01b3
        }
        for byte in bytes[(words * 8)...] {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}

/// `count` bytes, a multiple of 8, from a fixed xorshift sequence: not a repeating pattern, so a
/// dropped or repeated block shows in the checksum.
private func pseudorandomBytes(count: Int) -> Data {
    var state: UInt64 = 0x9e37_79b9_7f4a_7c15
    var words = [UInt64](repeating: 0, count: count / 8)
    for index in words.indices {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        words[index] = state
    }
    return words.withUnsafeBytes { Data($0) }
}

/// A new, empty directory under the temporary directory.
private func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("VowFoundationTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Thrown when a promise does not settle within ``patience``.
private struct NotSettled: Error, CustomStringConvertible {
    var description: String { "the promise did not settle within \(patience) seconds" }
}

/// Blocks until `promise` settles and returns its result, or throws ``NotSettled``: unlike
/// `wait()`, it gives up, so a bug fails the test instead of hanging the run.
private func outcome<T>(of promise: Promise<T>) throws -> Result<T, any Error> {
    let semaphore = DispatchSemaphore(value: 0)
    promise.pipe { _ in semaphore.signal() }
    guard semaphore.wait(timeout: .now() + patience) == .success, let result = promise.result else {
        throw NotSettled()
    }
    return result
}

/// The value `promise` fulfils with; throws its error, or ``NotSettled``.
private func value<T>(of promise: Promise<T>) throws -> T {
    try outcome(of: promise).get()
}

/// The error `promise` rejects with, or `nil` if it fulfils; throws ``NotSettled``.
private func error<T>(of promise: Promise<T>) throws -> (any Error)? {
    if case .failure(let error) = try outcome(of: promise) { return error }
    return nil
}
