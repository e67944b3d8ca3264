// Vow's Combine bridge: PromiseKit 8's `future()`, `promise()` and `guarantee()`, and a publisher
// that carries cancellation both ways. Documentation/Combine.md explains the design.
//
// The file is compiled twice: into Vow on Apple platforms, against Combine, and on Linux into the
// VowCombine target of CombineCheck/, against OpenCombine, through a symbolic link, so that its
// tests run where CI runs. So it uses Vow's public API only.
#if VOW_OPENCOMBINE
public import Dispatch
import Foundation
public import OpenCombine
public import Vow
#elseif canImport(Combine)
public import Combine
public import Dispatch
import Foundation
#endif

#if VOW_OPENCOMBINE || canImport(Combine)

// MARK: - From Vow to Combine: future()

extension Guarantee {
    /// A Combine `Future` that publishes this guarantee's value: PromiseKit's bridge, with its
    /// name and type.
    ///
    /// The value reaches the future on `on`: `conf.Q.return`, the main queue unless changed,
    /// as a `done` handler's does, or inline on the thread that resolves the guarantee when
    /// `on` is `nil`. Subscribers attached before then receive it there; a subscriber attached
    /// later receives it at once, on its own thread, as from any `Future`.
    ///
    /// A `Future` cannot tell the guarantee that its subscribers have gone: it stays a
    /// consumer for good. Use `publisher` for a publisher whose subscribers withdraw when
    /// they cancel.
    ///
    /// ```swift foreign
    /// let greeting: AnyPublisher<String, Never> = after(seconds: 1).map { "hello" }
    ///     .future()
    ///     .eraseToAnyPublisher()
    /// ```
    public func future(on: DispatchQueue? = conf.Q.return) -> Future<T, Never> {
        Future { fulfil in
            let fulfil = FutureFulfilment(fulfil)
            self.get(on: on) { fulfil(.success($0)) }
        }
    }

    /// A Combine `Future` that publishes this guarantee's value through `dispatcher`.
    ///
    /// ```swift foreign
    /// let tick = after(seconds: 1).future(on: .inline)
    /// ```
    public func future(on dispatcher: some Dispatcher) -> Future<T, Never> {
        Future { fulfil in
            let fulfil = FutureFulfilment(fulfil)
            self.get(on: dispatcher) { fulfil(.success($0)) }
        }
    }
}

extension Promise {
    /// A Combine `Future` that publishes this promise's value or error: PromiseKit's bridge,
    /// with its name and type.
    ///
    /// A cancelled promise fails the future with its cancellation error,
    /// `PromiseError.cancelled` unless the work rejected with an error of its own. The
    /// result reaches the future on `on`: `conf.Q.return`, the main queue unless changed,
    /// as a `done` or `catch` handler's does, or inline on the thread that resolves the
    /// promise when `on` is `nil`. Subscribers attached before then receive it there; a
    /// subscriber attached later receives it at once, on its own thread, as from any `Future`.
    ///
    /// A `Future` cannot tell the promise that its subscribers have gone, since Combine gives
    /// it no cancellation hook: the promise runs to the end whoever still listens. Use
    /// `publisher` for a publisher whose subscribers withdraw when they cancel.
    ///
    /// ```swift foreign
    /// let names: AnyPublisher<String, any Error> = fetchUser(id: 1)
    ///     .map(\.name)
    ///     .future()
    ///     .eraseToAnyPublisher()
    /// ```
    public func future(on: DispatchQueue? = conf.Q.return) -> Future<T, any Error> {
        Future { fulfil in
            let fulfil = FutureFulfilment(fulfil)
            _ = self.tap(on: on) { fulfil($0) }
        }
    }

    /// A Combine `Future` that publishes this promise's value or error through `dispatcher`.
    ///
    /// ```swift foreign
    /// let user = fetchUser(id: 1).future(on: .inline)
    /// ```
    public func future(on dispatcher: some Dispatcher) -> Future<T, any Error> {
        Future { fulfil in
            let fulfil = FutureFulfilment(fulfil)
            _ = self.tap(on: dispatcher) { fulfil($0) }
        }
    }
}

