// Retry and timeout against a real, unreliable server. The script starts a small HTTP server on
// 127.0.0.1 whose /quote is busy twice before it answers, whose /report takes two seconds, and
// whose /feed is slow only the first time. It retries the first with backoff, gives up on the
// second in time, cancelling the request (the server sees the client hang up), and gives each
// attempt at the third a time limit of its own inside a retry.
//
//     swift run flakyservice
import Foundation
import LoopbackHTTP
import Vow
import VowFoundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let server = try LoopbackServer()
defer { server.stop() }

/// How many requests the server has read for `path`, the one being answered included.
func requests(for path: String) -> Int {
    server.activity.requests[path, default: 0]
}

server.route("/quote") { request in
    requests(for: request.path) <= 2
        ? .init(status: 503, text: "busy, try again") : .init(text: "A promise made is a debt unpaid.")
}
server.route("/report") { _ in .init(text: "the quarterly report", delay: 2) }
server.route("/feed") { request in
    .init(text: "the news feed", delay: requests(for: request.path) == 1 ? 2 : 0)
}

let session = URLSession(configuration: .ephemeral)

/// The text at `path`; rejects with `HTTPError` for a status outside 200–299.
func text(at path: String) -> Promise<String> {
    session.dataTask(.promise, with: server.url(path)).validate().map { response in
        String(decoding: response.data, as: UTF8.self)
    }
}

/// Whether a failure is worth another attempt: a busy server or an attempt out of time. A 404
/// or a refused connection would fail the same way again.
@Sendable func isTransient(_ error: any Error) -> Bool {
    if let http = error as? HTTPError { return http.status == 503 }
    if case PromiseError.timedOut = error { return true }
    return false
}

/// The three requests, each as unreliable as its route. `retry` and `RetryDelay` measure their
/// pauses on a `Clock`, which Apple platforms have from macOS 13 and iOS 16.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func fetchAll() -> Promise<(String, String, String)> {
    // Busy twice: the third attempt, after pauses of 0.1 s and 0.2 s, gets the quote.
    let quote = retry(attempts: 4, delay: .exponential(from: .milliseconds(100)), if: isTransient) {
        text(at: "/quote")
    }

    // Too slow: after 0.3 s the timeout rejects, cancels the request, and `recover` falls back.
    let report = text(at: "/report").timeout(seconds: 0.3).recover { error -> Promise<String> in
        guard case PromiseError.timedOut = error else { throw error }
        return .value("no report yet")
    }

    // A limit per attempt: the first attempt runs out of time and is cancelled, the second
    // answers.
    let feed = retry(attempts: 3, delay: .constant(.milliseconds(50)), if: isTransient) {
        text(at: "/feed").timeout(seconds: 0.3)
    }
    return when(fulfilled: quote, report, feed)
}

let started = Date()
let answers: (String, String, String)
if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
    answers = try hang(fetchAll())
} else {
    fatalError("retry needs macOS 13, iOS 16, tvOS 16 or watchOS 9")
}
let (quoteText, reportText, feedText) = answers
let elapsed = Date().timeIntervalSince(started)
print("quote, on attempt \(requests(for: "/quote")): \(quoteText)")
print("report: \(reportText)")
print("feed, on attempt \(requests(for: "/feed")): \(feedText)")

// A cancelled request closes its connection; the server counts the replies it could not send.
let hungUp = server.wait(seconds: 5) { $0.abandoned["/report"] == 1 && $0.abandoned["/feed"] == 1 }
print("the server saw the client hang up on the slow requests: \(hungUp)")
print("all three in under \(Int(elapsed.rounded(.up))) s, where the slow replies take 2 s each")

let behaved =
    quoteText.hasPrefix("A promise") && requests(for: "/quote") == 3 && reportText == "no report yet"
    && feedText == "the news feed" && requests(for: "/feed") == 2 && hungUp && elapsed < 2
if !behaved {
    print("unexpected: the example did not behave as its comments say")
    exit(1)
}
