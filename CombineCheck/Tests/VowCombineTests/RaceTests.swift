import Dispatch
import OpenCombine
import Testing
import Vow
import VowCombine

/// Subscriptions requested, cancelled and resolved from several threads at once. Each round
/// ends when every thread has, so what each subscriber got is checked without waiting; Thread
/// Sanitizer checks the rest.
@Suite struct Races {
    static let rounds = 300

    @Test func fulfillingRacesCancellingSubscribers() throws {
        for round in 0..<Self.rounds {
            let cancellations = Counter()
            let recorders = (0..<3).map { _ in Recorder<Int, any Error>() }
            let resolver: Resolver<Int>
            do {
                let (promise, pendingResolver) = Promise<Int>.pending()
                resolver = pendingResolver
                resolver.onCancel { cancellations.increment() }
                let publisher = promise.publisher(on: nil)
                for recorder in recorders { publisher.subscribe(recorder) }
            }
            DispatchQueue.concurrentPerform(iterations: recorders.count + 1) { index in
                if index == recorders.count {
                    resolver.fulfill(round)
                } else {
                    recorders[index].cancel()
                }
            }
            for recorder in recorders {
                let events = recorder.events
                #expect(events.isEmpty || events == ["\(round)", "finished"])
            }
            // The promise was cancelled only if every subscriber withdrew before it was fulfilled,
            // and then none of them got the value.
            #expect(cancellations.value <= 1)
            if cancellations.value == 1 {
                #expect(recorders.allSatisfy { $0.events.isEmpty })
            }
        }
    }

    @Test func askingRacesFulfilling() throws {
        for round in 0..<Self.rounds {
            let (promise, resolver) = Promise<Int>.pending()
            let recorder = Recorder<Int, any Error>(demand: .none)
            promise.publisher(on: nil).subscribe(recorder)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    recorder.request(.max(1))
                } else {
                    resolver.fulfill(round)
                }
            }
            // With inline delivery, whichever came second sent the value before returning.
            #expect(recorder.events == ["\(round)", "finished"])
        }
    }

    @Test func askingRacesCancelling() throws {
        for round in 0..<Self.rounds {
            let (promise, resolver) = Promise<Int>.pending()
            let recorder = Recorder<Int, any Error>(demand: .none)
            promise.publisher(on: nil).subscribe(recorder)
            let subscription = try ThreadSafeSubscription(#require(recorder.subscription))
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    subscription.request(.max(1))
                } else {
                    subscription.cancel()
                }
            }
            resolver.fulfill(round)
            // Cancelled: nothing, whether before, during or after attaching its consumer.
            #expect(recorder.events.isEmpty)
            #expect(try summary(outcome(of: promise)) == "\(round)")
        }
    }

    @Test func fulfillingAFutureRacesCancellingItsPromise() throws {
        for round in 0..<Self.rounds {
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
                let fulfil = try #require(fulfilment.withLock { $0.take() })
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        fulfil.call(.success(round))
                    } else {
                        promise.cancel()
                    }
                }
            }
            let result = try summary(outcome(of: promise))
            #expect(result == "\(round)" || result == "cancelled")
            #expect(weakFuture == nil)
        }
    }
}

/// A subscription to call from several threads at once, as Combine lets a subscriber do.
// @unchecked: Combine requires `request(_:)` and `cancel()` of every subscription to be safe to
// call from any thread, and `PromisePublisher`'s are: that is what the races above check.
struct ThreadSafeSubscription: @unchecked Sendable {
    private let subscription: any Subscription

    init(_ subscription: any Subscription) {
        self.subscription = subscription
    }

    func request(_ demand: Subscribers.Demand) {
        subscription.request(demand)
    }

    func cancel() {
        subscription.cancel()
    }
}
