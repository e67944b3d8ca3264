import Dispatch
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, for tests that need a real server yet must touch no
/// other address.
///
/// It listens on a port the kernel picks, accepts on a thread of its own and serves each
/// connection on a thread of its own: it reads one request, answers it from the route registered
/// for its path (404 if there is none) and closes the connection. ``stop()`` ends every thread
/// before it returns, a slow route's included.
///
/// ```swift
/// let server = try LoopbackServer(routes: [
///     "/hello": { _ in .init(text: "Hello") },
///     "/slow": { _ in .init(text: "late", delay: 30) },
/// ])
/// defer { server.stop() }
/// let (data, _) = try await URLSession.shared.data(from: server.url("/hello"))
/// ```
public final class LoopbackServer: Sendable {
    /// Answers a request; runs on the connection's thread.
    public typealias Route = @Sendable (Request) -> Response

    /// What the server has seen so far, for a test to wait on.
    public struct Activity: Sendable {
        /// How many requests the server read, by path.
        public internal(set) var requests: [String: Int] = [:]

        /// How many delayed responses were never sent because the client disconnected during
        /// the delay, by path: a cancelled request, seen from the server.
        public internal(set) var abandoned: [String: Int] = [:]
    }

    /// The port the server listens on.
    public let port: Int

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    private let listener: Int32
    // Guards every variable below, and wakes whoever waits for them to change.
    private let condition = NSCondition()
    // nonisolated(unsafe): the variables below are only read or written while holding
    // `condition`'s lock.
    nonisolated(unsafe) private var routes: [String: Route]
    nonisolated(unsafe) private var stopping = false
    nonisolated(unsafe) private var closed = false
    nonisolated(unsafe) private var threads = 0
    nonisolated(unsafe) private var seen = Activity()

    /// Starts a server that answers with `routes`, keyed by path without the query.
    public init(routes: [String: Route] = [:]) throws {
        (listener, port) = try Socket.listening()
        self.routes = routes
        threads = 1
        let thread = Thread { [self] in
            acceptConnections()
            finishThread()
        }
        thread.name = "LoopbackServer \(port) accept"
        thread.start()
    }

    /// The URL of `target`, a path with an optional query, such as `/search?q=vow`.
    public func url(_ target: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(target)")!
    }

    /// Registers `route` for `path`, replacing any route the path had.
    public func route(_ path: String, _ route: @escaping Route) {
        condition.withLock { routes[path] = route }
    }

    /// What the server has seen so far.
    public var activity: Activity {
        condition.withLock { seen }
    }

    /// Waits until `predicate` holds for ``activity``; `false` if it did not within `seconds`.
    public func wait(seconds: TimeInterval, until predicate: (Activity) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(seen) {
            guard condition.wait(until: deadline) else { return predicate(seen) }
        }
        return true
    }

    /// Stops accepting, ends the connections still open, waits until every thread of the server
    /// has finished and closes the listening socket.
    ///
    /// Each thread checks for the stop every 10 ms while it waits for input or a delay, so this
    /// returns promptly; only a send that a client does not read can hold it, for up to 10 s.
    public func stop() {
        condition.lock()
        stopping = true
        while threads > 0 { condition.wait() }
        let closing = !closed
        closed = true
        condition.unlock()
        // Closed only once the accept thread is gone, so no thread uses the number meanwhile.
        if closing { close(listener) }
    }

    /// A port on 127.0.0.1 that nothing listens on, for a connection that is refused: bound,
    /// then closed at once.
    public static func closedPort() throws -> Int {
        let (socket, port) = try Socket.bound()
        close(socket)
        return port
    }

    // MARK: - Threads

    private var isStopping: Bool {
        condition.withLock { stopping }
    }

    /// Counts a new thread unless the server is stopping.
    private func startThread() -> Bool {
        condition.withLock {
            guard !stopping else { return false }
            threads += 1
            return true
        }
    }

    private func finishThread() {
        condition.withLock {
            threads -= 1
            condition.broadcast()
        }
    }

    private func record(_ change: (inout Activity) -> Void) {
        condition.withLock {
            change(&seen)
            condition.broadcast()
        }
    }

    /// Polls rather than blocks in `accept`, so that it sees the stop without another thread
    /// closing the socket under it.
    private func acceptConnections() {
        while !isStopping {
            guard Socket.waitForInput(listener, milliseconds: 10),
                let connection = Socket.acceptConnection(on: listener)
            else { continue }
            guard startThread() else {
                close(connection)
                return
            }
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                finishThread()
            }
            thread.name = "LoopbackServer \(port) connection"
            thread.start()
        }
    }

    /// Reads one request from `connection`, waits out the response's delay while the client
    /// stays, and sends the response.
    private func serve(_ connection: Int32) {
        guard let request = read(connection) else { return }
        record { $0.requests[request.path, default: 0] += 1 }
        let route = condition.withLock { routes[request.path] }
        let response = route?(request) ?? Response(status: 404, text: "No route for \(request.path)")
        if response.delay > 0 {
            let deadline = DispatchTime.now() + response.delay
            while DispatchTime.now() < deadline {
                if isStopping { return }
                if Socket.waitForInput(connection, milliseconds: 10) && Socket.peerClosed(connection) {
                    record { $0.abandoned[request.path, default: 0] += 1 }
                    return
                }
            }
        }
        _ = Socket.sendAll(connection, response.head) && Socket.sendAll(connection, response.body)
    }

    /// The request that arrives on `connection`; `nil` if the client closes first, sends what is
    /// not HTTP, or the server stops.
    private func read(_ connection: Int32) -> Request? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let parsed: Request?
            do {
                parsed = try Request.parse(buffer)
            } catch {
                return nil
            }
            if let parsed { return parsed }
            while !Socket.waitForInput(connection, milliseconds: 10) {
                if isStopping { return nil }
            }
            let count = Socket.receive(connection, into: &chunk)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}
