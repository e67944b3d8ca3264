import Dispatch
import OpenCombine
import Testing
import Vow
import VowCombine

/// What `publisher` sends, and when.
@Suite struct PublisherResults {
    @Test func aPromiseSendsItsValueThenFinishes() throws {
        let recorder = Recorder<Int, any Error>()
        Promise.value(1).publisher(on: nil).subscribe(recorder)
        try recorder.waitForCompletion()
        #expect(recorder.events == ["1", "finished"])
    }

    @Test func aGuaranteeSendsItsValueThenFinishes() throws {
        let recorder = Recorder<Int, Never>()
        Guarantee.value(2).publisher(on: nil).subscribe(recorder)
        try recorder.waitForCompletion()
        #expect(recorder.events == ["2", "finished"])
    }

    @Test func aRejectedPromiseSendsItsError() throws {
        let recorder = Recorder<Int, any Error>()
        Promise<Int>(error: TestError.boom).publisher(on: nil).subscribe(recorder)
        try recorder.waitForCompletion()
        #expect(recorder.events == ["failure(boom)"])
    }

    @Test func aCancelledPromiseFailsItsSubscribersWithTheCancellation() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let recorder = Recorder<Int, any Error>()
        promise.publisher(on: nil).subscribe(recorder)
        promise.cancel()
        try recorder.waitForCompletion()
        #expect(recorder.events == ["failure(cancelled)"])
        withExtendedLifetime(resolver) {}
    }

    @Test func aValueThatArrivesLaterOnAnotherThreadReachesEachSubscriber() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let publisher = promise.publisher(on: nil)
        let recorders = (0..<3).map { _ in Recorder<Int, any Error>() }
        for recorder in recorders { publisher.subscribe(recorder) }
        DispatchQueue.global().async { resolver.fulfill(3) }
        for recorder in recorders {
            try recorder.waitForCompletion()
            #expect(recorder.events == ["3", "finished"])
        }
    }

    @Test func combineOperatorsAndSinkWork() throws {
        let received = Shared<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let (promise, resolver) = Promise<Int>.pending()
        let cancellable = promise.publisher(on: nil)
            .map { $0 * 2 }
            .sink(
                receiveCompletion: { completion in
                    received.withLock { $0.append("\(completion)") }
                    done.signal()
                },
                receiveValue: { value in received.withLock { $0.append("\(value)") } })
        resolver.fulfill(21)
        #expect(done.wait(timeout: .now() + patience) == .success)
        #expect(received.current == ["42", "finished"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func nothingIsSentBeforeTheSubscriberAsks() throws {
        let recorder = Recorder<Int, any Error>(demand: .none)
        Promise.value(4).publisher(on: nil).subscribe(recorder)
        #expect(recorder.events.isEmpty)
        recorder.request(.none)
        #expect(recorder.events.isEmpty)
        // Inline delivery of a resolved promise: sent inside the request.
        recorder.request(.max(1))
        #expect(recorder.events == ["4", "finished"])
        recorder.request(.max(1))
        #expect(recorder.events == ["4", "finished"])
    }

    @Test func nothingIsAttachedToThePromiseBeforeTheSubscriberAsks() throws {
        let started = Counter()
        let lazy = Promise<Int>.lazy { resolver in
            started.increment()
            resolver.fulfill(5)
        }
        let recorder = Recorder<Int, any Error>(demand: .none)
        lazy.publisher(on: nil).subscribe(recorder)
        // A lazy promise starts when its first consumer attaches.
        #expect(started.value == 0)
        recorder.request(.max(1))
        #expect(started.value == 1)
        #expect(recorder.events == ["5", "finished"])
    }

    @Test func eachSubscriberGetsASubscriptionOfItsOwn() throws {
        let publisher = Promise.value(6).publisher(on: nil)
        let eager = Recorder<Int, any Error>()
        let waiting = Recorder<Int, any Error>(demand: .none)
        publisher.subscribe(eager)
        publisher.subscribe(waiting)
        #expect(eager.events == ["6", "finished"])
        #expect(waiting.events.isEmpty)
        waiting.request(.max(1))
        #expect(waiting.events == ["6", "finished"])
    }
}

/// Where `publisher` delivers.
@Suite struct PublisherDelivery {
    @Test func onTheQueueItIsGiven() throws {
        let marked = MarkedQueue("publisher delivery")
        let (promise, resolver) = Promise<Int>.pending()
        let recorder = Recorder<Int, any Error>(expectedThread: { marked.isCurrent })
        promise.publisher(on: marked.queue).subscribe(recorder)
        DispatchQueue.global().async { resolver.fulfill(7) }
        try recorder.waitForCompletion()
        #expect(recorder.events == ["7", "finished"])
        #expect(recorder.arrivedWhereExpected)

        // A resolved promise's result hops to the queue as well.
        let resolved = Recorder<Int, Never>(expectedThread: { marked.isCurrent })
        Guarantee.value(8).publisher(on: marked.queue).subscribe(resolved)
        try resolved.waitForCompletion()
        #expect(resolved.events == ["8", "finished"])
        #expect(resolved.arrivedWhereExpected)
    }

