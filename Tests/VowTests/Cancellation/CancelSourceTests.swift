import Dispatch
import Foundation
import Testing
import Vow

/// Vow's own sources of work stop it when cancelled, and its combinators cancel the inputs
/// they no longer need.
@Suite struct CancelSourceTests {
    // MARK: after

    @Test func cancellingAChainReleasesTheTimerOfItsAfter() throws {
        final class Token: Sendable {}
        weak var token: Token?
        do {
            let captured = Token()
            token = captured
            after(seconds: 3600).map(on: nil) { _ = captured }.then(on: nil) { Promise.value(1) }.cancel()
        }
        #expect(try eventuallyHolds { token == nil }, "the hour-long timer still holds the chain")
    }

    @Test func anAfterThatSomethingStillWaitsForStillFires() throws {
        let delay = after(seconds: 0.01)
        let waiting = delay.map(on: nil) { 1 }
        delay.then(on: nil) { Promise.value(1) }.cancel()
        #expect(try value(of: waiting) == 1)
    }

    // MARK: DispatchQueue.async(.promise)

    @Test func aBodyCancelledBeforeItStartsNeverRuns() throws {
        let ran = Counter()
        let queue = DispatchQueue(label: "held")
        let held = DispatchSemaphore(value: 0)
        queue.async { held.wait() }
        let promise = queue.async(.promise) { () throws -> Int in
            ran.increment()
            return 1
        }
        promise.cancel()
        held.signal()
        try value(of: Guarantee<Void> { resolve in queue.async { resolve(()) } })
        #expect(ran.value == 0)
        #expect(promise.result?.isCancellation == true)
    }

    @Test func aRunningBodySeesItsCancellation() throws {
        let started = DispatchSemaphore(value: 0)
        let sawIt = DispatchSemaphore(value: 0)
        let promise = DispatchQueue.global().async(.promise) { cancellation -> Int in
            #expect(!cancellation.isCancelled)
            started.signal()
            while !cancellation.isCancelled { usleep(100) }
            sawIt.signal()
            return 1
        }
        started.wait()
        promise.cancel()
        #expect(sawIt.wait(timeout: .now() + patience) == .success)
        #expect(promise.result?.isCancellation == true)
    }

    @Test func aBodyThatFinishesUncancelledFulfils() throws {
        let promise = DispatchQueue.global().async(.promise) { cancellation in
            cancellation.isCancelled ? 0 : 7
        }
        #expect(try value(of: promise) == 7)
    }

    // MARK: Async code

    @Test func cancellingAPromiseMadeFromAsyncCodeCancelsItsTask() async throws {
        let started = AsyncStream<Void>.makeStream()
        let promise = Promise<Int> {
            started.continuation.yield()
            // Sleeps until cancelled; a task that was not cancelled would fail the test by
            // outlasting its patience.
            try await Task.sleep(nanoseconds: UInt64(patience * 2e9))
            return 1
        }
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        promise.cancel()
        let error = try await bounded { await Task { try? await promise.async() }.value }
        #expect(error == nil)
        #expect(promise.result?.isCancellation == true)
    }

    @Test func aGuaranteeFromAsyncCodeNobodyWaitsForAnyLongerCancelsItsTask() async throws {
        let cancelled = AsyncStream<Bool>.makeStream()
        do {
            let guarantee = Guarantee<Int> {
                try? await Task.sleep(nanoseconds: UInt64(patience * 2e9))
                cancelled.continuation.yield(Task.isCancelled)
                return 1
            }
            guarantee.then(on: nil) { Promise.value($0) }.cancel()
        }
        var iterator = cancelled.stream.makeAsyncIterator()
        let sawCancellation = try await bounded { await iterator.next() }
        #expect(sawCancellation == true)
    }

