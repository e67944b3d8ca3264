// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Each declaration is Foundation's own; its documentation is Apple's.)
//
// A stand-in for Apple's Foundation module, for Scripts/check-apple-targets: it declares, as the
// SDK does, only the API that Vow and VowFoundation use, and nothing of it runs. A new use of
// Foundation in Sources/ needs a line here, or the check fails with "cannot find … in scope" or
// "has no member".
//
// Sources, for every declaration:
// - The Objective-C classes (NSObject, NSLock, Thread, Progress, RunLoop, OperationQueue,
//   URLSession with its tasks and responses, FileManager, NotificationCenter, FileHandle, Pipe,
//   Process): what Swift imports from the iOS 16.2 SDK's Foundation headers
//   (Foundation.framework/Headers, in the public mirror chrisharper22/sdks). They are audited
//   for sendability: a class is Sendable where its header says NS_SWIFT_SENDABLE, a block marked
//   NS_SWIFT_SENDABLE is a @Sendable closure, NS_SWIFT_UNAVAILABLE_FROM_ASYNC is `noasync`.
// - Where a later SDK's header says more, the later one wins. The iOS 17.0 SDK's NSNotification.h
//   (itsnebulalol/sdks) makes NSNotificationCenter NS_SWIFT_SENDABLE. A 2025 SDK's NSOperation.h
//   and NSTask.h (the headers with documentation comments) make NSOperationQueue and NSTask
//   NS_SWIFT_SENDABLE, and the block of `addOperationWithBlock:` too. NSTask.h, which declares
//   Process, is macOS's alone, hence the `#if os(macOS)` around it.
// - FileManager is Sendable as swift-foundation declares it, since no header read here marks
//   NSFileManager: this is the one guess, and the first suspect if a Mac disagrees.
// - The Swift overlay (TimeInterval, Date, Data, URL, URLRequest, CharacterSet, Notification,
//   URLError, CocoaError, POSIXError, LocalizedError, the String methods, `NSLocking.withLock`):
//   the iOS 17.4 SDK's Foundation.swiftinterface (Foundation.framework/Modules, Swift 5.10, in
//   the public mirror danpashin/sdks).
// - Foundation exports Darwin and Dispatch, as its Objective-C module does on Apple platforms.

@_exported import Darwin
@_exported import Dispatch

public typealias TimeInterval = Double

// MARK: - NSObject and locks

public protocol NSObjectProtocol: AnyObject {}

open class NSObject: NSObjectProtocol, Hashable {
    public init() {}

    public static func == (lhs: NSObject, rhs: NSObject) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {}
}

/// NSLock.h: `lock` and `unlock` are NS_SWIFT_UNAVAILABLE_FROM_ASYNC("Use async-safe scoped
/// locking instead").
public protocol NSLocking {
    @available(*, noasync, message: "Use async-safe scoped locking instead")
    func lock()
    @available(*, noasync, message: "Use async-safe scoped locking instead")
    func unlock()
}

@available(macOS 10.10, iOS 8.0, watchOS 2.0, tvOS 9.0, *)
extension NSLocking {
    @_alwaysEmitIntoClient
    @_disfavoredOverload
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        self.lock()
        defer { self.unlock() }
        return try body()
    }
}

open class NSLock: NSObject, NSLocking, @unchecked Sendable {
    @available(*, noasync, message: "Use async-safe scoped locking instead")
    open func lock() {}
    @available(*, noasync, message: "Use async-safe scoped locking instead")
    open func unlock() {}
}

// MARK: - Threads, run loops and operation queues

public struct Date: Comparable, Hashable, Sendable {
    public init(timeIntervalSinceNow: TimeInterval) {}

    public static func < (lhs: Date, rhs: Date) -> Bool { false }
}

open class Thread: NSObject {
    @available(macOS 10.5, iOS 2.0, watchOS 2.0, tvOS 9.0, *)
    @available(*, noasync, message: "Work intended for the main actor should be marked with @MainActor")
    open class var isMainThread: Bool { true }

    @available(*, noasync, message: "Use Task.sleep(until:clock:) instead.")
    open class func sleep(forTimeInterval ti: TimeInterval) {}

    @available(macOS 10.12, iOS 10.0, watchOS 3.0, tvOS 10.0, *)
    public convenience init(block: @escaping @Sendable () -> Void) {
        self.init()
    }

    @available(macOS 10.5, iOS 2.0, watchOS 2.0, tvOS 9.0, *)
    open func start() {}

    @available(macOS 10.5, iOS 2.0, watchOS 2.0, tvOS 9.0, *)
    open var name: String? {
        get { nil }
        set {}
    }

    @available(macOS 10.5, iOS 2.0, watchOS 2.0, tvOS 9.0, *)
    open var stackSize: Int {
        get { 0 }
        set {}
    }
}