/// A `Future`'s promise closure, to call from a handler on any thread.
// @unchecked: Combine's `Future` serializes the calls of its promise closure under a lock of
// its own, keeps the first result and ignores the rest, so the closure may be called from any
// thread; it is called once here, by the handler of one step.
private struct FutureFulfilment<Output, Failure: Error>: @unchecked Sendable {
    let fulfil: (Result<Output, Failure>) -> Void

    init(_ fulfil: @escaping (Result<Output, Failure>) -> Void) {
        self.fulfil = fulfil
    }

    func callAsFunction(_ result: Result<Output, Failure>) {
        fulfil(result)
    }
}

// MARK: - From Combine to Vow: promise() and guarantee()

extension Future where Output: Sendable {
    /// A promise of this future's value or error: PromiseKit's bridge, with its name and type.
    ///
    /// The promise settles on the thread on which the future delivers. Cancelling it cancels
    /// its subscription to the future, whose own work goes on, since Combine gives a `Future`
    /// no way to hear it. The subscription is released once the promise settles or is
    /// cancelled.
    ///
    /// ```swift foreign
    /// let token = Future<String, any Error> { fulfil in
    ///     keychain.readToken { fulfil($0) }
    /// }
    /// token.promise().then { token in
    ///     api.fetchProfile(token: token)
    /// }.done { profile in
    ///     print(profile.name)
    /// }.catch { error in
    ///     print("failed:", error)
    /// }
    /// ```
    public func promise(file: StaticString = #fileID, line: UInt = #line) -> Vow.Promise<Output> {
        // Vow's public API only, as above: the box records `Promise(resolver:)`, at the
        // caller's line.
        Vow.Promise(file: file, line: line) { resolver in
            let subscription = FutureSubscription()
            resolver.onCancel { subscription.end()?.cancel() }
            let cancellable = sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { resolver.reject(error) }
                    // A future sends its value, then finishes: the value settled the
                    // promise already. The subscription is over and is released here.
                    _ = subscription.end()
                },
                receiveValue: { value in resolver.fulfill(value) })
            // A future that had its value delivered it inside `sink`, and the subscription
            // has ended: `keep` then hands the cancellable back, to release.
            _ = subscription.keep(cancellable)
        }
    }
}

extension Future where Output: Sendable, Failure == Never {
    /// A guarantee of this future's value: PromiseKit's bridge, with its name and type.
    ///
    /// The guarantee resolves on the thread on which the future delivers. A guarantee cannot
    /// be cancelled, but cancellation passes through it: once every step attached to it has
    /// been cancelled and no handle to it is left, its subscription to the future is
    /// cancelled, as `promise()` says.
    ///
    /// ```swift foreign
    /// let settings = Future<Settings, Never> { fulfil in
    ///     store.load { fulfil(.success($0)) }
    /// }
    /// settings.guarantee().done { settings in
    ///     apply(settings)
    /// }
    /// ```
    public func guarantee(file: StaticString = #fileID, line: UInt = #line) -> Guarantee<Output> {
        promise(file: file, line: line).recover(on: nil) { _ -> Guarantee<Output> in
            // A future that cannot fail rejects the promise only if it lets its subscriber go
            // without a value, which releases the resolver unsettled. Its guarantee can never
            // resolve then: like one whose resolve function was released uncalled, it stays
            // pending, and Vow reports it to the log, with the caller's line.
            Guarantee<Output>.pending(file: file, line: line).guarantee
        }
    }
}