    @Test func anAwaitInACancelledTaskThrowsAtOnceAndCancelsThePromise() async throws {
        let stops = Counter()
        let resolver: Resolver<Int>
        let task: Task<Int, any Error>
        do {
            let (promise, promiseResolver) = Promise<Int>.pending()
            resolver = promiseResolver
            resolver.onCancel { stops.increment() }
            task = Task { try await promise.async() }
        }
        task.cancel()
        let result = try await bounded { await task.result }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await bounded { await self.until { stops.value == 1 } })
        #expect(resolver.isCancelled)
    }

    @Test func anAwaitInATaskCancelledBeforeItStartsThrowsAtOnce() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let threwCancellation = try await bounded {
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                _ = try await promise.fulfilled
                return false
            } catch {
                return error is CancellationError
            }
        }
        #expect(threwCancellation)
        #expect(!resolver.isCancelled, "the test still holds the promise")
        resolver.fulfill(0)
    }

    @Test func anotherConsumerKeepsThePromiseACancelledTaskAwaitedGoing() async throws {
        let (work, (other, task)) = StoppableWork.start { promise in
            (promise.map(on: nil) { $0 }, Task { try await promise.async() })
        }
        task.cancel()
        _ = try await bounded { await task.result }
        #expect(work.stopCount == 0)
        work.resolver.fulfill(5)
        #expect(try await bounded { try await other.fulfilled } == 5)
    }

    // MARK: Combinators

    @Test func raceCancelsTheLosersOnceItHasAWinner() throws {
        let (loser, (winner, raced)) = StoppableWork.start { losing in
            StoppableWork.start { winning in race(losing, winning) }
        }
        winner.resolver.fulfill(1)
        #expect(try value(of: raced) == 1)
        #expect(loser.stopCount == 1)
        #expect(winner.stopCount == 0)
    }

    @Test func aLoserStillHeldGoesOn() throws {
        let (loser, winner) = (StoppableWork.start { $0 }, StoppableWork.start { $0 })
        let raced = race(loser.1, winner.1)
        winner.0.resolver.fulfill(1)
        #expect(try value(of: raced) == 1)
        #expect(loser.0.stopCount == 0, "the test still holds the loser's promise")
        loser.0.resolver.fulfill(5)
        #expect(try value(of: loser.1.map(on: nil) { $0 + 1 }) == 6)
    }

    @Test func aLoserThatSomethingElseWaitsForGoesOn() throws {
        let (loser, (other, (winner, raced))) = StoppableWork.start { losing in
            (
                losing.map(on: nil) { $0 + 1 },
                StoppableWork.start { winning in race(losing, winning) }
            )
        }
        winner.resolver.fulfill(1)
        #expect(try value(of: raced) == 1)
        #expect(loser.stopCount == 0)
        loser.resolver.fulfill(5)
        #expect(try value(of: other) == 6)
    }

    @Test func cancellingARaceCancelsEveryContender() throws {
        let (first, (second, raced)) = StoppableWork.start { a in
            StoppableWork.start { b in race(a, b) }
        }
        raced.cancel()
        #expect(first.stopCount == 1)
        #expect(second.stopCount == 1)
    }

    @Test func aRaceOfGuaranteesCancelsTheLosingTimer() throws {
        final class Token: Sendable {}
        weak var token: Token?
        let raced: Guarantee<Int>
        do {
            let captured = Token()
            token = captured
            raced = race(
                after(seconds: 3600).map(on: nil) {
                    _ = captured; return 0
                }, Guarantee.value(1))
        }
        #expect(try value(of: raced) == 1)
        #expect(try eventuallyHolds { token == nil }, "the losing timer still holds its chain")
    }

    @Test func whenCancelsTheRestAfterTheFirstRejection() throws {
        let (rest, (failing, all)) = StoppableWork.start { a in
            StoppableWork.start { b in when(fulfilled: [a, b]) }
        }
        failing.resolver.reject(TestError.boom)
        #expect(try error(of: all) as? TestError == .boom)
        #expect(rest.stopCount == 1)
    }

    @Test func whenOfATupleCancelsTheRestAfterTheFirstRejection() throws {
        let (rest, (failing, all)) = StoppableWork.start { a in
            StoppableWork.start { b in when(fulfilled: a, b.map(on: nil) { "\($0)" }) }
        }
        failing.resolver.reject(TestError.boom)
        #expect(try error(of: all) as? TestError == .boom)
        #expect(rest.stopCount == 1)
    }

    @Test func whenThatSucceedsCancelsNothing() throws {
        let (first, (second, all)) = StoppableWork.start { a in
            StoppableWork.start { b in when(fulfilled: a, b) }
        }
        first.resolver.fulfill(1)
        second.resolver.fulfill(2)
        #expect(try value(of: all) == (1, 2))
        #expect(first.stopCount + second.stopCount == 0)
    }

    @Test func whenConcurrentlyStopsStartingAndCancelsWhatRunsAfterARejection() throws {
        let started = Protected<[StoppableWork]>([])
        let elements = (0..<10).lazy.map { @Sendable _ -> Promise<Int> in
            let (work, promise) = StoppableWork.start { $0 }
            started.withLock { $0.append(work) }
            return promise
        }
        let all = when(fulfilled: elements.makeIterator(), concurrently: 3)
        let running = started.withLock { $0 }
        #expect(running.count == 3)
        running[0].resolver.reject(TestError.boom)
        #expect(try error(of: all) as? TestError == .boom)
        #expect(started.withLock { $0.count } == 3, "no new work may start after the rejection")
        #expect(running[1].stopCount == 1)
        #expect(running[2].stopCount == 1)
    }

    @Test func cancellingWhenConcurrentlyStopsEverything() throws {
        let started = Protected<[StoppableWork]>([])
        let elements = (0..<10).lazy.map { @Sendable _ -> Promise<Int> in
            let (work, promise) = StoppableWork.start { $0 }
            started.withLock { $0.append(work) }
            return promise
        }
        let all = when(fulfilled: elements.makeIterator(), concurrently: 2)
        all.cancel()
        let running = started.withLock { $0 }
        #expect(running.count == 2)
        #expect(running.allSatisfy { $0.stopCount == 1 })
        #expect(all.result?.isCancellation == true)
    }

    /// Polls `condition`, yielding between tries, until it holds.
    private func until(_ condition: @escaping @Sendable () -> Bool) async -> Bool {
        while !condition() {
            await Task.yield()
        }
        return true
    }
}

/// Polls `condition` until it holds, for up to the test's patience.
func eventuallyHolds(_ condition: () -> Bool) throws -> Bool {
    let deadline = DispatchTime.now() + patience
    while !condition() {
        guard DispatchTime.now() < deadline else { return false }
        usleep(1000)
    }
    return true
}
