import Dispatch
import Testing
import Vow

/// A body for `retry` that fails a given number of times, then fulfils with the attempt's
/// number, recording on the clock when each attempt started.
final class FlakyWork: Sendable {
    let clock: ManualClock
    let failures: Int
    let error: TestError
    private let starts = Recorder<Duration>()
    private let start: ManualClock.Instant

    init(clock: ManualClock, failing failures: Int, with error: TestError = .boom) {
        self.clock = clock
        self.failures = failures
        self.error = error
        start = clock.now
    }

    func attempt() -> Promise<Int> {
        starts.record(start.duration(to: clock.now))
        let number = starts.all.count
        return number <= failures ? Promise(error: error) : .value(number)
    }

    /// When each attempt started, counted from the clock's time when the work was made.
    var attemptTimes: [Duration] { starts.all }
}

@Suite struct RetryTests {
    @Test func aFirstSuccessIsNotRetried() {
        let work = FlakyWork(clock: ManualClock(), failing: 0)
        let result = retry(attempts: 5, clock: work.clock) { work.attempt() }
        #expect(result.value == 1)
        #expect(work.attemptTimes == [.zero])
    }

    @Test func failuresAreRetriedUntilOneSucceeds() {
        let work = FlakyWork(clock: ManualClock(), failing: 2)
        let result = retry(attempts: 5, clock: work.clock) { work.attempt() }
        #expect(result.value == 3)
        #expect(work.attemptTimes.count == 3)
    }

    /// Each attempt that fails at once, with no delay, starts the next from its own handler: a
    /// hundred thousand of them overflowed a 512 KiB stack when each nested in the last. An
    /// attempt's run takes up to 16 KiB under Thread Sanitizer, and the trampoline lets 8 of them
    /// nest before it watches the stack, so this test's stack is twice ``smallStack``: nested
    /// attempts, a few dozen frames each, would overflow it within a few hundred.
    @Test func attemptsThatFailAtOnceRunOnASmallStack() async throws {
        let attempts = stressSize(deepEnough, full: 100_000, sanitized: 20_000)
        let made = Counter()
        let error = try await stressTest(stackSize: 2 * smallStack) {
            try VowTests.error(
                of: retry(attempts: attempts) { () -> Promise<Int> in
                    made.increment()
                    return Promise(error: TestError.boom)
                })
        }
        #expect(error as? TestError == .boom)
        #expect(made.value == attempts)
    }

    @Test func afterTheLastAttemptItRejectsWithTheLastError() {
        let work = FlakyWork(clock: ManualClock(), failing: 10, with: .other)
        let result = retry(attempts: 3, clock: work.clock) { work.attempt() }
        #expect(result.error as? TestError == .other)
        #expect(work.attemptTimes.count == 3)
    }

    @Test func aThirtySecondBackoffScheduleRunsInOneAdvance() {
        let work = FlakyWork(clock: ManualClock(), failing: 5)
        let result = retry(
            attempts: 6, delay: .exponential(from: .seconds(1), maximum: .seconds(8)), clock: work.clock
        ) {
            work.attempt()
        }
        #expect(result.isPending)
        work.clock.advance(by: .seconds(23))
        #expect(result.value == 6)
        // Waits of 1, 2, 4, 8 and 8 seconds: the cap holds the last one.
        #expect(work.attemptTimes == [0, 1, 3, 7, 15, 23].map { .seconds($0) })
    }

    @Test func theDelayIsWaitedOutBetweenAttemptsAndNotAfterASuccess() {
        let work = FlakyWork(clock: ManualClock(), failing: 1)
        let result = retry(attempts: 3, delay: .constant(.seconds(10)), clock: work.clock) { work.attempt() }
        work.clock.advance(by: .seconds(9))
        #expect(result.isPending)
        #expect(work.attemptTimes == [.zero])
        work.clock.advance(by: .seconds(1))
        #expect(result.value == 2, "the value waited for a delay after the success")
        #expect(work.clock.sleepers == 0)
    }

    @Test func aPredicateThatTurnsAnErrorDownEndsTheRetry() {
        let work = FlakyWork(clock: ManualClock(), failing: 10, with: .other)
        let seen = Recorder<TestError>()
        let result = retry(
            attempts: 5, clock: work.clock,
            if: { error in
                seen.record(error as! TestError)
                return error as? TestError != .other
            }
        ) { work.attempt() }
        #expect(result.error as? TestError == .other)
        #expect(work.attemptTimes.count == 1)
        #expect(seen.all == [.other])
    }

