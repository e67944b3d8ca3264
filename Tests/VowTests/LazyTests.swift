import Dispatch
import Testing
import Vow

@Suite struct LazyTests {
    @Test func theBodyRunsWhenTheFirstHandlerIsAttachedAndOnlyOnce() {
        let runs = Counter()
        let promise = Promise<Int>.lazy { resolver in
            runs.increment()
            resolver.fulfill(7)
        }
        #expect(runs.value == 0)
        let first = promise.map(on: nil) { $0 + 1 }
        #expect(runs.value == 1)
        let second = promise.map(on: nil) { $0 + 2 }
        #expect(runs.value == 1)
        #expect(first.value == 8)
        #expect(second.value == 9)
    }

    @Test func readingTheStateDoesNotStartIt() {
        let runs = Counter()
        let promise = Promise<Int>.lazy { resolver in
            runs.increment()
            resolver.fulfill(1)
        }
        #expect(promise.isPending)
        #expect(promise.result == nil)
        #expect(promise.value == nil)
        #expect(promise.description.contains("pending"))
        #expect(runs.value == 0)
    }

    @Test func waitingStartsIt() throws {
        let promise = Promise<Int>.lazy { resolver in
            DispatchQueue.global().async { resolver.fulfill(3) }
        }
        #expect(try promise.wait() == 3)
    }

    @Test func awaitingStartsIt() async throws {
        let promise = Promise<String>.lazy { resolver in resolver.fulfill("awaited") }
        #expect(try await bounded { try await promise.async() } == "awaited")
    }

    @Test func aThrowFromTheBodyRejects() {
        let promise = Promise<Int>.lazy { _ in throw TestError.boom }
        #expect(promise.isPending, "the body ran before anything was attached")
        let seen = Recorder<TestError>()
        promise.catch(on: nil) { seen.record($0 as! TestError) }
        #expect(seen.all == [.boom])
    }

    @Test func cancellingBeforeAnyHandlerMeansTheBodyNeverRuns() {
        let runs = Counter()
        let promise = Promise<Int>.lazy { resolver in
            runs.increment()
            resolver.fulfill(1)
        }
        promise.cancel()
        let outcome = Recorder<Bool>()
        promise.pipe { outcome.record($0.isCancellation) }
        #expect(outcome.all == [true])
        #expect(runs.value == 0)
    }

    @Test func cancellingAfterItStartedCancelsTheWorkItStarted() {
        // The lazy promise's only handle is dropped, as a chain's middle steps are: a promise
        // someone could still attach to is not cancelled from below.
        let (work, step) = StoppableWork.start { pending in
            Promise.lazy { pending }.map(on: nil) { $0 * 2 }
        }
        #expect(work.stopCount == 0)
        step.cancel()
        #expect(work.stopCount == 1)
        #expect(step.result?.isCancellation == true)
    }

    @Test func theThenableFormFollowsWhatTheBodyReturns() {
        let (inner, resolver) = Promise<Int>.pending()
        let started = Counter()
        let promise = Promise.lazy {
            started.increment()
            return inner
        }
        #expect(started.value == 0)
        let doubled = promise.map(on: nil) { $0 * 2 }
        #expect(started.value == 1)
        #expect(doubled.isPending)
        resolver.fulfill(21)
        #expect(doubled.value == 42)
    }

    @Test func returningItselfRejectsInsteadOfHanging() {
        let holder = Protected<Promise<Int>?>(nil)
        let promise = Promise<Int>.lazy { holder.withLock { $0! } }
        holder.withLock { $0 = promise }
        let outcome = Recorder<Bool>()
        promise.catch(on: nil) { outcome.record(isPromiseError($0, .returnedSelf)) }
        #expect(outcome.all == [true])
        holder.withLock { $0 = nil }
    }

    @Test func lazyGuaranteesStartOnTheirFirstHandler() {
        let runs = Counter()
        let resolved = Guarantee<String>.lazy { resolve in
            runs.increment()
            resolve("made")
        }
        let following = Guarantee.lazy {
            runs.increment()
            return Guarantee.value(5)
        }
        #expect(runs.value == 0)
        #expect(resolved.map(on: nil) { $0.count }.value == 4)
        #expect(following.map(on: nil) { $0 + 1 }.value == 6)
        #expect(runs.value == 2)
    }

    @Test func anUnconsumedLazyPromiseIsFreedWithItsBody() throws {
        final class Token: Sendable {}
        weak var captured: Token?
        weak var dropped: Promise<Int>?
        func make() {
            let token = Token()
            captured = token
            let promise = Promise<Int>.lazy { resolver in
                _ = token
                resolver.fulfill(1)
            }
            dropped = promise
        }
        make()
        #expect(captured == nil, "the body of a dropped lazy promise was kept")
        #expect(dropped == nil)
    }

    @Test func handlersAttachedAtOnceFromTwoThreadsStartTheBodyOnce() async throws {
        let tally = try await stressTest {
            raceRounds(atMost: 5_000, sanitized: 1_000) { round in
                let runs = Counter()
                let promise = Promise<Int>.lazy { resolver in
                    runs.increment()
                    resolver.fulfill(round)
                }
                let seen = Counter()
                let attach: @Sendable () -> Void = {
                    promise.pipe { if (try? $0.get()) == round { seen.increment() } }
                }
                let raced = runTogether(round: round, attach, attach)
                #expect(runs.value == 1, "round \(round): the body ran \(runs.value) times")
                #expect(seen.value == 2, "round \(round): \(seen.value) handlers saw the value")
                return raced
            }
        }
        #expect(tally.raced > 0, "the two attachments never overlapped in \(tally.rounds) rounds")
    }

    @Test func aMainActorBodyRunsOnTheMainActorWhoeverWakesIt() async throws {
        let promise = await MainActorLazyOwner().make()
        let woken = DispatchQueue.global().async(.promise) { () -> Promise<Int> in promise }.then(on: nil) {
            $0
        }
        #expect(try await bounded { try await woken.async() } == 1)
    }
}

@MainActor final class MainActorLazyOwner {
    var made = 0

    func make() -> Promise<Int> {
        Promise.lazy { resolver in
            MainActor.assertIsolated()
            self.made += 1
            resolver.fulfill(self.made)
        }
    }
}
