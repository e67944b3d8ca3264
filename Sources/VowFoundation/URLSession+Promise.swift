public import Foundation
public import Vow

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Something a URLSession promise can build its request from: a `URL` or a `URLRequest`, or a
/// type of your own.
///
/// PromiseKit names the property `pmkRequest`. Vow names it `urlRequest`. Only a conformance
/// of your own has to change when you move; calls that pass a `URL` or a `URLRequest` stay the
/// same.
///
/// ```swift
/// struct Endpoint: URLRequestConvertible {
///     let path: String
///     var urlRequest: URLRequest {
///         URLRequest(url: URL(string: "https://api.example.com")!.appendingPathComponent(path))
///     }
/// }
/// URLSession.shared.dataTask(.promise, with: Endpoint(path: "users"))
/// ```
public protocol URLRequestConvertible {
    /// The request to send.
    ///
    /// ```swift
    /// let request = URL(string: "https://example.com")!.urlRequest
    /// ```
    var urlRequest: URLRequest { get }
}

extension URLRequest: URLRequestConvertible {
    /// The request itself.
    ///
    /// ```swift
    /// var request = URLRequest(url: url)
    /// request.httpMethod = "DELETE"
    /// URLSession.shared.dataTask(.promise, with: request)
    /// ```
    public var urlRequest: URLRequest { self }
}

extension URL: URLRequestConvertible {
    /// A `GET` request for the URL, with the session's default cache policy and time-out.
    ///
    /// ```swift
    /// URLSession.shared.dataTask(.promise, with: URL(string: "https://example.com")!)
    /// ```
    public var urlRequest: URLRequest { URLRequest(url: self) }
}

