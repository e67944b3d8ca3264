import Dispatch
import OpenCombine
import Testing
import Vow
import VowCombine

/// `future()`: from a promise or a guarantee to a Combine `Future`.
@Suite struct VowToFuture {
    @Test func aGuaranteesFuturePublishesItsValue() throws {
        let recorder = Recorder<Int, Never>()
        Guarantee.value(5).future(on: nil).subscribe(recorder)
        try recorder.waitForCompletion()
        #expect(recorder.events == ["5", "finished"])
    }

    @Test func aPromisesFuturePublishesItsValue() throws {
        let recorder = Recorder<Int, any Error>()
        Promise.value(6).future(on: nil).subscribe(recorder)
        try recorder.waitForCompletion()
        #expect(recorder.events == ["6", "finished"])
    }

    @Test func aPromisesFuturePublishesItsError() throws {
        let recorder = Recorder<Int, any Error>()
        Promise<Int>(error: TestError.boom).future(on: nil).subscribe(recorder)
        try recorder.waitForCompletion()
        #expect(recorder.events == ["failure(boom)"])
    }

    @Test func aValueThatArrivesLaterReachesEverySubscriber() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let future = promise.future(on: nil)
        let first = Recorder<Int, any Error>()
        let second = Recorder<Int, any Error>()
        future.subscribe(first)
        future.subscribe(second)
        DispatchQueue.global().async { resolver.fulfill(7) }
        try first.waitForCompletion()
        try second.waitForCompletion()
        #expect(first.events == ["7", "finished"])
        #expect(second.events == ["7", "finished"])
    }

    @Test func aCancelledPromiseFailsItsFutureWithTheCancellation() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let recorder = Recorder<Int, any Error>()
        promise.future(on: nil).subscribe(recorder)
        promise.cancel()
        try recorder.waitForCompletion()
        #expect(recorder.events == ["failure(cancelled)"])
        withExtendedLifetime(resolver) {}
    }

    /// Subscribers attached before the promise resolves get the result where the future is
    /// fulfilled; a later one gets it at once, on its own thread, as from any `Future`.
    @Test func theFutureIsFulfilledOnTheQueueItIsGiven() throws {
        let marked = MarkedQueue("future delivery")
        let (promise, resolver) = Promise<Int>.pending()
        let recorder = Recorder<Int, any Error>(expectedThread: { marked.isCurrent })
        let future = promise.future(on: marked.queue)
        future.subscribe(recorder)
        DispatchQueue.global().async { resolver.fulfill(8) }
        try recorder.waitForCompletion()
        #expect(recorder.events == ["8", "finished"])
        #expect(recorder.arrivedWhereExpected)

        let late = Recorder<Int, any Error>(expectedThread: { !marked.isCurrent })
        future.subscribe(late)
        #expect(late.events == ["8", "finished"])
        #expect(late.arrivedWhereExpected)
    }

    @Test func theFutureIsFulfilledOnTheMainQueueByDefault() throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let recorder = Recorder<Int, Never>(expectedThread: isOnMainQueue)
        guarantee.future().subscribe(recorder)
        DispatchQueue.global().async { resolve(9) }
        try recorder.waitForCompletion()
        #expect(recorder.events == ["9", "finished"])
        #expect(recorder.arrivedWhereExpected)
    }

    @Test func theFutureIsFulfilledThroughTheDispatcherItIsGiven() throws {
        let dispatcher = ManualDispatcher()
        let recorder = Recorder<Int, any Error>()
        Promise.value(10).future(on: dispatcher).subscribe(recorder)
        #expect(recorder.events.isEmpty)
        #expect(dispatcher.runAll() == 1)
        #expect(recorder.events == ["10", "finished"])

        let guaranteed = Recorder<Int, Never>()
        Guarantee.value(11).future(on: dispatcher).subscribe(guaranteed)
        #expect(guaranteed.events.isEmpty)
        #expect(dispatcher.runAll() == 1)
        #expect(guaranteed.events == ["11", "finished"])
    }

    @Test func aFutureKeepsItsPromiseGoingWhenItsSubscribersLeave() throws {
        let cancellations = Counter()
        let resolver: Resolver<Int>
        let future: Future<Int, any Error>
        do {
            // No handle to the promise is left once this scope ends: only the future's consumer.
            let (promise, pendingResolver) = Promise<Int>.pending()
            resolver = pendingResolver
            resolver.onCancel { cancellations.increment() }
            future = promise.future(on: nil)
        }
        let recorder = Recorder<Int, any Error>()
        future.subscribe(recorder)
        recorder.cancel()
        // A Future has no cancellation hook: its consumer of the promise stays.
        #expect(cancellations.value == 0)
        resolver.fulfill(12)
        #expect(cancellations.value == 0)
        #expect(recorder.events.isEmpty)
    }
}

