import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX socket calls the server makes, with the differences between Linux and Darwin kept
/// here.
enum Socket {
    #if canImport(Glibc)
    private static let stream = Int32(SOCK_STREAM.rawValue)
    // A write to a socket the client has closed fails with EPIPE instead of killing the
    // test process with SIGPIPE.
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let stream = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif

    /// A new IPv4 stream socket, or -1. Named apart from `socket`, the name of many a variable.
    private static func open(_ type: Int32) -> Int32 {
        socket(AF_INET, type, 0)
    }

    /// A socket bound to 127.0.0.1 on a port the kernel picks, and that port.
    static func bound() throws -> (socket: Int32, port: Int) {
        let socket = Socket.open(stream)
        guard socket >= 0 else { throw SocketError(call: "socket", code: errno) }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard result == 0 else {
            let code = errno
            close(socket)
            throw SocketError(call: "bind", code: code)
        }
        var boundLength = length
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &boundLength) }
        }
        guard named == 0 else {
            let code = errno
            close(socket)
            throw SocketError(call: "getsockname", code: code)
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A socket listening on 127.0.0.1, and its port.
    static func listening() throws -> (socket: Int32, port: Int) {
        let (socket, port) = try bound()
        guard listen(socket, 64) == 0 else {
            let code = errno
            close(socket)
            throw SocketError(call: "listen", code: code)
        }
        return (socket, port)
    }

    /// Accepts a connection that `waitForInput` said is waiting; `nil` if it went away meanwhile.
    static func acceptConnection(on socket: Int32) -> Int32? {
        let connection = accept(socket, nil, nil)
        guard connection >= 0 else { return nil }
        // A client that stops reading must not block a send, and so `stop()`, for long.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return connection
    }

    /// Whether `socket` has input, or an end of input, within `milliseconds`.
    static func waitForInput(_ socket: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Reads what has arrived, up to `buffer.count` bytes: the count, zero once the peer has
    /// closed, negative on an error.
    static func receive(_ socket: Int32, into buffer: inout [UInt8]) -> Int {
        buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    }

    /// Whether the peer has closed its end or reset the connection; input that arrived instead
    /// is read and dropped, since one request a connection is all the server reads.
    static func peerClosed(_ socket: Int32) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 512)
        let count = scratch.withUnsafeMutableBytes {
            recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
        }
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Sends all of `data`; `false` if the connection failed first.
    static func sendAll(_ socket: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(socket, bytes.baseAddress! + sent, bytes.count - sent, sendFlags)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }
}

/// A socket call that failed, with its `errno`.
public struct SocketError: Error, CustomStringConvertible {
    /// The call that failed, such as `bind`.
    public let call: String

    /// The `errno` it left.
    public let code: Int32

    /// The call and the system's message for the code.
    public var description: String {
        "\(call) failed: \(String(cString: strerror(code)))"
    }
}