    @Test func aThrowFromThePredicateRejectsWithIt() {
        let work = FlakyWork(clock: ManualClock(), failing: 10)
        let result = retry(attempts: 5, clock: work.clock, if: { _ in throw TestError.other }) {
            work.attempt()
        }
        #expect(result.error as? TestError == .other)
        #expect(work.attemptTimes.count == 1)
    }

    @Test func aPromisedDecisionIsWaitedFor() {
        let work = FlakyWork(clock: ManualClock(), failing: 1)
        let (decision, decide) = Promise<Bool>.pending()
        let result = retry(attempts: 3, clock: work.clock, if: { _ in decision }) { work.attempt() }
        #expect(result.isPending)
        #expect(work.attemptTimes.count == 1)
        decide.fulfill(true)
        #expect(result.value == 2)
    }

    @Test func aPromisedRefusalEndsTheRetryWithTheAttemptsError() {
        let work = FlakyWork(clock: ManualClock(), failing: 5, with: .other)
        let result = retry(attempts: 3, clock: work.clock, if: { _ in Guarantee.value(false) }) {
            work.attempt()
        }
        #expect(result.error as? TestError == .other)
        #expect(work.attemptTimes.count == 1)
    }

    @Test func aRejectedDecisionRejectsWithItsError() {
        let work = FlakyWork(clock: ManualClock(), failing: 5)
        let result = retry(attempts: 3, clock: work.clock, if: { _ in Promise<Bool>(error: TestError.other) })
        {
            work.attempt()
        }
        #expect(result.error as? TestError == .other)
    }

    @Test func aThrowFromTheBodyCountsAsAFailedAttempt() {
        let calls = Counter()
        let result = retry(attempts: 2, clock: ManualClock()) { () throws -> Promise<Int> in
            calls.increment()
            throw TestError.boom
        }
        #expect(result.error as? TestError == .boom)
        #expect(calls.value == 2)
    }

    @Test func aCancellationIsNotRetried() {
        let calls = Counter()
        let result = retry(attempts: 5, clock: ManualClock()) { () -> Promise<Int> in
            calls.increment()
            return Promise(error: PromiseError.cancelled)
        }
        #expect(result.result.map(\.isCancellation) == true)
        #expect(calls.value == 1)
    }

    @Test func cancellingDuringTheDelayStopsRetrying() {
        let work = FlakyWork(clock: ManualClock(), failing: 5)
        let result = retry(attempts: 5, delay: .constant(.seconds(1)), clock: work.clock) { work.attempt() }
        #expect(work.clock.sleepers == 1)
        result.cancel()
        #expect(work.clock.sleepers == 0, "the delay outlived the cancellation")
        work.clock.advance(by: .seconds(10))
        #expect(work.attemptTimes.count == 1)
        #expect(result.result.map(\.isCancellation) == true)
    }

    @Test func cancellingCancelsTheAttemptInFlight() {
        let clock = ManualClock()
        let attempts = Counter()
        let stops = Counter()
        // Held: a resolver released unsettled would cancel its attempt itself.
        let resolvers = Recorder<Resolver<Int>>()
        let result = retry(attempts: 5, clock: clock) { () -> Promise<Int> in
            attempts.increment()
            let (attempt, resolver) = Promise<Int>.pending()
            resolver.onCancel { stops.increment() }
            resolvers.record(resolver)
            return attempt
        }
        #expect(stops.value == 0)
        result.cancel()
        #expect(stops.value == 1, "the attempt in flight was not cancelled")
        #expect(attempts.value == 1)
    }

    @Test(arguments: [0, -1, Int.min])
    func fewerThanOneAttemptIsBadInput(attempts: Int) {
        let calls = Counter()
        let result = retry(attempts: attempts, clock: ManualClock()) { () -> Promise<Int> in
            calls.increment()
            return .value(1)
        }
        #expect(badInputReason(result.error) == "retry needs at least 1 attempt, not \(attempts)")
        #expect(calls.value == 0)
    }

