import Dispatch
import Foundation
import Testing
import Vow

/// `cancel()` on a promise and on a `Finalizer`, the hooks that let work hear it, and how far
/// up a chain it travels.
@Suite struct CancelTests {
    // MARK: The promise itself

    @Test func cancellingAPendingPromiseRejectsItWithCancelled() throws {
        let (promise, resolver) = Promise<Int>.pending()
        promise.cancel()
        #expect(promise.result?.isCancellation == true)
        #expect(resolver.isCancelled)
        resolver.fulfill(1)
        #expect(promise.result?.isCancellation == true, "a fulfil after the cancel must be ignored")
    }

    @Test func cancellingAResolvedPromiseChangesNothing() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let stops = Counter()
        resolver.onCancel { stops.increment() }
        resolver.fulfill(1)
        promise.cancel()
        Promise.value(2).cancel()
        #expect(try value(of: promise) == 1)
        #expect(!resolver.isCancelled)
        #expect(stops.value == 0)
    }

    @Test func catchSkipsTheCancellationAndFinallyRuns() throws {
        // The resolver is held: released, it would cancel the promise itself.
        let (promise, resolver) = Promise<Int>.pending()
        defer { withExtendedLifetime(resolver) {} }
        let caught = Counter()
        let finished = promise.map(on: nil) { $0 + 1 }.catch(on: nil) { _ in caught.increment() }.finally(
            on: nil
        ) {}
        promise.cancel()
        try value(of: finished)
        #expect(caught.value == 0)
    }

    @Test func catchWithTheAllErrorsPolicySeesTheCancellation() throws {
        let (promise, resolver) = Promise<Int>.pending()
        defer { withExtendedLifetime(resolver) {} }
        let seen = Protected<(any Error)?>(nil)
        let finished = promise.catch(on: nil, policy: .allErrors) { error in seen.withLock { $0 = error } }
            .finished
        promise.cancel()
        try value(of: finished)
        #expect(seen.withLock { $0?.isCancelled } == true)
    }

    // MARK: Hooks

    @Test func onCancelRunsOnceWhenCancelledAndNeverOnResolution() throws {
        let (cancelled, cancelledResolver) = Promise<Int>.pending()
        let stops = Counter()
        cancelledResolver.onCancel { stops.increment() }
        cancelledResolver.onCancel { stops.increment() }
        cancelled.cancel()
        cancelled.cancel()
        #expect(stops.value == 2, "each of the two hooks runs once")

        let (fulfilled, fulfilledResolver) = Promise<Int>.pending()
        let unused = Counter()
        fulfilledResolver.onCancel { unused.increment() }
        fulfilledResolver.fulfill(1)
        fulfilled.cancel()
        #expect(unused.value == 0)

        let late = Counter()
        cancelledResolver.onCancel { late.increment() }
        #expect(late.value == 1, "a hook registered after the cancel runs at once")
    }

    @Test func aPollingBodySeesIsCancelled() throws {
        let started = DispatchSemaphore(value: 0)
        let promise = Promise<Int> { resolver in
            DispatchQueue.global().async {
                started.signal()
                while !resolver.isCancelled {
                    usleep(100)
                }
                resolver.fulfill(1)
            }
        }
        started.wait()
        promise.cancel()
        #expect(try outcome(of: promise).isCancellation)
    }

    @Test func aDroppedResolverCancelsItsPromise() throws {
        let (promise, site) = expectingLeakReport(Promise<Int> { _ in })
        #expect(promise.result?.isCancellation == true)
        #expect(LeakReports.shared.count(at: site) == 1)
    }

    // MARK: Up the chain

    @Test func cancellingTheEndOfAChainStopsTheWorkAtItsStart() throws {
        let (work, end) = StoppableWork.start { $0.map(on: nil) { $0 + 1 }.map(on: .global()) { $0 * 2 } }
        end.cancel()
        #expect(work.stopCount == 1)
        #expect(work.resolver.isCancelled)
        #expect(end.result?.isCancellation == true)
    }

    @Test func aStepWhoseBoxWasCancelledDoesNotRun() throws {
        let ran = Counter()
        let (promise, resolver) = Promise<Int>.pending()
        let held = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "held")
        queue.async { held.wait() }
        let step = promise.map(on: queue) { value -> Int in
            ran.increment()
            return value
        }
        resolver.fulfill(1)
        step.cancel()
        held.signal()
        let drained = Guarantee<Void> { resolve in queue.async { resolve(()) } }
        try value(of: drained)
        #expect(ran.value == 0)
        #expect(step.result?.isCancellation == true)
    }

    @Test func anotherConsumerKeepsTheWorkGoing() throws {
        let (work, (first, second)) = StoppableWork.start {
            ($0.map(on: nil) { $0 + 1 }, $0.map(on: nil) { $0 + 2 })
        }
        first.cancel()
        #expect(work.stopCount == 0, "the second consumer still waits")
        work.resolver.fulfill(10)
        #expect(try value(of: second) == 12)
        #expect(first.result?.isCancellation == true)
    }

    @Test func theLastConsumerToCancelStopsTheWork() throws {
        let (work, (first, second)) = StoppableWork.start {
            ($0.map(on: nil) { $0 + 1 }, $0.map(on: nil) { $0 + 2 })
        }
        first.cancel()
        second.cancel()
        #expect(work.stopCount == 1)
    }

    @Test func aHandleStillHeldKeepsTheWorkGoing() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let stops = Counter()
        resolver.onCancel { stops.increment() }
        promise.map(on: nil) { $0 }.cancel()
        #expect(stops.value == 0, "a new consumer could still attach through the handle")
        let later = promise.map(on: nil) { $0 * 3 }
        resolver.fulfill(2)
        #expect(try value(of: later) == 6)
        #expect(stops.value == 0)
    }

    @Test func releasingTheLastHandleAfterEveryConsumerCancelledStopsTheWork() throws {
        let (work, held) = StoppableWork.start { promise in
            promise.map(on: nil) { $0 }.cancel()
            return promise
        }
        #expect(work.stopCount == 0)
        _ = consume held
        #expect(work.stopCount == 1)
        #expect(work.resolver.isCancelled)
    }

    @Test func aStepNobodyCancelsKeepsTheWorkGoingForLaterConsumers() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let stops = Counter()
        resolver.onCancel { stops.increment() }
        let kept = promise.map(on: nil) { $0 }
        promise.map(on: nil) { $0 }.cancel()
        let later = promise.map(on: nil) { $0 * 3 }
        resolver.fulfill(2)
        #expect(try value(of: later) == 6)
        #expect(try value(of: kept) == 2)
        #expect(stops.value == 0)
    }

    @Test func workNobodyConsumedIsNeverCancelled() throws {
        let (work, _) = StoppableWork.start { _ = $0.map(on: nil) { $0 } }
        #expect(work.stopCount == 0)
        #expect(!work.resolver.isCancelled)
        work.resolver.fulfill(0)
    }

    @Test func aPipeHandlerIsAConsumerThatNeverCancels() throws {
        let seen = Protected<Int?>(nil)
        let (work, end) = StoppableWork.start { promise in
            promise.pipe { result in seen.withLock { $0 = try? result.get() } }
            return promise.map(on: nil) { $0 }
        }
        end.cancel()
        #expect(work.stopCount == 0)
        work.resolver.fulfill(3)
        #expect(seen.withLock { $0 } == 3)
    }

    @Test func aPipeHandlerOnAGuaranteeKeepsItsWorkGoing() throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let seen = Protected<Int?>(nil)
        guarantee.pipe { result in seen.withLock { $0 = try? result.get() } }
        guarantee.then(on: nil) { Promise.value($0) }.cancel()
        resolve(4)
        #expect(seen.withLock { $0 } == 4)
    }

    @Test func cancellingAThenStopsThePromiseItsBodyReturned() throws {
        let (root, rootResolver) = Promise<Int>.pending()
        let inner = Protected<StoppableWork?>(nil)
        let chained = root.then(on: nil) { _ -> Promise<Int> in
            let (work, promise) = StoppableWork.start { $0 }
            inner.withLock { $0 = work }
            return promise
        }
        rootResolver.fulfill(1)
        let work = try #require(inner.withLock { $0 })
        chained.cancel()
        #expect(work.stopCount == 1)
    }

    @Test func aThenCancelledBeforeItsInputArrivesNeverRunsItsBody() throws {
        let (root, rootResolver) = Promise<Int>.pending()
        let ran = Counter()
        let chained = root.then(on: nil) { value -> Promise<Int> in
            ran.increment()
            return .value(value)
        }
        chained.cancel()
        rootResolver.fulfill(1)
        #expect(ran.value == 0)
    }

    @Test func cancellationTravelsThroughAGuaranteeMadeWithRecover() throws {
        let (work, end) = StoppableWork.start { promise in
            promise.recover(on: nil) { _ in Guarantee.value(0) }.map(on: nil) { $0 + 1 }.then(on: nil) {
                Promise.value($0)
            }
        }
        end.cancel()
        #expect(work.stopCount == 1)
    }

    // MARK: Finalizer

    @Test func cancellingAFinalizerSkipsTheCatchRunsFinallyAndStopsTheWork() throws {
        let caught = Counter()
        let (work, finalizer) = StoppableWork.start {
            $0.done(on: nil) { _ in }.catch(on: nil) { _ in caught.increment() }
        }
        let finished = finalizer.finally(on: nil) {}
        finalizer.cancel()
        try value(of: finished)
        #expect(work.stopCount == 1)
        #expect(caught.value == 0)
    }

    @Test func cancellingAFinalizerWhoseChainIsSharedLeavesTheChainRunning() throws {
        let caught = Counter()
        let (work, (finalizer, other)) = StoppableWork.start { promise in
            (
                promise.catch(on: nil, policy: .allErrors) { _ in caught.increment() },
                promise.map(on: nil) { $0 }
            )
        }
        finalizer.cancel()
        #expect(work.stopCount == 0)
        work.resolver.reject(TestError.boom)
        #expect(try error(of: other) as? TestError == .boom)
        #expect(caught.value == 0, "the cancelled catch must not run")
    }

    /// Work registered with `onCancelLeavingPending` settles its own cancellation, once it has
    /// stopped: until then the promise is cancelled but pending, and so is what waits for it.
    @Test func aCancellationLeftPendingWaitsForTheWorkToSettleIt() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let hooks = Counter()
        resolver.onCancelLeavingPending { hooks.increment() }
        let seen = Recorder<String>()
        promise.pipe { seen.record(summary($0)) }
        let chained = promise.map(on: nil) { $0 + 1 }
        promise.cancel()
        #expect(hooks.value == 1)
        #expect(resolver.isCancelled)
        #expect(promise.isPending, "rejected before the work stopped")
        #expect(chained.isPending)
        #expect(seen.all.isEmpty)
        resolver.reject(PromiseError.cancelled)
        #expect(seen.all == ["cancelled"])
        #expect(chained.result?.isCancellation == true)
        #expect(hooks.value == 1)
    }

    /// A step chained after such a promise, cancelled itself, does not wait for the work.
    @Test func aStepCancelledItselfRejectsAtOnceWhileTheWorkStops() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let hooks = Counter()
        resolver.onCancelLeavingPending { hooks.increment() }
        let step: Promise<Int> = promise.map(on: nil) { $0 + 1 }
        step.cancel()
        #expect(step.result?.isCancellation == true)
        #expect(promise.isPending)
        resolver.fulfill(1)
        #expect(promise.value == 1, "the promise still held a handle, so it was not cancelled")
        #expect(hooks.value == 0)
    }

    /// Work that finished as it was being stopped may settle with its result.
    @Test func theWorkMaySettleItsCancelledPromiseWithItsResult() {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.onCancelLeavingPending {}
        promise.cancel()
        resolver.fulfill(3)
        #expect(promise.value == 3)
    }

    /// A resolver released before its work settled the cancellation settles it: nothing is
    /// left pending for good.
    @Test func aResolverReleasedBeforeItsWorkSettledRejectsTheCancelledPromise() {
        let (promise, site): (Promise<Int>, CreationSite) = {
            let ((promise, resolver), site) = expectingLeakReport(Promise<Int>.pending())
            resolver.onCancelLeavingPending {}
            promise.cancel()
            #expect(promise.isPending)
            return (promise, site)
        }()
        #expect(promise.result?.isCancellation == true)
        #expect(LeakReports.shared.count(at: site) == 1)
    }

    /// A promise cancelled before its hook is registered rejected at once; the hook runs at once.
    @Test func aHookRegisteredAfterTheCancellationRunsAtOnce() {
        let (promise, resolver) = Promise<Int>.pending()
        promise.cancel()
        let hooks = Counter()
        resolver.onCancelLeavingPending { hooks.increment() }
        #expect(hooks.value == 1)
        #expect(promise.result?.isCancellation == true)
    }
}
