import Dispatch
import Testing

@testable import Vow

@Suite struct ManualClockTests {
    /// A cancelled timer's chain is released when the clock lets the timer go, and a deinit in
    /// it is user code, which may read the clock: the clock must let go outside its lock.
    @Test func aTimersChainIsReleasedOutsideTheClocksLockWhenCancelled() {
        let clock = ManualClock()
        let released = Protected(false)
        let returned = returnsWithinPatience {
            timerChain(on: clock, capturing: ReadsTheClockOnRelease(clock, released)).cancel()
        }
        #expect(returned, "the clock deadlocked on a deinit in the timer's chain")
        #expect(released.withLock { $0 }, "the step's capture was not released")
    }

    @Test func timeMovesOnlyWhenAdvanced() {
        let clock = ManualClock()
        let start = clock.now
        #expect(clock.now == start)
        clock.advance(by: .seconds(3))
        #expect(start.duration(to: clock.now) == .seconds(3))
        clock.advance(to: start.advanced(by: .seconds(1)))
        #expect(
            start.duration(to: clock.now) == .seconds(3), "advancing to a past instant moved the clock back")
        #expect(clock.now.description == "+3.0 seconds")
    }

    @Test func afterResolvesWhenTheClockReachesItsDeadline() {
        let clock = ManualClock()
        let timer = after(.seconds(30), clock: clock)
        #expect(clock.sleepers == 1)
        clock.advance(by: .seconds(29))
        #expect(timer.isPending)
        clock.advance(by: .seconds(1))
        #expect(timer.isResolved)
        #expect(clock.sleepers == 0)
    }

    @Test(arguments: [Duration.zero, .seconds(-1)])
    func afterAZeroOrNegativeDurationResolvesAtOnce(duration: Duration) {
        let clock = ManualClock()
        #expect(after(duration, clock: clock).isResolved)
        #expect(clock.sleepers == 0)
    }

    @Test func deadlinesFallDueInOrderAndEqualOnesInTheOrderScheduled() {
        let clock = ManualClock()
        let order = Recorder<String>()
        for (name, seconds) in [("c", 3), ("a", 1), ("b1", 2), ("b2", 2)] {
            after(.seconds(seconds), clock: clock).done(on: nil) { order.record(name) }
        }
        clock.advance(by: .seconds(10))
        #expect(order.all == ["a", "b1", "b2", "c"])
    }

    @Test func eachRunsWithTheClockAtItsDeadline() {
        let clock = ManualClock()
        let start = clock.now
        let seen = Recorder<Duration>()
        for seconds in [2, 5] {
            after(.seconds(seconds), clock: clock).done(on: nil) {
                seen.record(start.duration(to: clock.now))
            }
        }
        clock.advance(by: .seconds(7))
        #expect(seen.all == [.seconds(2), .seconds(5)])
        #expect(start.duration(to: clock.now) == .seconds(7))
    }

    @Test func workScheduledWhileAdvancingRunsIfItsDeadlineIsWithinReach() {
        let clock = ManualClock()
        let chained = after(.seconds(1), clock: clock).then(on: nil) { after(.seconds(1), clock: clock) }
            .then(on: nil) { after(.seconds(5), clock: clock) }
        clock.advance(by: .seconds(2))
        #expect(chained.isPending, "the third wait, due at 7 s, ran at 2 s")
        #expect(clock.sleepers == 1)
        clock.advance(by: .seconds(5))
        #expect(chained.isResolved)
    }

    @Test func aTimerNobodyWaitsForAnyLongerIsWithdrawn() throws {
        let clock = ManualClock()
        let end = Promise(after(.seconds(5), clock: clock)).map(on: nil) { 1 }
        #expect(clock.sleepers == 1)
        end.cancel()
        #expect(clock.sleepers == 0, "cancelling the only consumer left the timer scheduled")
    }

    @Test func anAsyncSleepEndsWhenTheClockIsAdvanced() async throws {
        let clock = ManualClock()
        let slept = Task { try await clock.sleep(for: .seconds(10)) }
        let start = clock.now
        let woke: ManualClock.Instant = try await bounded {
            while clock.sleepers == 0 { await Task.yield() }
            clock.advance(by: .seconds(10))
            try await slept.value
            return clock.now
        }
        #expect(start.duration(to: woke) == .seconds(10))
    }

    @Test func anAsyncSleepThatIsDueAlreadyReturnsAtOnce() async throws {
        let clock = ManualClock()
        let deadline = clock.now.advanced(by: .seconds(1))
        clock.advance(by: .seconds(2))
        try await bounded { try await clock.sleep(until: deadline) }
        #expect(clock.sleepers == 0)
    }

    @Test func cancellingASleepingTaskThrowsAndWithdrawsIt() async throws {
        let clock = ManualClock()
        let slept = Task { try await clock.sleep(for: .seconds(10)) }
        let outcome = try await bounded { () -> Result<Void, any Error> in
            while clock.sleepers == 0 { await Task.yield() }
            slept.cancel()
            return await slept.result
        }
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(clock.sleepers == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsWithoutWaiting() async throws {
        let clock = ManualClock()
        let outcome = try await bounded { () -> Result<Void, any Error> in
            let slept = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await clock.sleep(for: .seconds(10))
            }
            return await slept.result
        }
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(clock.sleepers == 0)
    }

    // Vow sleeps on a clock of another kind in a task, so these tests suspend rather than block:
    // a blocked thread of the cooperative pool could be the one the task needs.

    @Test func afterOnAClockOfAnotherKindSleepsOnIt() async throws {
        let manual = ManualClock()
        let clock = ForwardingClock(manual)
        let timer = after(.seconds(4), clock: clock)
        // The deadline was taken when `after` was called, so the advance counts even if the task
        // has not started sleeping yet.
        manual.advance(by: .seconds(4))
        try await bounded { await timer.async() }
        #expect(timer.isResolved)
    }

    @Test func afterOnAClockOfAnotherKindIsCancelledWithItsTask() async throws {
        let manual = ManualClock()
        let clock = ForwardingClock(manual)
        let end = Promise(after(.seconds(4), clock: clock).map(on: nil) { 1 })
        #expect(await eventually { manual.sleepers == 1 }, "the task never started sleeping")
        end.cancel()
        #expect(await eventually { manual.sleepers == 0 }, "the sleep outlived the cancellation")
        #expect(end.result.map(\.isCancellation) == true)
    }

    @Test func afterOnTheSystemClocksWaitsInRealTime() throws {
        for timer in [
            after(.milliseconds(5), clock: .continuous), after(.milliseconds(5), clock: .suspending),
        ] {
            try value(of: timer)
            #expect(timer.isResolved)
        }
    }

    /// Ten thousand timers, half of them withdrawn and every thousandth sharing a deadline, run in
    /// deadline order and then in scheduling order. What a timer costs however many wait, which
    /// an unsorted schedule made grow with their number, is the benchmark suite's to measure: its
    /// "manual-clock-timers" scenario compares a clock of 100,000 timers with clocks of 1,000.
    @Test func tenThousandTimersHalfWithdrawnRunInDeadlineOrder() async throws {
        let count = stressSize(10_000, full: 100_000, sanitized: 10_000)
        let (waitingAfterWithdrawal, waitingAtTheEnd, fired) = try await stressTest {
            let clock = ManualClock()
            let fired = Recorder<Int>()
            let timers = (0..<count).map { index in
                clock.timer(after: .seconds(Self.shuffledDeadline(index))) { fired.record(index) }!
            }
            for index in stride(from: 0, to: count, by: 2) {
                clock.cancelTimer(timers[index])
            }
            let waiting = clock.sleepers
            clock.advance(by: .seconds(1_000))
            return (waiting, clock.sleepers, fired.all)
        }
        let expected = stride(from: 1, to: count, by: 2).sorted {
            (Self.shuffledDeadline($0), $0) < (Self.shuffledDeadline($1), $1)
        }
        #expect(waitingAfterWithdrawal == count / 2)
        #expect(waitingAtTheEnd == 0)
        #expect(fired.count == expected.count)
        let firstMismatch = expected.indices.first { fired.indices.contains($0) && fired[$0] != expected[$0] }
        #expect(firstMismatch == nil, "the timers ran out of deadline order or of scheduling order")
    }

    /// Timer `index`'s delay in seconds, from 1 to 1,000: consecutive timers fall far apart, and
    /// each delay is shared by every thousandth timer, so that ties are many.
    private static func shuffledDeadline(_ index: Int) -> Int64 {
        Int64(index * 7_919 % 1_000 + 1)
    }

    /// A timer withdrawn from a clock nobody advances lets go of its action at once, and the
    /// clock counts only what still waits.
    @Test func withdrawnTimersAreFreedAtOnceWithoutAdvancing() {
        final class Token: Sendable {}
        let clock = ManualClock()
        let fired = Recorder<Int>()
        let count = 1_000
        var tokens: [Weak] = []
        var timers: [UInt64] = []
        for index in 0..<count {
            let token = Token()
            tokens.append(Weak(token))
            timers.append(
                clock.timer(after: .seconds(index % 7 + 1)) {
                    withExtendedLifetime(token) { fired.record(index) }
                }!)
        }
        var keptAlive = 0
        for index in 0..<count where !index.isMultiple(of: 10) {
            clock.cancelTimer(timers[index])
            if tokens[index].object != nil { keptAlive += 1 }
        }
        #expect(keptAlive == 0, "a withdrawn timer's action outlived its withdrawal")
        #expect(clock.sleepers == count / 10)
        clock.advance(by: .seconds(7))
        let kept = stride(from: 0, to: count, by: 10)
        #expect(fired.all == kept.sorted { ($0 % 7, $0) < ($1 % 7, $1) })
        #expect(clock.sleepers == 0)
        #expect(tokens.allSatisfy { $0.object == nil }, "a timer's action outlived its run")
    }

    /// Timers scheduled, withdrawn, withdrawn again after they ran, and run by advances of
    /// every size, against a list kept sorted by deadline and then by scheduling order.
    @Test func aRandomScheduleRunsAsASortedListSays() {
        var random = SplitMix64(seed: 41)
        let clock = ManualClock()
        let fired = Recorder<Int>()
        var elapsed = Duration.zero
        var model: [(deadline: Duration, index: Int, timer: UInt64)] = []
        var ran: [UInt64] = []
        var expected: [Int] = []
        for index in 0..<5_000 {
            switch random.int(in: 0..<10) {
            case 0..<5:
                let delay = Duration.seconds(random.int(in: 1...50))
                let timer = clock.timer(after: delay) { fired.record(index) }!
                let deadline = elapsed + delay
                // After every equal deadline: those were scheduled first.
                let position = model.firstIndex { $0.deadline > deadline } ?? model.endIndex
                model.insert((deadline, index, timer), at: position)
            case 5..<8:
                guard !model.isEmpty else { continue }
                clock.cancelTimer(model.remove(at: random.int(in: 0..<model.count)).timer)
            case 8:
                guard !ran.isEmpty else { continue }
                clock.cancelTimer(random.element(of: ran))
            default:
                elapsed += .seconds(random.int(in: 0...20))
                clock.advance(to: ManualClock.Instant(offset: elapsed))
                let due = model.prefix { $0.deadline <= elapsed }
                expected += due.map(\.index)
                ran += due.map(\.timer)
                model.removeFirst(due.count)
            }
            if clock.sleepers != model.count { break }
        }
        #expect(clock.sleepers == model.count)
        clock.advance(by: .seconds(100))
        expected += model.map(\.index)
        #expect(fired.all == expected)
    }

    @Test func aDurationTooLongForNanosecondsNeverFires() throws {
        let end = Promise(after(.seconds(Int64.max), clock: .continuous).map(on: nil) { 1 })
        #expect(end.isPending)
        end.cancel()
        #expect(end.result.map(\.isCancellation) == true)
    }
}

/// A clock that is not a `ManualClock`, nor one of the system's, so that Vow must sleep on it
/// in a task; its time is the manual clock's.
struct ForwardingClock: Clock {
    let base: ManualClock

    init(_ base: ManualClock) {
        self.base = base
    }

    var now: ManualClock.Instant { base.now }
    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}

/// A promise at the end of two steps after a timer on `clock`, the first of which captures
/// `token`: only the timer's handlers hold that step. Not inlined, so that no temporary of the
/// caller's holds it either.
@inline(never)
private func timerChain(on clock: ManualClock, capturing token: some Sendable) -> Promise<Int> {
    Promise(
        after(.seconds(5), clock: clock).map(on: nil) { withExtendedLifetime(token) { 1 } }.map(on: nil) {
            $0 + 1
        })
}

/// Reads a clock's sleepers, which takes its lock, as it is released.
private final class ReadsTheClockOnRelease: Sendable {
    let clock: ManualClock
    let released: Protected<Bool>

    init(_ clock: ManualClock, _ released: Protected<Bool>) {
        self.clock = clock
        self.released = released
    }

    deinit {
        _ = clock.sleepers
        released.withLock { $0 = true }
    }
}
