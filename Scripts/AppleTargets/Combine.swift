// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Each declaration is Combine's own; its documentation is Apple's.)
//
// A stand-in for Apple's Combine module, for Scripts/check-apple-targets: it declares, as the SDK
// does, only the API that Vow uses (Sources/Vow/Bridging/Combine.swift), and nothing of it runs.
// A new use of Combine in Sources/ needs a line here, or the check fails with "cannot find … in
// scope" or "has no member".
//
// Every declaration follows the iOS 17.4 SDK's Combine.swiftinterface
// (Combine.framework/Modules/Combine.swiftmodule, Swift 5.10, in the public mirror
// danpashin/sdks): its availability, which is the first Combine's (macOS 10.15, iOS 13, tvOS 13,
// watchOS 6) throughout, its primary associated types, and its Sendable conformances, which are
// those of `Subscribers.Completion` and `Subscribers.Demand` only.

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct CombineIdentifier: Hashable {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol CustomCombineIdentifierConvertible {
    var combineIdentifier: CombineIdentifier { get }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension CustomCombineIdentifierConvertible where Self: AnyObject {
    public var combineIdentifier: CombineIdentifier { CombineIdentifier() }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Cancellable {
    func cancel()
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public final class AnyCancellable: Cancellable, Hashable {
    public init(_ cancel: @escaping () -> Void) {}

    public final func cancel() {}

    public final func hash(into hasher: inout Hasher) {}

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum Subscribers {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subscribers {
    @frozen
    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }

    @frozen
    public struct Demand: Hashable, Comparable {
        @usableFromInline
        internal let rawValue: UInt

        @inlinable
        internal init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        public static let none = Demand(rawValue: 0)

        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue > UInt(rhs) }
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subscribers.Completion: Sendable {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Subscribers.Demand: Sendable {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    func request(_ demand: Subscribers.Demand)
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    associatedtype Input
    associatedtype Failure: Error

    func receive(subscription: any Subscription)
    func receive(_ input: Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Failure>)
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber {
    public let combineIdentifier: CombineIdentifier

    @inlinable
    public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
        combineIdentifier = s.combineIdentifier
    }

    public func receive(subscription: any Subscription) {}

    public func receive(_ value: Input) -> Subscribers.Demand { .none }

    public func receive(completion: Subscribers.Completion<Failure>) {}
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error

    func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publisher {
    public func sink(
        receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
        receiveValue: @escaping ((Output) -> Void)
    ) -> AnyCancellable {
        AnyCancellable {}
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public final class Future<Output, Failure: Error>: Publisher {
    public typealias Promise = (Result<Output, Failure>) -> Void

    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {}

    public final func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {}
}
