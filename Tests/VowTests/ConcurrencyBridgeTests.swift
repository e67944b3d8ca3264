import Dispatch
import Testing
import Vow

@Suite struct ConcurrencyBridgeTests {
    @Test func aFulfilledPromiseGivesItsValue() async throws {
        let value = try await Promise.value(3).async()
        #expect(value == 3)
    }

    @Test func aPendingPromiseIsAwaitedUntilItFulfils() async throws {
        let (promise, resolver) = Promise<String>.pending()
        DispatchQueue.global().async { resolver.fulfill("later") }
        let value = try await promise.async()
        #expect(value == "later")
    }

    @Test func aRejectedPromiseThrowsItsError() async {
        await #expect(throws: TestError.boom) {
            try await Promise<Int>(error: TestError.boom).async()
        }
    }

    @Test func aPendingPromiseThatRejectsThrows() async {
        let (promise, resolver) = Promise<Int>.pending()
        DispatchQueue.global().async { resolver.reject(TestError.other) }
        await #expect(throws: TestError.other) {
            try await promise.async()
        }
    }

    @Test func aCancellationErrorIsThrownAsIs() async {
        do {
            _ = try await Promise<Int>(error: PromiseError.cancelled).async()
            Issue.record("a rejected promise returned a value")
        } catch {
            #expect(error.isCancelled)
        }
    }

    @Test func aChainOnTheDefaultQueuesCanBeAwaited() async throws {
        let value = try await Promise.value(2).map { $0 * 3 }.then { Promise.value($0 + 1) }.async()
        #expect(value == 7)
    }

    @Test func cancellingTheAwaitingTaskDoesNotCancelThePromise() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let task = Task { try await promise.async() }
        task.cancel()
        #expect(promise.isPending)
        resolver.fulfill(4)
        let value = try await task.value
        #expect(value == 4)
    }

    @Test func aGuaranteeGivesItsValue() async {
        let value = await Guarantee.value("now").async()
        #expect(value == "now")
    }

    @Test func aPendingGuaranteeIsAwaitedUntilItResolves() async {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        DispatchQueue.global().async { resolve(11) }
        let value = await guarantee.async()
        #expect(value == 11)
    }

    @Test func aTimerCanBeAwaited() async {
        let value = await after(.milliseconds(1)).map(on: nil) { "tick" }.async()
        #expect(value == "tick")
    }

    @Test func manyPromisesCanBeAwaitedConcurrently() async throws {
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await DispatchQueue.global().async(.promise) { () throws -> Int in index }.async()
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(total == (0..<50).reduce(0, +))
    }

    @Test func awaitingTwiceGivesTheSameValue() async throws {
        let promise = DispatchQueue.global().async(.promise) { () throws -> Int in 5 }
        let first = try await promise.async()
        let second = try await promise.async()
        #expect(first == 5)
        #expect(second == 5)
    }

    // MARK: fulfilled

    @Test func fulfilledGivesTheValueOnceThePromiseFulfils() async throws {
        let (promise, resolver) = Promise<String>.pending()
        DispatchQueue.global().async { resolver.fulfill("later") }
        #expect(try await bounded { try await promise.fulfilled } == "later")
    }

    @Test func fulfilledThrowsTheErrorOnceThePromiseRejects() async {
        let (promise, resolver) = Promise<Int>.pending()
        DispatchQueue.global().async { resolver.reject(TestError.other) }
        await #expect(throws: TestError.other) {
            try await bounded { try await promise.fulfilled }
        }
    }

    @Test func fulfilledGivesTheValueOnceTheGuaranteeResolves() async throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        DispatchQueue.global().async { resolve(11) }
        #expect(try await bounded { await guarantee.fulfilled } == 11)
    }

    @Test func fulfilledGivesTheValueOfAResolvedThenableAtOnce() async throws {
        #expect(try await Promise.value(3).fulfilled == 3)
        #expect(await Guarantee.value("now").fulfilled == "now")
    }

    /// Async code still reads `value` as the optional it is at the moment, without awaiting:
    /// an awaiting `value` beside it would be picked instead, and these lines would not compile.
    @Test func valueStillReadsTheCurrentOptionalInAsyncCode() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let (guarantee, resolve) = Guarantee<Int>.pending()
        #expect(promise.value == nil)
        #expect(guarantee.value == nil)
        resolver.fulfill(1)
        resolve(2)
        let current = promise.value
        #expect(current == 1)
        #expect(guarantee.value == 2)
        #expect(try await promise.fulfilled == 1)
        #expect(await guarantee.fulfilled == 2)
    }

    // Awaiting runs where it is awaited (`nonisolated(nonsending)`). A nonisolated `async`
    // function would first hop to the global executor and back: the main queue would run what
    // was queued on it meanwhile, and an actor's executor would be asked to run the caller
    // again. These two tests see that happen or not.

    @Test @MainActor func awaitingAResolvedPromiseOnTheMainActorDoesNotSuspend() async throws {
        let queuedMeanwhile = QueuedMeanwhile()
        DispatchQueue.main.async { queuedMeanwhile.ran = true }
        // Awaited outside `#expect`, whose expansion could add a hop of its own.
        let values = [
            try await Promise.value(1).async(), await Guarantee.value(2).fulfilled,
            try await Promise.value(3).fulfilled,
        ]
        let ranBeforeResuming = queuedMeanwhile.ran
        #expect(values == [1, 2, 3])
        #expect(!ranBeforeResuming, "awaiting a resolved promise left the main actor")
    }

    @Test func awaitingAResolvedPromiseOnAnActorDoesNotLeaveIt() async throws {
        let counter = EnqueueCountingActor()
        #expect(try await counter.enqueuesWhileAwaitingResolvedPromises() == 0)
    }
}

/// Whether main-queue work queued during an `await` ran before the awaiting code resumed.
@MainActor final class QueuedMeanwhile {
    var ran = false
}

/// An actor on an executor that counts the jobs it is given, to see whether awaiting left it.
actor EnqueueCountingActor {
    let executor = QueueExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// How many times the actor's executor was given a job while this awaited resolved
    /// promises and guarantees.
    func enqueuesWhileAwaitingResolvedPromises() async throws -> Int {
        let before = executor.enqueued.withLock { $0 }
        _ = try await Promise.value(1).async()
        _ = try await Promise.value(2).fulfilled
        _ = await Guarantee.value(3).async()
        _ = await Guarantee.value(4).fulfilled
        return executor.enqueued.withLock { $0 } - before
    }
}