    @Test func onTheMainQueueByDefault() throws {
        let promised = Recorder<Int, any Error>(expectedThread: isOnMainQueue)
        Promise.value(9).publisher.subscribe(promised)
        let guaranteed = Recorder<Int, Never>(expectedThread: isOnMainQueue)
        Guarantee.value(10).publisher.subscribe(guaranteed)
        try promised.waitForCompletion()
        try guaranteed.waitForCompletion()
        #expect(promised.events == ["9", "finished"])
        #expect(guaranteed.events == ["10", "finished"])
        #expect(promised.arrivedWhereExpected)
        #expect(guaranteed.arrivedWhereExpected)
    }

    @Test func throughTheDispatcherItIsGiven() throws {
        let dispatcher = ManualDispatcher()
        let promised = Recorder<Int, any Error>()
        Promise.value(11).publisher(on: dispatcher).subscribe(promised)
        let guaranteed = Recorder<Int, Never>()
        Guarantee.value(12).publisher(on: dispatcher).subscribe(guaranteed)
        #expect(promised.events.isEmpty)
        #expect(guaranteed.events.isEmpty)
        #expect(dispatcher.runAll() == 2)
        #expect(promised.events == ["11", "finished"])
        #expect(guaranteed.events == ["12", "finished"])
    }

    @Test func aSubscriptionCancelledBeforeTheHopGetsNothing() throws {
        let dispatcher = ManualDispatcher()
        let recorder = Recorder<Int, any Error>()
        Promise.value(13).publisher(on: dispatcher).subscribe(recorder)
        recorder.cancel()
        _ = dispatcher.runAll()
        #expect(recorder.events.isEmpty)
    }
}

/// Cancelling a subscription withdraws its consumer, under the shared-consumer rule.
@Suite struct PublisherCancellation {
    /// A pending promise that no handle holds, whose `onCancel` counts into `cancellations`;
    /// `body` attaches its consumers. Returns the resolver, which keeps the promise pending.
    func unheldPromise(
        countingInto cancellations: Counter, _ body: (Promise<Int>) -> Void
    ) -> Resolver<Int> {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.onCancel { cancellations.increment() }
        body(promise)
        return resolver
    }

