// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Each declaration is Dispatch's own; its documentation is Apple's.)
//
// A stand-in for Apple's Dispatch module, for Scripts/check-apple-targets: it declares, as the SDK
// does, only the API that Vow and VowFoundation use, and nothing of it runs. A new use of
// Dispatch in Sources/ needs a line here, or the check fails with "cannot find … in scope" or
// "has no member".
//
// Sources, for every declaration:
// - Signatures and availability: the Dispatch overlay of the iOS 17.4 SDK
//   (usr/lib/swift/Dispatch.swiftmodule/arm64-apple-ios.swiftinterface, Swift 5.10, in the public
//   mirror danpashin/sdks), with its `@preconcurrency` `@Sendable` blocks and its
//   `@_unavailableFromAsync` waits.
// - DispatchQueue, DispatchGroup, DispatchSemaphore and DispatchSource are Objective-C classes
//   that the SDK's dispatch/object.h declares with DISPATCH_DECL, which makes them Sendable
//   in current SDKs (OS_OBJECT_DECL_SENDABLE_SUBCLASS_SWIFT); DispatchObject itself is not.
// - The overlay of Xcode 16 and later also makes DispatchQoS and its QoSClass,
//   DispatchQueue.Attributes, DispatchWorkItemFlags, and DispatchSpecificKey where T is,
//   Sendable: swift-corelibs-libdispatch, which follows it, quotes it in issue 845 and pull
//   request 915.

open class DispatchObject {}

// MARK: - Queues

public struct DispatchQoS: Equatable, Sendable {
    @available(macOS 10.10, iOS 8.0, *)
    public static let `default` = DispatchQoS()
    public static let unspecified = DispatchQoS()

    public enum QoSClass: Sendable {
        @available(macOS 10.10, iOS 8.0, *)
        case `default`
        @available(macOS 10.10, iOS 8.0, *)
        case userInitiated
        case unspecified
    }
}

public struct DispatchWorkItemFlags: OptionSet, RawRepresentable, Sendable {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }
}

public final class DispatchSpecificKey<T> {
    public init() {}
}

extension DispatchSpecificKey: Sendable where T: Sendable {}

public class DispatchQueue: DispatchObject, @unchecked Sendable {
    public struct Attributes: OptionSet, Sendable {
        public let rawValue: UInt64

        public init(rawValue: UInt64) {
            self.rawValue = rawValue
        }

        public static let concurrent = Attributes(rawValue: 1 << 1)
    }

    public enum AutoreleaseFrequency {
        case inherit
    }

    public class var main: DispatchQueue { DispatchQueue(label: "") }

    @available(macOS 10.10, iOS 8.0, *)
    public class func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue { main }

    public class func getSpecific<T>(key: DispatchSpecificKey<T>) -> T? { nil }

    public convenience init(
        label: String, qos: DispatchQoS = .unspecified, attributes: Attributes = [],
        autoreleaseFrequency: AutoreleaseFrequency = .inherit, target: DispatchQueue? = nil
    ) {
        self.init()
    }

    @preconcurrency
    public func async(
        group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {}

    @preconcurrency
    public func asyncAfter(
        deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {}

    public func setSpecific<T>(key: DispatchSpecificKey<T>, value: T?) {}
}

// MARK: - Groups and semaphores

public class DispatchGroup: DispatchObject, @unchecked Sendable {}

@frozen
public enum DispatchTimeoutResult: Sendable {
    case success
    case timedOut
}

public class DispatchSemaphore: DispatchObject, @unchecked Sendable {
    public init(value: Int) {}

    @discardableResult
    public func signal() -> Int { 0 }

    @_unavailableFromAsync(message: "Await a Task handle instead")
    public func wait() {}

    @_unavailableFromAsync(message: "Await a Task handle instead")
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult { .success }
}

// MARK: - Time

public struct DispatchTime: Comparable, Sendable {
    public let rawValue: UInt64

    public static func now() -> DispatchTime { DispatchTime(uptimeNanoseconds: 0) }

    public static let distantFuture = DispatchTime(uptimeNanoseconds: .max)

    public init(uptimeNanoseconds: UInt64) {
        rawValue = uptimeNanoseconds
    }

    public var uptimeNanoseconds: UInt64 { rawValue }

    public static func < (a: DispatchTime, b: DispatchTime) -> Bool { a.rawValue < b.rawValue }
}

public enum DispatchTimeInterval: Equatable, Sendable {
    case seconds(Int)
    case milliseconds(Int)
    case microseconds(Int)
    case nanoseconds(Int)
    case never
}

public func + (time: DispatchTime, interval: DispatchTimeInterval) -> DispatchTime { time }

public func + (time: DispatchTime, seconds: Double) -> DispatchTime { time }

// MARK: - Timer sources

/// dispatch/source.h's `OS_dispatch_source` protocol, with the overlay's members.
public protocol DispatchSourceProtocol: AnyObject {}

extension DispatchSourceProtocol {
    public typealias DispatchSourceHandler = @convention(block) () -> Void

    public func setEventHandler(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], handler: DispatchSourceHandler?
    ) {}

    @available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
    public func activate() {}
    public func cancel() {}
    public func resume() {}

    public func setCancelHandler(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], handler: DispatchSourceHandler?
    ) {}
}

public protocol DispatchSourceRead: DispatchSourceProtocol {}

public protocol DispatchSourceTimer: DispatchSourceProtocol {}

extension DispatchSourceTimer {
    @available(swift 4)
    public func schedule(
        deadline: DispatchTime, repeating interval: DispatchTimeInterval = .never,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {}
}

public class DispatchSource: DispatchObject, @unchecked Sendable {
    public struct TimerFlags: OptionSet {
        public let rawValue: UInt

        public init(rawValue: UInt) {
            self.rawValue = rawValue
        }
    }

    public class func makeTimerSource(
        flags: TimerFlags = [], queue: DispatchQueue? = nil
    ) -> any DispatchSourceTimer {
        fatalError()
    }

    public class func makeReadSource(fileDescriptor: Int32, queue: DispatchQueue? = nil)
        -> any DispatchSourceRead
    {
        fatalError()
    }
}