open class RunLoop: NSObject {
    public struct Mode: Hashable, RawRepresentable, Sendable {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public static let `default` = Mode(rawValue: "kCFRunLoopDefaultMode")
    }

    @available(macOS 10.5, iOS 2.0, watchOS 2.0, tvOS 9.0, *)
    open class var main: RunLoop { RunLoop() }

    open func run(mode: Mode, before limitDate: Date) -> Bool { false }
}

@available(macOS 10.5, iOS 2.0, watchOS 2.0, tvOS 9.0, *)
open class OperationQueue: NSObject, @unchecked Sendable {
    @available(macOS 10.6, iOS 4.0, watchOS 2.0, tvOS 9.0, *)
    open func addOperation(_ block: @escaping @Sendable () -> Void) {}
}

@available(macOS 10.9, iOS 7.0, watchOS 2.0, tvOS 9.0, *)
open class Progress: NSObject, @unchecked Sendable {
    @available(*, noasync, message: "Progress for the current thread cannot be used in async contexts.")
    open class func current() -> Progress? { nil }

    public convenience init(totalUnitCount unitCount: Int64) {
        self.init()
    }

    open var totalUnitCount: Int64 = 0
    open var completedUnitCount: Int64 = 0
    open var isCancellable = true
    open var isPausable = false
}

// MARK: - Values

public struct Data: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Hashable,
    Sendable
{
    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { 0 }

    public subscript(position: Int) -> UInt8 {
        get { 0 }
        set {}
    }

    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == UInt8 {}
}

public struct URL: Hashable, Sendable {
    public var path: String { "" }
    public var absoluteString: String { "" }
}

public struct URLRequest: Hashable, Sendable {
    public init(url: URL) {}
}

public struct CharacterSet: Hashable, Sendable {
    public static var whitespacesAndNewlines: CharacterSet { CharacterSet() }
}

@frozen
public enum ComparisonResult: Int, Sendable {
    case orderedAscending = -1
    case orderedSame = 0
    case orderedDescending = 1
}

extension String {
    public struct Encoding: RawRepresentable, Sendable, Equatable {
        public let rawValue: UInt

        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        public static let ascii = Encoding(rawValue: 1)
        public static let japaneseEUC = Encoding(rawValue: 3)
        public static let utf8 = Encoding(rawValue: 4)
        public static let isoLatin1 = Encoding(rawValue: 5)
        public static let shiftJIS = Encoding(rawValue: 8)
        public static let isoLatin2 = Encoding(rawValue: 9)
        public static let utf16 = Encoding(rawValue: 10)
        public static let windowsCP1251 = Encoding(rawValue: 11)
        public static let windowsCP1252 = Encoding(rawValue: 12)
        public static let windowsCP1253 = Encoding(rawValue: 13)
        public static let windowsCP1254 = Encoding(rawValue: 14)
        public static let windowsCP1250 = Encoding(rawValue: 15)
        public static let iso2022JP = Encoding(rawValue: 21)
        public static let macOSRoman = Encoding(rawValue: 30)
        public static let utf16BigEndian = Encoding(rawValue: 0x9000_0100)
        public static let utf16LittleEndian = Encoding(rawValue: 0x9400_0100)
        public static let utf32 = Encoding(rawValue: 0x8C00_0100)
        public static let utf32BigEndian = Encoding(rawValue: 0x9800_0100)
        public static let utf32LittleEndian = Encoding(rawValue: 0x9C00_0100)
    }

    public init?(data: Data, encoding: Encoding) {
        return nil
    }
}

extension StringProtocol {
    public func caseInsensitiveCompare<T: StringProtocol>(_ aString: T) -> ComparisonResult { .orderedSame }

    public func trimmingCharacters(in set: CharacterSet) -> String { "" }

    public func replacingOccurrences<Target: StringProtocol, Replacement: StringProtocol>(
        of target: Target, with replacement: Replacement
    ) -> String { "" }
}

/// Not Sendable: its `userInfo` and `object` may hold anything.
public struct Notification: Hashable {
    public struct Name: RawRepresentable, Hashable, Sendable {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }
}

// MARK: - Errors

public struct URLError: Error, Hashable, Sendable {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// NSURLErrorCancelled
        public static var cancelled: Code { Code(rawValue: -999) }
    }

    public var code: Code { Code(rawValue: 0) }
}

public struct CocoaError: Error, Hashable, Sendable {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// NSUserCancelledError
        public static var userCancelled: Code { Code(rawValue: 3072) }
        /// NSFileNoSuchFileError
        public static var fileNoSuchFile: Code { Code(rawValue: 4) }
        /// NSFileReadUnknownError
        public static var fileReadUnknown: Code { Code(rawValue: 256) }
        /// NSFileReadNoPermissionError
        public static var fileReadNoPermission: Code { Code(rawValue: 257) }
        /// NSFileReadNoSuchFileError
        public static var fileReadNoSuchFile: Code { Code(rawValue: 260) }
        /// NSFileReadTooLargeError
        public static var fileReadTooLarge: Code { Code(rawValue: 263) }
    }

    public var code: Code { Code(rawValue: 0) }

    public static var fileNoSuchFile: Code { .fileNoSuchFile }
}

