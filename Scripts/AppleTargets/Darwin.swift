// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, TypeNamesShouldBeCapitalized
// (Each declaration is the C library's, named as it is there; its manual page documents it.)
//
// A stand-in for Apple's Darwin module, for Scripts/check-apple-targets: it declares, as the SDK
// does, only the API that Vow and VowFoundation use, and nothing of it runs. A new use of the C
// library in Sources/ needs a line here, or the check fails with "cannot find … in scope".
//
// Each declaration is what Swift imports from the C headers of the iOS 16.2 SDK (usr/include, in
// the public mirror chrisharper22/sdks; Apple's other SDKs share these files), in the header
// named above it, or, where a header has nothing Swift can import, what the SDK's Darwin overlay
// (usr/lib/swift/Darwin.swiftmodule) declares instead. The import rules that shape them:
// - pthread.h is in an `assume_nonnull` region, so its unannotated pointers are non-optional;
//   the other headers have no nullability, so theirs are implicitly unwrapped optionals.
// - `int` is Int32, `long`, `ssize_t` and `size_t` are Int, `short` is Int16.
// - A C function's result may be ignored without a warning, as @discardableResult says here.
// - A `#define` of a number becomes a read-only Int32.
// - A C struct is Sendable when its fields are.

// MARK: - pthread.h and sys/_pthread/_pthread_types.h

public struct _opaque_pthread_mutex_t: Sendable {
    public init() {}
}

public struct _opaque_pthread_mutexattr_t: Sendable {}

public typealias pthread_mutex_t = _opaque_pthread_mutex_t
public typealias pthread_mutexattr_t = _opaque_pthread_mutexattr_t
/// `typedef unsigned long __darwin_pthread_key_t`
public typealias pthread_key_t = UInt

@discardableResult
public func pthread_mutex_init(
    _ mutex: UnsafeMutablePointer<pthread_mutex_t>, _ attributes: UnsafePointer<pthread_mutexattr_t>?
) -> Int32 { 0 }

@discardableResult
public func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { 0 }

@discardableResult
public func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { 0 }

@discardableResult
public func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) -> Int32 { 0 }

/// `int pthread_key_create(pthread_key_t *, void (* _Nullable)(void *))`: on Linux the destructor
/// takes an optional pointer, here it does not.
@discardableResult
public func pthread_key_create(
    _ key: UnsafeMutablePointer<pthread_key_t>,
    _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)?
) -> Int32 { 0 }

/// `int pthread_setspecific(pthread_key_t, const void * _Nullable)`
@discardableResult
public func pthread_setspecific(_ key: pthread_key_t, _ value: UnsafeRawPointer?) -> Int32 { 0 }

// MARK: - unistd.h and fcntl.h

@discardableResult
public func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer!, _ count: Int) -> Int { 0 }

@discardableResult
public func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer!, _ count: Int) -> Int { 0 }

@discardableResult
public func close(_ descriptor: Int32) -> Int32 { 0 }

/// `int pipe(int [2])`
@discardableResult
public func pipe(_ descriptors: UnsafeMutablePointer<Int32>!) -> Int32 { 0 }

/// fcntl(2) is variadic, which Swift does not import; this is the Darwin overlay's own.
@discardableResult
public func fcntl(_ descriptor: Int32, _ command: Int32, _ value: Int32) -> Int32 { 0 }

public var F_SETFD: Int32 { 2 }
public var FD_CLOEXEC: Int32 { 1 }

/// The Darwin overlay's, which takes no mode.
public func open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { 0 }

public var O_RDWR: Int32 { 2 }
public var O_CLOEXEC: Int32 { 0x0100_0000 }

// MARK: - stdlib.h and string.h

public func strdup(_ string: UnsafePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { nil }

public func free(_ pointer: UnsafeMutableRawPointer?) {}

// MARK: - signal.h and sys/signal.h

/// `typedef __uint32_t __darwin_sigset_t`: a number, where Linux has a struct.
public typealias sigset_t = UInt32
public typealias pid_t = Int32

@discardableResult
public func kill(_ process: pid_t, _ signal: Int32) -> Int32 { 0 }

@discardableResult
public func sigemptyset(_ set: UnsafeMutablePointer<sigset_t>!) -> Int32 { 0 }

@discardableResult
public func sigfillset(_ set: UnsafeMutablePointer<sigset_t>!) -> Int32 { 0 }

/// pthread.h declares it again, with `_Nullable` pointers, which Swift imports rather than
/// signal.h's unannotated ones.
@discardableResult
public func pthread_sigmask(
    _ how: Int32, _ set: UnsafePointer<sigset_t>?, _ previous: UnsafeMutablePointer<sigset_t>?
) -> Int32 { 0 }

public var SIGHUP: Int32 { 1 }
public var SIGINT: Int32 { 2 }
public var SIGQUIT: Int32 { 3 }
public var SIGKILL: Int32 { 9 }
public var SIGTERM: Int32 { 15 }
public var SIG_BLOCK: Int32 { 1 }
public var SIG_SETMASK: Int32 { 3 }

// MARK: - poll.h and sys/poll.h

public struct pollfd: Sendable {
    public var fd: Int32
    public var events: Int16
    public var revents: Int16

    public init(fd: Int32, events: Int16, revents: Int16) {
        self.fd = fd
        self.events = events
        self.revents = revents
    }
}

public typealias nfds_t = UInt32

@discardableResult
public func poll(_ descriptors: UnsafeMutablePointer<pollfd>!, _ count: nfds_t, _ timeout: Int32) -> Int32 {
    0
}

public var POLLIN: Int32 { 1 }

// MARK: - errno.h, sys/errno.h and math.h

/// The Darwin overlay's: C's `errno` is a macro.
public var errno: Int32 {
    get { 0 }
    set {}
}

public var EPERM: Int32 { 1 }
public var ENOENT: Int32 { 2 }
public var ESRCH: Int32 { 3 }
public var EINTR: Int32 { 4 }
public var EACCES: Int32 { 13 }
public var EFBIG: Int32 { 27 }
public var EAGAIN: Int32 { 35 }

@discardableResult
public func pow(_ base: Double, _ exponent: Double) -> Double { 0 }