/// `promise()` and `guarantee()`: from a Combine `Future` to a promise or a guarantee.
@Suite struct FutureToVow {
    @Test func aFulfilledFuturesPromiseFulfils() throws {
        let future = Future<Int, any Error> { fulfil in fulfil(.success(3)) }
        #expect(try summary(outcome(of: future.promise())) == "3")
    }

    @Test func aFutureFulfilledLaterOnAnotherThreadFulfilsItsPromise() throws {
        let future = Future<Int, any Error> { fulfil in
            let fulfilment = UncheckedFulfil(fulfil)
            DispatchQueue.global().async { fulfilment.call(.success(4)) }
        }
        #expect(try summary(outcome(of: future.promise())) == "4")
    }

    @Test func aFailedFutureRejectsItsPromise() throws {
        let future = Future<Int, any Error> { fulfil in
            let fulfilment = UncheckedFulfil(fulfil)
            DispatchQueue.global().async { fulfilment.call(.failure(TestError.boom)) }
        }
        #expect(try summary(outcome(of: future.promise())) == "boom")
    }

    @Test func aFutureThatCannotFailGivesAGuarantee() throws {
        let future = Future<Int, Never> { fulfil in
            let fulfilment = UncheckedFulfil(fulfil)
            DispatchQueue.global().async { fulfilment.call(.success(5)) }
        }
        #expect(try summary(outcome(of: future.guarantee())) == "5")
        let fulfilled = Future<Int, Never> { fulfil in fulfil(.success(6)) }
        #expect(try summary(outcome(of: fulfilled.guarantee())) == "6")
    }

    /// The subscription holds the future, as Combine's subscriptions to a future do, so the
    /// future's release shows that the subscription was cancelled and let go.
    @Test func cancellingThePromiseCancelsItsSubscription() throws {
        weak var weakFuture: Future<Int, any Error>?
        let promise: Promise<Int>
        do {
            // Never fulfilled: nothing but the subscription holds the future.
            let future = Future<Int, any Error> { _ in }
            weakFuture = future
            promise = future.promise()
        }
        #expect(weakFuture != nil)
        promise.cancel()
        #expect(weakFuture == nil)
        #expect(try summary(outcome(of: promise)) == "cancelled")
    }

    @Test func aSettledPromiseKeepsNothingOfItsFuture() throws {
        weak var weakFuture: Future<Int, any Error>?
        let fulfilment = Shared<UncheckedFulfil<Int, any Error>?>(nil)
        let promise: Promise<Int>
        do {
            let future = Future<Int, any Error> { fulfil in
                fulfilment.withLock { $0 = UncheckedFulfil(fulfil) }
            }
            weakFuture = future
            promise = future.promise()
        }
        do {
            // The fulfilment holds the future; it is let go at the end of this scope.
            let fulfil = try #require(fulfilment.withLock { $0.take() })
            fulfil.call(.success(7))
        }
        #expect(try summary(outcome(of: promise)) == "7")
        #expect(weakFuture == nil)
    }

    @Test func cancellationPassesThroughTheGuaranteeToTheSubscription() throws {
        weak var weakFuture: Future<Int, Never>?
        let step: Promise<Int>
        do {
            let future = Future<Int, Never> { _ in }
            weakFuture = future
            // The guarantee is let go at the end of this scope: the step is its only consumer.
            step = cancellableStep(after: future.guarantee())
        }
        #expect(weakFuture != nil)
        step.cancel()
        #expect(weakFuture == nil)
        #expect(try summary(outcome(of: step)) == "cancelled")
    }

    @Test func aGuaranteeWithAnotherConsumerKeepsItsSubscription() throws {
        weak var weakFuture: Future<Int, Never>?
        let fulfilment = Shared<UncheckedFulfil<Int, Never>?>(nil)
        let cancelled: Promise<Int>
        let kept: Promise<Int>
        do {
            let future = Future<Int, Never> { fulfil in
                fulfilment.withLock { $0 = UncheckedFulfil(fulfil) }
            }
            weakFuture = future
            let guarantee = future.guarantee()
            cancelled = cancellableStep(after: guarantee)
            kept = cancellableStep(after: guarantee)
        }
        cancelled.cancel()
        do {
            let fulfil = try #require(fulfilment.withLock { $0.take() })
            fulfil.call(.success(8))
        }
        #expect(try summary(outcome(of: kept)) == "8")
        #expect(try summary(outcome(of: cancelled)) == "cancelled")
        #expect(weakFuture == nil)
    }
}

/// A `Future`'s promise closure, to call from another thread in a test.
// @unchecked: OpenCombine's `Future` takes its result under its own lock, so its promise
// closure may be called from any thread.
struct UncheckedFulfil<Output, Failure: Error>: @unchecked Sendable {
    let call: (Result<Output, Failure>) -> Void

    init(_ call: @escaping (Result<Output, Failure>) -> Void) {
        self.call = call
    }
}