/// The subscription of `Future.promise()` to its future, which it may cancel and must
/// release once its promise has settled or been cancelled.
// @unchecked: `state` is read and written only while `lock` is held, and the cancellable is
// cancelled and released only after the lock is let go, since that runs Combine's code.
private final class FutureSubscription: @unchecked Sendable {
    private enum State {
        /// `sink` has not returned yet.
        case subscribing
        /// The subscription, until the future delivers or the promise is cancelled.
        case subscribed(AnyCancellable)
        /// Nothing is kept any longer.
        case ended
    }

    private let lock = NSLock()
    private var state = State.subscribing

    /// Keeps `cancellable` while the subscription lasts, or hands it back if it has ended
    /// already, for the caller to release.
    func keep(_ cancellable: AnyCancellable) -> AnyCancellable? {
        lock.lock()
        defer { lock.unlock() }
        guard case .subscribing = state else { return cancellable }
        state = .subscribed(cancellable)
        return nil
    }

    /// Ends the subscription and hands back its cancellable, if it has one, for the caller to
    /// cancel or release.
    func end() -> AnyCancellable? {
        lock.lock()
        defer { lock.unlock() }
        let previous = state
        state = .ended
        guard case .subscribed(let cancellable) = previous else { return nil }
        return cancellable
    }
}

// MARK: - A publisher that carries cancellation both ways

extension Promise {
    /// A Combine publisher of this promise's value or error, whose subscribers withdraw from
    /// the promise when they cancel.
    ///
    /// Each subscriber gets a subscription of its own, which attaches a consumer to the promise
    /// when the subscriber first asks for a value, and sends it the value, then `.finished`,
    /// or a `.failure` with the error. A cancelled promise sends `.failure` with its
    /// cancellation error. Cancelling the subscription cancels its consumer: the promise
    /// itself is cancelled, and the work behind it stops, once no other consumer waits for it
    /// and no handle to it is left, as for any step of a chain. The publisher holds the
    /// promise as a handle does, until it is released.
    ///
    /// The result reaches subscribers on `conf.Q.return`, the main queue unless changed,
    /// read when `publisher` is called; `publisher(on:)` chooses another queue, or inline.
    ///
    /// ```swift foreign
    /// // The search stops if the user types again before it ends.
    /// searching = api.search(query).publisher
    ///     .map(\.results)
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { results in show(results) })
    /// ```
    public var publisher: PromisePublisher<T, any Error> {
        PromisePublisher(self, delivery: .queue(conf.Q.return))
    }

    /// A Combine publisher of this promise's value or error that delivers on `on`, or inline
    /// on the thread that resolves the promise when `on` is `nil`; see `publisher`.
    ///
    /// ```swift foreign
    /// let cancellable = fetchUser(id: 1).publisher(on: nil)
    ///     .receive(on: RunLoop.main)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.name) })
    /// ```
    public func publisher(on: DispatchQueue?) -> PromisePublisher<T, any Error> {
        PromisePublisher(self, delivery: .queue(on))
    }

    /// A Combine publisher of this promise's value or error that delivers through
    /// `dispatcher`; see `publisher`.
    ///
    /// ```swift foreign
    /// let cancellable = fetchUser(id: 1).publisher(on: .mainActor)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.name) })
    /// ```
    public func publisher(on dispatcher: some Dispatcher) -> PromisePublisher<T, any Error> {
        PromisePublisher(self, delivery: .dispatcher(dispatcher))
    }
}

extension Guarantee {
    /// A Combine publisher of this guarantee's value, whose subscribers withdraw from the
    /// guarantee when they cancel.
    ///
    /// Each subscriber gets a subscription of its own, which attaches a consumer to the
    /// guarantee when the subscriber first asks for a value, and sends it the value, then
    /// `.finished`. Cancelling the subscription cancels its consumer, and the cancellation
    /// passes through the guarantee to the work behind it once no other consumer waits for
    /// it and no handle to it is left. The publisher holds the guarantee as a handle does,
    /// until it is released.
    ///
    /// The value reaches subscribers on `conf.Q.return`, the main queue unless changed, read
    /// when `publisher` is called; `publisher(on:)` chooses another queue, or inline.
    ///
    /// ```swift foreign
    /// let ticking = after(seconds: 1).publisher
    ///     .sink { print("a second later") }
    /// ```
    public var publisher: PromisePublisher<T, Never> {
        PromisePublisher(self, delivery: .queue(conf.Q.return))
    }