    @Test func cancellingTheOnlySubscriberCancelsThePromise() throws {
        let cancellations = Counter()
        var cancellable: AnyCancellable?
        let resolver = unheldPromise(countingInto: cancellations) { promise in
            cancellable = promise.publisher(on: nil).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        #expect(cancellations.value == 0)
        cancellable?.cancel()
        #expect(cancellations.value == 1)
        withExtendedLifetime(resolver) {}
    }

    @Test func releasingTheSinkCancelsThePromise() throws {
        let cancellations = Counter()
        var cancellables = Set<AnyCancellable>()
        let resolver = unheldPromise(countingInto: cancellations) { promise in
            promise.publisher(on: nil).map { $0 + 1 }.sink(
                receiveCompletion: { _ in }, receiveValue: { _ in }
            )
            .store(in: &cancellables)
        }
        #expect(cancellations.value == 0)
        cancellables.removeAll()
        #expect(cancellations.value == 1)
        withExtendedLifetime(resolver) {}
    }

    @Test func anotherSubscriberKeepsThePromiseGoing() throws {
        let cancellations = Counter()
        let first = Recorder<Int, any Error>()
        let second = Recorder<Int, any Error>()
        let resolver = unheldPromise(countingInto: cancellations) { promise in
            let publisher = promise.publisher(on: nil)
            publisher.subscribe(first)
            publisher.subscribe(second)
        }
        first.cancel()
        #expect(cancellations.value == 0)
        second.cancel()
        #expect(cancellations.value == 1)
        #expect(first.events.isEmpty)
        #expect(second.events.isEmpty)
        withExtendedLifetime(resolver) {}
    }

    @Test func anotherSubscriberStillGetsTheValue() throws {
        let cancellations = Counter()
        let leaving = Recorder<Int, any Error>()
        let staying = Recorder<Int, any Error>()
        let resolver = unheldPromise(countingInto: cancellations) { promise in
            let publisher = promise.publisher(on: nil)
            publisher.subscribe(leaving)
            publisher.subscribe(staying)
        }
        leaving.cancel()
        resolver.fulfill(14)
        try staying.waitForCompletion()
        #expect(staying.events == ["14", "finished"])
        #expect(leaving.events.isEmpty)
        #expect(cancellations.value == 0)
    }

    @Test func anotherVowConsumerKeepsThePromiseGoing() throws {
        let cancellations = Counter()
        let recorder = Recorder<Int, any Error>()
        var step: Promise<Int>?
        let resolver = unheldPromise(countingInto: cancellations) { promise in
            promise.publisher(on: nil).subscribe(recorder)
            step = promise.map(on: nil) { $0 * 2 }
        }
        recorder.cancel()
        #expect(cancellations.value == 0)
        let consumer = try #require(step)
        consumer.cancel()
        #expect(cancellations.value == 1)
        #expect(try summary(outcome(of: consumer)) == "cancelled")
        withExtendedLifetime(resolver) {}
    }

    @Test func aHeldPublisherIsAHandle() throws {
        let cancellations = Counter()
        let recorder = Recorder<Int, any Error>()
        var publisher: PromisePublisher<Int, any Error>?
        let resolver = unheldPromise(countingInto: cancellations) { promise in
            publisher = promise.publisher(on: nil)
            publisher?.subscribe(recorder)
        }
        recorder.cancel()
        // Whoever holds the publisher may still subscribe: the promise goes on.
        #expect(cancellations.value == 0)
        publisher = nil
        #expect(cancellations.value == 1)
        withExtendedLifetime(resolver) {}
    }

    @Test func aSubscriptionCancelledBeforeAskingLeavesThePromiseAlone() throws {
        let cancellations = Counter()
        let idle = Recorder<Int, any Error>(demand: .none)
        let resolver = unheldPromise(countingInto: cancellations) { promise in
            promise.publisher(on: nil).subscribe(idle)
        }
        // It never consumed the promise: a promise nobody consumed is not cancelled.
        idle.cancel()
        #expect(cancellations.value == 0)
        resolver.fulfill(17)
        #expect(idle.events.isEmpty)
    }

    @Test func aGuaranteesSubscriberWithdrawsThroughTheGuarantee() throws {
        let cancellations = Counter()
        let recorder = Recorder<Int, Never>()
        let resolver = unheldPromise(countingInto: cancellations) { promise in
            let guarantee: Guarantee<Int> = promise.recover(on: nil) { _ in Guarantee.value(0) }
            guarantee.publisher(on: nil).subscribe(recorder)
        }
        #expect(cancellations.value == 0)
        recorder.cancel()
        #expect(cancellations.value == 1)
        #expect(recorder.events.isEmpty)
        withExtendedLifetime(resolver) {}
    }
}

/// Nothing stays alive once a subscription has ended.
@Suite struct PublisherMemory {
    @Test func aCancelledSubscriptionLetsEverythingGo() throws {
        let released = Counter()
        weak var weakSubscription: AnyObject?
        let resolver: Resolver<Int>
        do {
            let (promise, pendingResolver) = Promise<Int>.pending()
            resolver = pendingResolver
            let recorder = Recorder<Int, any Error>(onDeinit: { released.increment() })
            promise.publisher(on: nil).subscribe(recorder)
            weakSubscription = recorder.subscription.map { $0 as AnyObject }
            #expect(weakSubscription != nil)
            recorder.cancel()
        }
        // The subscriber and the subscription held each other; the promise, its only consumer
        // gone, was cancelled, and its handlers let go.
        #expect(released.value == 1)
        #expect(weakSubscription == nil)
        withExtendedLifetime(resolver) {}
    }

    @Test func aSubscriptionCancelledWhileOthersWaitLetsItsSubscriberGo() throws {
        let released = Counter()
        weak var weakSubscription: AnyObject?
        let (promise, resolver) = Promise<Int>.pending()
        do {
            let recorder = Recorder<Int, any Error>(onDeinit: { released.increment() })
            promise.publisher(on: nil).subscribe(recorder)
            weakSubscription = recorder.subscription.map { $0 as AnyObject }
            recorder.cancel()
        }
        // The promise is still held, so it goes on, but the subscriber is let go at once.
        #expect(released.value == 1)
        #expect(promise.isPending)
        // The withdrawn step's handler holds the empty subscription until the promise resolves.
        resolver.fulfill(15)
        #expect(weakSubscription == nil)
    }

    @Test func aFinishedSubscriptionLetsEverythingGo() throws {
        let released = Counter()
        weak var weakSubscription: AnyObject?
        let (promise, resolver) = Promise<Int>.pending()
        do {
            let recorder = Recorder<Int, any Error>(demand: .max(1), onDeinit: { released.increment() })
            promise.publisher(on: nil).subscribe(recorder)
            weakSubscription = recorder.subscription.map { $0 as AnyObject }
            resolver.fulfill(16)
            try recorder.waitForCompletion()
            #expect(recorder.events == ["16", "finished"])
        }
        #expect(released.value == 1)
        #expect(weakSubscription == nil)
    }
}
