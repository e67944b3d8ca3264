import Dispatch
import Testing
import Vow

/// Where and when handlers run.
///
/// To show that a queued handler does not run inside the call that attached it, the tests
/// attach it from a block running on that very serial queue and raise a flag before the block
/// ends: a correct dispatch cannot start the handler until then, so the flag is always up by the
/// time the handler looks, while a handler run inline would find it down. No timing involved.
@Suite struct QueueTimingTests {
    // MARK: A queued handler never runs inside the call that attached it

    @Test func thenOnAResolvedPromiseRunsAfterTheCallReturns() throws {
        let queue = TestQueue()
        let flag = Flag()
        let chained = queue.queue.sync {
            let chained = Promise.value(1).then(on: queue.queue) { _ in Promise.value(flag.isUp) }
            flag.raise()
            return chained
        }
        #expect(try value(of: chained), "the handler ran inside then()")
    }

    @Test func everyOperatorOnAResolvedPromiseRunsAfterTheCallReturns() throws {
        let queue = TestQueue()
        let flag = Flag()
        let seen = Recorder<String>()
        let resolved = Promise.value([1])
        let finished = queue.queue.sync {
            let q = queue.queue
            let attached: [Promise<Void>] = [
                resolved.then(on: q) { _ in Guarantee.value(seen.record("then \(flag.isUp)")) },
                resolved.map(on: q) { _ in seen.record("map \(flag.isUp)") },
                resolved.compactMap(on: q) { elements -> Int? in
                    seen.record("compactMap \(flag.isUp)")
                    return elements.first
                }.asVoid(),
                resolved.done(on: q) { _ in seen.record("done \(flag.isUp)") },
                resolved.get(on: q) { _ in seen.record("get \(flag.isUp)") }.asVoid(),
                resolved.tap(on: q) { _ in seen.record("tap \(flag.isUp)") }.asVoid(),
                resolved.mapValues(on: q) { _ in seen.record("mapValues \(flag.isUp)") }.asVoid(),
                resolved.filterValues(on: q) { _ in
                    seen.record("filterValues \(flag.isUp)")
                    return true
                }.asVoid(),
                resolved.firstValue(on: q) { _ in
                    seen.record("firstValue \(flag.isUp)")
                    return true
                }.asVoid(),
            ]
            flag.raise()
            return attached
        }
        try value(of: when(fulfilled: finished))
        #expect(
            seen.all.sorted()
                == [
                    "compactMap true", "done true", "filterValues true", "firstValue true", "get true",
                    "map true", "mapValues true", "tap true", "then true",
                ])
    }

    @Test func everyOperatorOnAResolvedGuaranteeRunsAfterTheCallReturns() throws {
        let queue = TestQueue()
        let flag = Flag()
        let seen = Recorder<String>()
        let resolved = Guarantee.value(1)
        let finished = queue.queue.sync {
            let q = queue.queue
            let attached: [Guarantee<Void>] = [
                resolved.then(on: q) { _ in Guarantee.value(seen.record("then \(flag.isUp)")) },
                resolved.map(on: q) { _ in seen.record("map \(flag.isUp)") },
                resolved.done(on: q) { _ in seen.record("done \(flag.isUp)") },
                resolved.get(on: q) { _ in seen.record("get \(flag.isUp)") }.asVoid(),
            ]
            flag.raise()
            return attached
        }
        try value(of: when(guarantees: finished))
        #expect(seen.all.sorted() == ["done true", "get true", "map true", "then true"])
    }

    @Test func aQueuedHandlerRunsAfterTheResolvingCallReturns() throws {
        let queue = TestQueue()
        let flag = Flag()
        let (promise, resolver) = Promise<Int>.pending()
        let mapped = promise.map(on: queue.queue) { _ in flag.isUp }
        queue.queue.sync {
            resolver.fulfill(1)
            flag.raise()
        }
        #expect(try value(of: mapped), "the handler ran inside fulfill()")
    }

    @Test func aQueuedHandlerOnASettledPromiseRunsAfterTheCallReturns() throws {
        let queue = TestQueue()
        let flag = Flag()
        let (promise, resolver) = Promise<Int>.pending()
        resolver.fulfill(1)
        let mapped = queue.queue.sync {
            let mapped = promise.map(on: queue.queue) { _ in flag.isUp }
            flag.raise()
            return mapped
        }
        #expect(try value(of: mapped), "the handler ran inside map()")
    }

    // MARK: on: nil runs inline

    @Test func inlineHandlerOnAResolvedPromiseRunsInsideTheCall() throws {
        let events = Recorder<String>()
        let mapped = Promise.value(1).map(on: nil) { value -> Int in
            events.record("handler")
            return value + 1
        }
        events.record("returned")
        #expect(events.all == ["handler", "returned"])
        #expect(mapped.value == 2)
    }

    @Test func inlineHandlersOnAResolvedPromiseHaveSettledWhenTheCallReturns() throws {
        let seen = Recorder<String>()
        let resolved = Promise.value([3, 1, 2])
        #expect(resolved.then(on: nil) { Promise.value($0.count) }.value == 3)
        #expect(resolved.map(on: nil) { $0.count }.value == 3)
        #expect(resolved.compactMap(on: nil) { $0.first }.value == 3)
        #expect(resolved.done(on: nil) { _ in seen.record("done") }.isFulfilled)
        #expect(resolved.get(on: nil) { _ in seen.record("get") }.value == [3, 1, 2])
        #expect(resolved.tap(on: nil) { _ in seen.record("tap") }.value == [3, 1, 2])
        #expect(resolved.sortedValues(on: nil).value == [1, 2, 3])
        #expect(resolved.mapValues(on: nil) { $0 * 2 }.value == [6, 2, 4])
        #expect(seen.all == ["done", "get", "tap"])
    }

    @Test func inlineHandlerOnAResolvedGuaranteeRunsInsideTheCall() throws {
        let events = Recorder<String>()
        let resolved = Guarantee.value(1)
        let mapped = resolved.map(on: nil) { value -> Int in
            events.record("map")
            return value + 1
        }
        let finished = resolved.done(on: nil) { _ in events.record("done") }
        events.record("returned")
        #expect(events.all == ["map", "done", "returned"])
        #expect(mapped.value == 2)
        #expect(finished.isResolved)
    }

    @Test func inlineHandlerOnASettledPendingPromiseRunsInsideTheCall() throws {
        let events = Recorder<String>()
        let (promise, resolver) = Promise<Int>.pending()
        resolver.fulfill(4)
        let mapped = promise.map(on: nil) { value -> Int in
            events.record("handler")
            return value * 2
        }
        events.record("returned")
        #expect(events.all == ["handler", "returned"])
        #expect(mapped.value == 8)
    }

    @Test func inlineHandlerRunsOnTheResolvingThread() throws {
        let resolving = TestQueue("vow.tests.timing.resolving")
        let (promise, resolver) = Promise<Int>.pending()
        let onResolvingQueue = promise.map(on: nil) { _ in resolving.isCurrent }
        resolving.queue.async { resolver.fulfill(1) }
        #expect(try value(of: onResolvingQueue))
    }

    @Test func inlineHandlerRunsInsideTheResolvingCall() throws {
        let events = Recorder<String>()
        let (promise, resolver) = Promise<Int>.pending()
        let finished = promise.done(on: nil) { _ in events.record("handler") }
        resolver.fulfill(1)
        events.record("fulfilled")
        try value(of: finished)
        #expect(events.all == ["handler", "fulfilled"])
    }

    // MARK: Handlers run on the queue given

    @Test func promiseHandlersRunOnTheGivenQueue() throws {
        let queue = TestQueue("vow.tests.timing.target")
        let q = queue.queue
        let (promise, resolver) = Promise<[Int]>.pending()
        let seen = Recorder<Bool>()
        let checks: [Promise<Bool>] = [
            promise.then(on: q) { _ in Promise.value(queue.isCurrent) },
            promise.map(on: q) { _ in queue.isCurrent },
            promise.compactMap(on: q) { _ in queue.isCurrent },
            promise.get(on: q) { _ in seen.record(queue.isCurrent) }.map(on: nil) { _ in true },
            promise.done(on: q) { _ in seen.record(queue.isCurrent) }.map(on: nil) { true },
            promise.tap(on: q) { _ in seen.record(queue.isCurrent) }.map(on: nil) { _ in true },
            promise.mapValues(on: q) { _ in queue.isCurrent }.map(on: nil) { $0 == [true] },
            promise.flatMapValues(on: q) { _ in [queue.isCurrent] }.map(on: nil) { $0 == [true] },
            promise.compactMapValues(on: q) { _ in queue.isCurrent }.map(on: nil) { $0 == [true] },
            promise.thenMap(on: q) { _ in Promise.value(queue.isCurrent) }.map(on: nil) { $0 == [true] },
            promise.filterValues(on: q) { _ in queue.isCurrent }.map(on: nil) { $0 == [1] },
            promise.firstValue(on: q) { _ in queue.isCurrent }.map(on: nil) { $0 == 1 },
        ]
        resolver.fulfill([1])
        #expect(try value(of: when(fulfilled: checks)) == Array(repeating: true, count: checks.count))
        #expect(seen.all == [true, true, true])
    }

    @Test func guaranteeHandlersRunOnTheGivenQueue() throws {
        let queue = TestQueue("vow.tests.timing.target")
        let q = queue.queue
        let (guarantee, resolve) = Guarantee<[Int]>.pending()
        let seen = Recorder<Bool>()
        let checks: [Guarantee<Bool>] = [
            guarantee.then(on: q) { _ in Guarantee.value(queue.isCurrent) },
            guarantee.map(on: q) { _ in queue.isCurrent },
            guarantee.get(on: q) { _ in seen.record(queue.isCurrent) }.map(on: nil) { _ in true },
            guarantee.done(on: q) { _ in seen.record(queue.isCurrent) }.map(on: nil) { true },
            guarantee.mapValues(on: q) { _ in queue.isCurrent }.map(on: nil) { $0 == [true] },
            guarantee.thenMap(on: q) { _ in Guarantee.value(queue.isCurrent) }.map(on: nil) { $0 == [true] },
            guarantee.filterValues(on: q) { _ in queue.isCurrent }.map(on: nil) { $0 == [1] },
        ]
        resolve([1])
        #expect(try value(of: when(guarantees: checks)) == Array(repeating: true, count: checks.count))
        #expect(seen.all == [true, true])
    }

    // MARK: flags

    @Test func barrierFlagOnAConcurrentQueueRunsTheHandlerOnThatQueue() throws {
        let concurrent = ConcurrentTestQueue()
        let mapped = Promise.value(1).map(on: concurrent.queue, flags: .barrier) { value in
            concurrent.isCurrent ? value + 1 : -1
        }
        #expect(try value(of: mapped) == 2)
        let seen = Recorder<Bool>()
        let finished = Guarantee.value(1).done(on: concurrent.queue, flags: .barrier) { _ in
            seen.record(concurrent.isCurrent)
        }
        try value(of: finished)
        #expect(seen.all == [true])
    }

    /// A barrier handler must wait for the block already running and hold back the one after it.
    ///
    /// The running block waits for the barrier handler to signal it, but a barrier handler cannot
    /// start while that block runs, so it gives up after a second and finishes first. The
    /// outcome does not depend on that second; it only gives a handler that ignored the flag
    /// time to run alongside, and so to come first.
    @Test func barrierHandlerWaitsForEarlierWorkAndHoldsBackLaterWork() throws {
        let concurrent = ConcurrentTestQueue()
        let order = Recorder<String>()
        let barrierRan = DispatchSemaphore(value: 0)
        let earlier = concurrent.queue.async(.promise) {
            _ = barrierRan.wait(timeout: .now() + 1)
            order.record("earlier")
        }
        let barrier = Promise.value(()).done(on: concurrent.queue, flags: .barrier) {
            order.record("barrier")
            barrierRan.signal()
        }
        let later = concurrent.queue.async(.promise) {
            order.record("later")
        }
        try value(of: earlier)
        try value(of: barrier)
        try value(of: later)
        #expect(order.all == ["earlier", "barrier", "later"])
    }
}

/// A flag one thread raises and another reads.
private final class Flag: Sendable {
    private let raised = Protected(false)

    func raise() {
        raised.withLock { $0 = true }
    }

    var isUp: Bool {
        raised.withLock { $0 }
    }
}

/// A concurrent queue that can tell whether the current code runs on it.
private final class ConcurrentTestQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init() {
        queue = DispatchQueue(label: "vow.tests.timing.concurrent", attributes: .concurrent)
        queue.setSpecific(key: key, value: true)
    }

    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}