    /// A Combine publisher of this guarantee's value that delivers on `on`, or inline on the
    /// thread that resolves the guarantee when `on` is `nil`; see `publisher`.
    ///
    /// ```swift foreign
    /// let ticking = after(seconds: 1).publisher(on: nil)
    ///     .sink { print("a second later, on a global queue") }
    /// ```
    public func publisher(on: DispatchQueue?) -> PromisePublisher<T, Never> {
        PromisePublisher(self, delivery: .queue(on))
    }

    /// A Combine publisher of this guarantee's value that delivers through `dispatcher`; see
    /// `publisher`.
    ///
    /// ```swift foreign
    /// let ticking = after(seconds: 1).publisher(on: .mainActor)
    ///     .sink { print("a second later, on the main actor") }
    /// ```
    public func publisher(on dispatcher: some Dispatcher) -> PromisePublisher<T, Never> {
        PromisePublisher(self, delivery: .dispatcher(dispatcher))
    }
}

/// The Combine publisher of a promise's or a guarantee's result, `Promise.publisher` or
/// `Guarantee.publisher`: one value then `.finished`, or a failure.
///
/// Each subscriber gets a subscription of its own. Nothing is attached to the promise until
/// the subscriber asks for a value; then the subscription attaches a consumer, as a step of a
/// chain does, and sends the result to the subscriber once it arrives. Cancelling the
/// subscription withdraws that consumer: the promise is cancelled when no other consumer
/// waits for it and no handle to it is left, so one subscriber giving up never fails the
/// others. The publisher itself holds the promise as a handle does.
///
/// Subscriptions may be requested from and cancelled on any thread; no subscriber method is
/// called while the subscription holds its lock.
///
/// ```swift foreign
/// let profile = api.profile()
/// let header = profile.publisher.map(\.name).sink { print("header:", $0) }
/// let badge = profile.publisher.map(\.badge).sink { print("badge:", $0) }
/// header.cancel()  // `badge` still waits: the request goes on.
/// ```
public struct PromisePublisher<Output: Sendable, Failure: Error>: Publisher, Sendable {
    /// The promise or guarantee: a handle to it, kept while the publisher is.
    private let source: any Thenable<Output>
    /// Where the result reaches subscribers.
    private let delivery: PublisherDelivery

    fileprivate init(_ source: any Thenable<Output>, delivery: PublisherDelivery) {
        self.source = source
        self.delivery = delivery
    }

    /// Attaches `subscriber`, which gets a subscription of its own; nothing is attached to the
    /// promise until the subscriber asks for a value.
    ///
    /// Combine calls it for each subscriber, as `sink` and `subscribe` do.
    ///
    /// ```swift foreign
    /// fetchUser(id: 1).publisher.subscribe(userSubscriber)
    /// ```
    public func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let subscription = PromiseSubscription(
            source, delivery: delivery, subscriber: AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
    }
}

/// Where a `PromisePublisher` delivers: on a queue, inline, or through a dispatcher.
private enum PublisherDelivery: Sendable {
    case queue(DispatchQueue?)
    case dispatcher(any Dispatcher)