extension URLSession {
    /// Starts a data task for `convertible` and returns a promise of the body and the response.
    ///
    /// Any response fulfils the promise, a 404 or a 500 included; add
    /// ``Vow/Promise/validate(file:line:)`` to reject a status outside 200–299 with an
    /// ``HTTPError``. A transport failure, such as a refused connection, rejects with the
    /// `URLError` the session reports. Cancelling the promise cancels the task.
    ///
    /// ```swift
    /// URLSession.shared.dataTask(.promise, with: url).validate().map { data, _ in
    ///     try JSONDecoder().decode(User.self, from: data)
    /// }.done { user in
    ///     show(user)
    /// }
    /// ```
    public func dataTask(
        _: Namespacer, with convertible: some URLRequestConvertible,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<(data: Data, response: URLResponse)> {
        started(file: file, line: line) { dataTask(with: convertible.urlRequest, completionHandler: $0) }
    }

    /// Starts an upload task that sends `data` as the body of `convertible`'s request and
    /// returns a promise of the response's body and the response.
    ///
    /// It settles and cancels as ``dataTask(_:with:file:line:)`` does.
    ///
    /// ```swift
    /// var request = URLRequest(url: url)
    /// request.httpMethod = "POST"
    /// URLSession.shared.uploadTask(.promise, with: request, from: json).validate().done { _ in
    ///     markSaved()
    /// }
    /// ```
    public func uploadTask(
        _: Namespacer, with convertible: some URLRequestConvertible, from data: Data,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<(data: Data, response: URLResponse)> {
        started(file: file, line: line) {
            uploadTask(with: convertible.urlRequest, from: data, completionHandler: $0)
        }
    }

    /// Starts an upload task that sends the file at `fileURL` as the body of `convertible`'s
    /// request and returns a promise of the response's body and the response.
    ///
    /// It settles and cancels as ``dataTask(_:with:file:line:)`` does.
    ///
    /// ```swift
    /// var request = URLRequest(url: url)
    /// request.httpMethod = "PUT"
    /// URLSession.shared.uploadTask(.promise, with: request, fromFile: archive).validate().done { _ in
    ///     removeItem(at: archive)
    /// }
    /// ```
    public func uploadTask(
        _: Namespacer, with convertible: some URLRequestConvertible, fromFile fileURL: URL,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<(data: Data, response: URLResponse)> {
        started(file: file, line: line) {
            uploadTask(with: convertible.urlRequest, fromFile: fileURL, completionHandler: $0)
        }
    }

    /// Starts a download task for `convertible`, moves the downloaded file to `saveLocation`
    /// and returns a promise of that location and the response.
    ///
    /// The session deletes its temporary file once its completion handler returns, so the move
    /// happens there, and a destination is required. The directory of `saveLocation` must exist
    /// and nothing may be at `saveLocation` itself; a move that fails rejects with its error.
    /// Any response fulfils the promise, as with ``dataTask(_:with:file:line:)``. Cancelling the
    /// promise cancels the task, and a file that arrives after the cancellation is not moved.
    ///
    /// ```swift
    /// let destination = caches.appendingPathComponent("video.mp4")
    /// URLSession.shared.downloadTask(.promise, with: url, to: destination).done { location, _ in
    ///     play(location)
    /// }
    /// ```
    public func downloadTask(
        _: Namespacer, with convertible: some URLRequestConvertible, to saveLocation: URL,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<(saveLocation: URL, response: URLResponse)> {
        Promise(file: file, line: line) { resolver in
            let task = downloadTask(with: convertible.urlRequest) { temporary, response, error in
                guard let temporary, let response, error == nil else {
                    resolver.reject(error ?? PromiseError.invalidCallingConvention)
                    return
                }
                // A cancelled promise has already rejected: keep the file from appearing later.
                guard !resolver.isCancelled else { return }
                do {
                    try FileManager.default.moveItem(at: temporary, to: saveLocation)
                    resolver.fulfill((saveLocation, response))
                } catch {
                    resolver.reject(error)
                }
            }
            task.start(cancelledBy: resolver)
        }
    }
}

extension URLSession {
    /// The promise of a data or upload task that `makeTask` makes with the completion handler
    /// it is given, which settles the promise: the error wins; without one, a response
    /// fulfils, with an empty body if the session passed none.
    fileprivate func started(
        file: StaticString, line: UInt,
        _ makeTask: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask
    ) -> Promise<(data: Data, response: URLResponse)> {
        Promise(file: file, line: line) { resolver in
            let task = makeTask { data, response, error in
                if let error {
                    resolver.reject(error)
                } else if let response {
                    resolver.fulfill((data ?? Data(), response))
                } else {
                    resolver.reject(PromiseError.invalidCallingConvention)
                }
            }
            task.start(cancelledBy: resolver)
        }
    }
}

extension URLSessionTask {
    /// Lets a cancellation of the promise cancel the task, then starts it.
    fileprivate func start<T>(cancelledBy resolver: Resolver<T>) {
        resolver.onCancel { self.cancel() }
        resume()
    }
}

/// A response whose status is outside 200–299, with what the server sent, as
/// ``Vow/Promise/validate(file:line:)`` rejects with it.
///
/// PromiseKit rejects with `PMKHTTPError.badStatusCode(Int, Data, HTTPURLResponse)`; this
/// carries the same status and body, with the headers and the URL copied out of the response.
///
/// ```swift
/// URLSession.shared.dataTask(.promise, with: url).validate().catch { error in
///     if let error = error as? HTTPError, error.status == 401 {
///         signIn()
///     }
/// }
/// ```
public struct HTTPError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The status code, such as 404.
    ///
    /// ```swift
    /// if error.status == 503 { retryLater() }
    /// ```
    public let status: Int

    /// The response's header fields.
    ///
    /// ```swift
    /// let retryAfter = error.headers["Retry-After"]
    /// ```
    public let headers: [String: String]

    /// The response's body, which often says what went wrong.
    ///
    /// ```swift
    /// let problem = try JSONDecoder().decode(Problem.self, from: error.body)
    /// ```
    public let body: Data

    /// The URL of the response, after any redirect.
    ///
    /// ```swift
    /// log("\(error.status) from \(error.url?.absoluteString ?? "?")")
    /// ```
    public let url: URL?

    /// An error with the given parts, such as a test's stub.
    ///
    /// ```swift
    /// let notFound = HTTPError(status: 404, headers: [:], body: Data(), url: nil)
    /// ```
    public init(status: Int, headers: [String: String], body: Data, url: URL?) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The error for `response`, whose body was `body`.
    init(_ response: HTTPURLResponse, body: Data) {
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields {
            headers[name] = value
        }
        self.init(status: response.statusCode, headers: headers, body: body, url: response.url)
    }

    /// The value of the header field `name`, whatever its case, as HTTP names are
    /// case-insensitive.
    ///
    /// ```swift
    /// let type = error.header("content-type")
    /// ```
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The status, the URL and the start of the body, such as
    /// `HTTP 404 from https://example.com/users/7: {"error":"no such user"}`.
    ///
    /// ```swift
    /// print(error)
    /// ```
    public var description: String {
        "HTTP \(status) from \(url?.absoluteString ?? "an unknown URL"): \(bodyPreview)"
    }

    /// The description, for `localizedDescription`, which otherwise says nothing on Linux.
    ///
    /// ```swift
    /// showAlert(message: error.localizedDescription)
    /// ```
    public var errorDescription: String? { description }

    /// The body as text, cut short after 200 characters, or its size if it is not UTF-8.
    private var bodyPreview: String {
        guard !body.isEmpty else { return "empty body" }
        guard let text = String(data: body, encoding: .utf8) else { return "\(body.count) bytes" }
        let preview = text.prefix(200)
        return preview.endIndex < text.endIndex ? "\(preview)…" : text
    }
}

extension Promise where T == (data: Data, response: URLResponse) {
    /// Passes the body and the response on if the status is 200–299, and rejects with an
    /// ``HTTPError`` that carries the status, the headers and the body if not.
    ///
    /// A response that is not HTTP, such as a `file:` URL's, passes as it is. The check runs
    /// inline, on the thread that fulfils this promise.
    ///
    /// ```swift
    /// URLSession.shared.dataTask(.promise, with: url).validate().done { data, _ in
    ///     show(data)
    /// }.catch { error in
    ///     if let error = error as? HTTPError { report(error.status, error.body) }
    /// }
    /// ```
    public func validate(file: StaticString = #fileID, line: UInt = #line) -> Promise<T> {
        // Vow's `validate`, so that the step is named as the caller wrote it.
        validate(on: nil, file: file, line: line) { result in
            guard let response = result.response as? HTTPURLResponse,
                !(200..<300).contains(response.statusCode)
            else { return true }
            throw HTTPError(response, body: result.data)
        }
    }
}
