import Dispatch
import Foundation
import OpenCombine
import Vow

/// Errors the tests reject with.
enum TestError: Error {
    case boom
}

/// How long a test waits for something that should happen promptly: generous, since a test must
/// fail only because something hung, never because the machine was slow.
let patience = 30.0

/// Thrown when a wait gives up.
struct TimedOut: Error, CustomStringConvertible {
    var description: String { "nothing happened within \(patience) seconds" }
}

/// The result of `thenable`, waiting for it at most `patience` seconds.
func outcome<U: Thenable>(of thenable: U) throws -> Result<U.T, any Error> {
    let resolved = DispatchSemaphore(value: 0)
    thenable.pipe { _ in resolved.signal() }
    guard resolved.wait(timeout: .now() + patience) == .success, let result = thenable.result else {
        throw TimedOut()
    }
    return result
}

/// A result as text: the value, `cancelled`, or the test error's name.
func summary<T>(_ result: Result<T, any Error>) -> String {
    switch result {
    case .success(let value): "\(value)"
    case .failure(let error): summary(error)
    }
}

/// An error as text: `cancelled` for Vow's cancellation, or the test error's name.
func summary(_ error: any Error) -> String {
    if case .cancelled? = error as? PromiseError { return "cancelled" }
    if let error = error as? TestError { return "\(error)" }
    return "unexpected \(error)"
}

/// A value shared between a test and the threads it starts, behind a lock.
// @unchecked: `value` is only read or written while holding `lock`.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value {
        withLock { $0 }
    }
}

/// Counts the times something happens, such as an `onCancel` hook running.
final class Counter: Sendable {
    private let count = Shared(0)

    func increment() {
        count.withLock { $0 += 1 }
    }

    var value: Int {
        count.current
    }
}

/// A queue that knows whether it is the current one.
final class MarkedQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init(_ label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}

/// Marks the main queue, so that a test can tell that it runs there: Linux test runs drain the
/// main queue from a thread that is not the main thread, after `dispatchMain()`.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs on the main queue.
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true || Thread.isMainThread
}

/// A subscriber that records what it receives, asks for `initialDemand` when it subscribes,
/// and calls `onDeinit` when it is released.
// @unchecked: `state` is only read or written while holding `lock`; the semaphore and the
// closures are immutable and thread-safe.
final class Recorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private struct State {
        var events: [String] = []
        var threads: [Bool] = []
        var subscription: (any Subscription)?
    }

    private let lock = NSLock()
    private var state = State()
    private let initialDemand: Subscribers.Demand
    private let completed = DispatchSemaphore(value: 0)
    private let onDeinit: @Sendable () -> Void
    /// Tells, for each event, whether it arrived where the test expects; `true` by default.
    private let isExpectedThread: @Sendable () -> Bool

    init(
        demand: Subscribers.Demand = .unlimited,
        expectedThread: @escaping @Sendable () -> Bool = { true },
        onDeinit: @escaping @Sendable () -> Void = {}
    ) {
        initialDemand = demand
        isExpectedThread = expectedThread
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
    }

    func receive(subscription: any Subscription) {
        withLock { $0.subscription = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record("\(input)")
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: record("finished")
        case .failure(let error): record("failure(\(summary(error)))")
        }
        // A finished subscriber lets its subscription go, as Combine's own do, after the lock.
        _ = withLock { state in state.subscription.take() }
        completed.signal()
    }

    /// What arrived, in order: each value as text, then `finished` or `failure(…)`.
    var events: [String] {
        withLock { $0.events }
    }

    /// Whether every event arrived on the thread or queue the test expected.
    var arrivedWhereExpected: Bool {
        withLock { $0.threads.allSatisfy { $0 } }
    }

    /// The subscription, until the subscriber has completed.
    var subscription: (any Subscription)? {
        withLock { $0.subscription }
    }

    /// Asks the subscription for `demand` more values.
    func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the subscription and lets it go.
    func cancel() {
        withLock { state in state.subscription.take() }?.cancel()
    }

    /// Waits, at most `patience` seconds, for the completion.
    func waitForCompletion() throws {
        guard completed.wait(timeout: .now() + patience) == .success else { throw TimedOut() }
        completed.signal()
    }

    private func record(_ event: String) {
        let expected = isExpectedThread()
        withLock { state in
            state.events.append(event)
            state.threads.append(expected)
        }
    }

    private func withLock<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}

/// A step attached to `thenable` through the operators every thenable has, so that it is a
/// `Promise`, which can be cancelled, even for a `Guarantee`.
func cancellableStep<U: Thenable>(after thenable: U) -> Promise<U.T> {
    thenable.tap(on: nil) { _ in }
}