    /// Attaches `handler` to `source` as a consumer that the returned promise cancels.
    func attach<T: Sendable>(
        to source: any Thenable<T>, _ handler: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Vow.Promise<T> {
        switch self {
        case .queue(let queue): source.tap(on: queue, handler)
        case .dispatcher(let dispatcher): source.tap(on: dispatcher, handler)
        }
    }
}

/// One subscriber's subscription to a `PromisePublisher`.
///
/// Its consumer, attached on the first demand, is a `tap` step: that step's handler holds
/// the subscription, as a publisher holds its subscriptions, until the promise resolves or
/// the step, cancelled, is let go. Once the result is sent or the subscription cancelled, the
/// subscription keeps nothing: neither the subscriber nor the promise.
///
/// The subscriber is kept as an `AnySubscriber`, so that the class is generic over the
/// `Sendable` output and error alone: the consumer's handler, which is `@Sendable`, could
/// not capture a subscription generic over the subscriber's type.
// @unchecked: `state` is read and written only while `lock` is held; every transition takes
// the previous state out of the lock, so the subscriber is called, and the promise, the
// consumer and the subscriber are cancelled or released, only after the lock is let go.
private final class PromiseSubscription<Output, Failure>: Subscription, @unchecked Sendable
where Output: Sendable, Failure: Error {
    typealias Downstream = AnySubscriber<Output, Failure>

    private enum State {
        /// Subscribed, with no demand yet: nothing is attached to the promise.
        case awaitingDemand(any Thenable<Output>, Downstream)
        /// The first demand came, and the consumer is being attached.
        case attaching(Downstream)
        /// The subscription was cancelled while its consumer was being attached: the consumer
        /// is cancelled as soon as it exists.
        case cancelledWhileAttaching
        /// The consumer waits for the result.
        case waiting(consumer: Vow.Promise<Output>, Downstream)
        /// The result was sent, or the subscription cancelled.
        case finished
    }

    private let lock = NSLock()
    private var state: State
    private let delivery: PublisherDelivery

    init(_ source: any Thenable<Output>, delivery: PublisherDelivery, subscriber: Downstream) {
        self.state = .awaitingDemand(source, subscriber)
        self.delivery = delivery
    }

    /// Runs `body` on the state while holding the lock, and returns the previous state, which
    /// the caller lets go after the lock.
    private func transition(_ body: (State) -> State?) -> State {
        lock.lock()
        defer { lock.unlock() }
        let previous = state
        if let next = body(previous) { state = next }
        return previous
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let previous = transition { state in
            guard case .awaitingDemand(_, let subscriber) = state else { return nil }
            return .attaching(subscriber)
        }
        guard case .awaitingDemand(let source, _) = previous else { return }
        // May send the result at once, inside this call, when the promise has resolved and
        // the delivery is inline.
        let consumer = delivery.attach(to: source) { result in self.send(result) }
        let attached = transition { state in
            switch state {
            case .attaching(let subscriber): .waiting(consumer: consumer, subscriber)
            case .cancelledWhileAttaching: .finished
            case .awaitingDemand, .waiting, .finished: nil
            }
        }
        if case .cancelledWhileAttaching = attached { consumer.cancel() }
    }

    func cancel() {
        let previous = transition { state in
            switch state {
            case .awaitingDemand, .waiting: .finished
            case .attaching: .cancelledWhileAttaching
            case .cancelledWhileAttaching, .finished: nil
            }
        }
        if case .waiting(let consumer, _) = previous { consumer.cancel() }
    }

    /// Sends the result to the subscriber, unless the subscription was cancelled.
    private func send(_ result: Result<Output, any Error>) {
        let previous = transition { state in
            switch state {
            case .attaching, .waiting: .finished
            case .awaitingDemand, .cancelledWhileAttaching, .finished: nil
            }
        }
        let subscriber: Downstream
        switch previous {
        case .attaching(let waiting), .waiting(_, let waiting): subscriber = waiting
        case .awaitingDemand, .cancelledWhileAttaching, .finished: return
        }
        switch result {
        case .success(let value):
            _ = subscriber.receive(value)
            subscriber.receive(completion: .finished)
        case .failure(let error):
            // Only a promise's publisher, whose `Failure` is `any Error`, gets here: a
            // guarantee never fails.
            guard let failure = error as? Failure else {
                preconditionFailure("Vow: a guarantee's publisher received an error: \(error)")
            }
            subscriber.receive(completion: .failure(failure))
        }
    }
}

#endif