open class NSError: NSObject, Error, @unchecked Sendable {
    public init(domain: String, code: Int, userInfo dict: [String: Any]? = nil) {}
}

public let NSCocoaErrorDomain: String = ""
public let NSPOSIXErrorDomain: String = ""
public let NSFilePathErrorKey: String = ""
public let NSUnderlyingErrorKey: String = ""

/// sys/errno.h's numbers, as the overlay imports them.
public enum POSIXErrorCode: Int32, Sendable {
    case EIO = 5
    case ECHILD = 10
    case ECANCELED = 89
}

public struct POSIXError: Error, Hashable, Sendable {
    public init(_ code: POSIXErrorCode) {}
}

public protocol LocalizedError: Error {
    var errorDescription: String? { get }
}

// MARK: - URLSession

open class URLResponse: NSObject, @unchecked Sendable {
    open var url: URL? { nil }
    open var textEncodingName: String? { nil }
}

open class HTTPURLResponse: URLResponse, @unchecked Sendable {
    open var statusCode: Int { 0 }
    open var allHeaderFields: [AnyHashable: Any] { [:] }
}

open class URLSessionTask: NSObject, @unchecked Sendable {
    open func cancel() {}
    open func resume() {}
}

open class URLSessionDataTask: URLSessionTask, @unchecked Sendable {}

open class URLSessionUploadTask: URLSessionDataTask, @unchecked Sendable {}

open class URLSessionDownloadTask: URLSessionTask, @unchecked Sendable {}

open class URLSession: NSObject, @unchecked Sendable {
    open func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask { URLSessionDataTask() }

    open func uploadTask(
        with request: URLRequest, fromFile fileURL: URL,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask { URLSessionUploadTask() }

    open func uploadTask(
        with request: URLRequest, from bodyData: Data?,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask { URLSessionUploadTask() }

    open func downloadTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (URL?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDownloadTask { URLSessionDownloadTask() }
}

open class FileManager: NSObject, @unchecked Sendable {
    open class var `default`: FileManager { FileManager() }

    @available(macOS 10.6, iOS 4.0, watchOS 2.0, tvOS 9.0, *)
    open func moveItem(at srcURL: URL, to dstURL: URL) throws {}
}

// MARK: - Notifications

open class NotificationCenter: NSObject, @unchecked Sendable {
    @available(macOS 10.6, iOS 4.0, watchOS 2.0, tvOS 9.0, *)
    open func addObserver(
        forName name: Notification.Name?, object obj: Any?, queue: OperationQueue?,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol { NSObject() }

    open func removeObserver(_ observer: Any) {}
}

// MARK: - Files, pipes and processes

open class FileHandle: NSObject, @unchecked Sendable {
    open class var standardInput: FileHandle { FileHandle() }
    open class var standardOutput: FileHandle { FileHandle() }
    open class var standardError: FileHandle { FileHandle() }
    open class var nullDevice: FileHandle { FileHandle() }

    open var fileDescriptor: Int32 { 0 }

    /// `closeAndReturnError:`
    @available(macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0, *)
    open func close() throws {}
}

open class Pipe: NSObject, @unchecked Sendable {
    open var fileHandleForReading: FileHandle { FileHandle() }
    open var fileHandleForWriting: FileHandle { FileHandle() }
}

open class ProcessInfo: NSObject, @unchecked Sendable {
    open class var processInfo: ProcessInfo { ProcessInfo() }
    open var environment: [String: String] { [:] }
}

#if os(macOS)
open class Process: NSObject, @unchecked Sendable {
    @available(macOS 10.6, *)
    public enum TerminationReason: Int, Sendable {
        case exit = 1
        case uncaughtSignal = 2
    }

    @available(macOS 10.13, *)
    open var executableURL: URL?
    open var arguments: [String]?
    open var environment: [String: String]?
    @available(macOS 10.13, *)
    open var currentDirectoryURL: URL?
    open var standardInput: Any?
    open var standardOutput: Any?
    open var standardError: Any?

    open var processIdentifier: Int32 { 0 }
    open var terminationStatus: Int32 { 0 }
    @available(macOS 10.6, *)
    open var terminationReason: TerminationReason { .exit }
    @available(macOS 10.7, *)
    open var terminationHandler: (@Sendable (Process) -> Void)?

    /// `launchAndReturnError:`
    @available(macOS 10.13, *)
    open func run() throws {}
}
#endif