    @Test func aNegativeDelayIsBadInputBeforeAnyAttempt() {
        let work = FlakyWork(clock: ManualClock(), failing: 1)
        let strategies: [(RetryDelay, String)] = [
            (.constant(.seconds(-1)), "a retry delay cannot be negative, not -1.0 seconds"),
            (
                .exponential(from: .seconds(-2)),
                "an exponential retry delay cannot start below zero, at -2.0 seconds"
            ),
            (
                .exponential(from: .seconds(1), maximum: .seconds(-1)),
                "the maximum retry delay cannot be negative, not -1.0 seconds"
            ),
            (
                .exponential(from: .seconds(1), multiplier: 0.5),
                "an exponential retry delay needs a finite multiplier of at least 1, not 0.5"
            ),
            (
                .exponential(from: .seconds(1), multiplier: .nan),
                "an exponential retry delay needs a finite multiplier of at least 1, not nan"
            ),
        ]
        for (delay, reason) in strategies {
            let result = retry(attempts: 3, delay: delay, clock: work.clock) { work.attempt() }
            #expect(badInputReason(result.error) == reason)
        }
        #expect(work.attemptTimes.isEmpty)
    }

    @Test func aCustomDelayThatComesOutNegativeIsBadInputThere() {
        let work = FlakyWork(clock: ManualClock(), failing: 5)
        let delay = RetryDelay.custom { failures in failures == 2 ? .seconds(-1) : .seconds(1) }
        let result = retry(attempts: 5, delay: delay, clock: work.clock) { work.attempt() }
        work.clock.advance(by: .seconds(1))
        #expect(
            badInputReason(result.error)
                == "the retry delay after 2 failures was -1.0 seconds; a delay cannot be negative")
        #expect(work.attemptTimes.count == 2)
    }

    @Test func retryingInRealTimeWorks() throws {
        let work = FlakyWork(clock: ManualClock(), failing: 2)
        let result = retry(attempts: 3, delay: .constant(.milliseconds(2))) { work.attempt() }
        #expect(try value(of: result) == 3)
    }

    @Test func aMainActorBodyRunsOnTheMainActor() async throws {
        let result = await MainActorRetrier().run()
        #expect(try await bounded { try await result.async() } == 2)
    }
}

@MainActor final class MainActorRetrier {
    var attempts = 0

    func run() -> Promise<Int> {
        retry(attempts: 3, clock: ManualClock(), if: { _ in self.attempts < 5 }) {
            MainActor.assertIsolated()
            self.attempts += 1
            return self.attempts < 2 ? Promise(error: TestError.boom) : .value(self.attempts)
        }
    }
}

@Suite struct RetryDelayTests {
    @Test func exponentialGrowsByItsMultiplierUpToItsMaximum() {
        let delay = RetryDelay.exponential(from: .milliseconds(100), multiplier: 3, maximum: .seconds(2))
        #expect(
            (1...5).map(delay.delay(afterFailures:)) == [100, 300, 900, 2000, 2000].map { .milliseconds($0) })
    }

    @Test func aLongRunOfFailuresDoesNotOverflow() {
        let delay = RetryDelay.exponential(from: .seconds(1))
        #expect(delay.delay(afterFailures: 10_000) > .seconds(1_000_000))
    }

    @Test func fullJitterStaysBetweenZeroAndTheDelay() {
        let delay = RetryDelay.exponential(from: .seconds(8), jitter: .full)
        let samples = (0..<200).map { _ in delay.delay(afterFailures: 1) }
        #expect(samples.allSatisfy { $0 >= .zero && $0 <= .seconds(8) })
        #expect(Set(samples).count > 1, "200 jittered delays were all the same")
    }

    @Test func equalJitterStaysInTheUpperHalf() {
        let delay = RetryDelay.exponential(from: .seconds(8), jitter: .equal)
        let samples = (0..<200).map { _ in delay.delay(afterFailures: 1) }
        #expect(samples.allSatisfy { $0 >= .seconds(4) && $0 <= .seconds(8) })
        #expect(Set(samples).count > 1, "200 jittered delays were all the same")
    }

    @Test func noneAndConstantAndCustomGiveWhatTheySay() {
        #expect(RetryDelay.none.delay(afterFailures: 3) == .zero)
        #expect(RetryDelay.constant(.seconds(2)).delay(afterFailures: 7) == .seconds(2))
        #expect(RetryDelay.custom { .seconds($0) }.delay(afterFailures: 4) == .seconds(4))
    }
}
