public import Foundation

extension LoopbackServer {
    /// A request as the server read it: the request line, the headers and the body.
    public struct Request: Sendable {
        /// The method, such as `GET` or `POST`.
        public let method: String

        /// The request target as sent, query included, such as `/search?q=vow`.
        public let target: String

        /// The header fields, each name lowercased, since HTTP names are case-insensitive.
        public let headers: [String: String]

        /// The body: as many bytes as `Content-Length` says.
        public let body: Data

        /// The target without its query: what the routes are keyed by.
        public var path: String {
            String(target.prefix { $0 != "?" })
        }

        /// The value of the header field `name`, whatever its case.
        public func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }
    }

    /// What a route answers: a status, header fields and a body, sent after an optional delay.
    public struct Response: Sendable {
        /// The status code, such as 200 or 404.
        public var status: Int

        /// Header fields to send besides `Content-Length` and `Connection`, which the server sets.
        public var headers: [String: String]

        /// The body.
        public var body: Data

        /// How long to wait before answering. The wait ends early, and nothing is sent, when the
        /// client disconnects or the server stops, so a slow route never keeps a thread alive.
        public var delay: TimeInterval

        /// A response with a body of bytes.
        public init(
            status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: TimeInterval = 0
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        /// A response with a UTF-8 text body, labelled `text/plain` unless `headers` say otherwise.
        public init(status: Int = 200, headers: [String: String] = [:], text: String, delay: TimeInterval = 0)
        {
            var headers = headers
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                headers["Content-Type"] = "text/plain; charset=utf-8"
            }
            self.init(status: status, headers: headers, body: Data(text.utf8), delay: delay)
        }

        /// The status line and header fields, ending with the blank line before the body.
        var head: Data {
            var lines = ["HTTP/1.1 \(status) \(Self.reason(status))"]
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                lines.append("\(name): \(value)")
            }
            lines.append("Content-Length: \(body.count)")
            // One request a connection keeps the server simple; clients open a new one.
            lines.append("Connection: close")
            return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        }

        /// The reason phrase for the statuses the tests use; clients ignore it anyway.
        private static func reason(_ status: Int) -> String {
            switch status {
            case 200: "OK"
            case 201: "Created"
            case 204: "No Content"
            case 400: "Bad Request"
            case 404: "Not Found"
            case 500: "Internal Server Error"
            case 503: "Service Unavailable"
            default: "Status \(status)"
            }
        }
    }
}

extension LoopbackServer.Request {
    /// Parses a request from the start of `buffer`: `nil` until the head and the whole body are
    /// there. Throws if the head is not HTTP/1.1 as this server reads it.
    static func parse(_ buffer: [UInt8]) throws -> LoopbackServer.Request? {
        guard let headEnd = buffer.endOfHead else { return nil }
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count == 3 else { throw MalformedRequest(head: head) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw MalformedRequest(head: head) }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        // URLSession sends a length with every body it uploads, a file's included; a chunked
        // body is not read, rather than read wrong.
        guard headers["transfer-encoding"] == nil else { throw MalformedRequest(head: head) }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let body = buffer[headEnd.upperBound...].prefix(length)
        guard body.count == length else { return nil }
        return .init(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: Data(body)
        )
    }
}

extension [UInt8] {
    /// Where the blank line that ends a head is: the range of its CR LF CR LF. Written out, as
    /// the standard library's `firstRange(of:)` needs macOS 13.
    fileprivate var endOfHead: Range<Int>? {
        let blankLine: [UInt8] = [13, 10, 13, 10]
        guard count >= blankLine.count else { return nil }
        return (0...(count - blankLine.count)).lazy
            .first { self[$0..<($0 + blankLine.count)].elementsEqual(blankLine) }
            .map { $0..<($0 + blankLine.count) }
    }
}

/// A request the server could not read; it closes the connection without answering.
struct MalformedRequest: Error {
    let head: String
}
