import Dispatch
import Foundation
import Testing
import Vow

/// Lookups the test settles by hand, counted per key, with a count of the cancelled ones.
final class ManualLookups: Sendable {
    private let work = ManualWork()
    private let counts = Protected([String: Int]())

    func start(_ key: String) -> Promise<Int> {
        let number = counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts.values.reduce(0, +)
        }
        return work.start(number)
    }

    func lookups(of key: String) -> Int { counts.withLock { $0[key, default: 0] } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }

    /// Settles the `number`th lookup, counting from 1 over every key.
    func fulfil(_ number: Int, with value: Int) { work.fulfil(number, with: value) }
    func reject(_ number: Int) { work.reject(number, with: .other) }
    /// Rejects the lookups still pending; see ``ManualWork/rejectTheRest()``. The cache's lookup
    /// closure captures this object, so a lookup left pending would keep the cache alive.
    func rejectTheRest() { work.rejectTheRest() }
    var cancelled: [Int] { work.cancelled }
}

@Suite struct PromiseCacheTests {
    @Test func callersAskingWhileALookupIsInFlightShareIt() {
        let lookups = ManualLookups()
        defer { lookups.rejectTheRest() }
        let cache = PromiseCache<String, Int> { lookups.start($0) }
        let first = cache.value(for: "a")
        let second = cache.value(for: "a")
        let other = cache.value(for: "b")
        #expect(lookups.lookups(of: "a") == 1)
        #expect(lookups.lookups(of: "b") == 1)
        lookups.fulfil(1, with: 10)
        #expect(first.value == 10)
        #expect(second.value == 10)
        #expect(other.isPending)
    }

    @Test func withoutRetentionASettledLookupIsNotKept() {
        let lookups = ManualLookups()
        let cache = PromiseCache<String, Int> { lookups.start($0) }
        _ = cache.value(for: "a")
        lookups.fulfil(1, with: 1)
        let again = cache.value(for: "a")
        #expect(lookups.lookups(of: "a") == 2)
        lookups.fulfil(2, with: 2)
        #expect(again.value == 2)
    }

    @Test func keptForeverUntilInvalidated() {
        let lookups = ManualLookups()
        defer { lookups.rejectTheRest() }
        let cache = PromiseCache<String, Int>(keeping: .forever) { lookups.start($0) }
        _ = cache.value(for: "a")
        lookups.fulfil(1, with: 7)
        #expect(cache.value(for: "a").value == 7)
        #expect(lookups.total == 1)
        cache.invalidate("a")
        let fresh = cache.value(for: "a")
        #expect(lookups.total == 2)
        lookups.fulfil(2, with: 8)
        #expect(fresh.value == 8)
        cache.invalidateAll()
        _ = cache.value(for: "a")
        #expect(lookups.total == 3)
    }

    @Test func keptForATimeOnTheClock() {
        let clock = ManualClock()
        let lookups = ManualLookups()
        defer { lookups.rejectTheRest() }
        let cache = PromiseCache<String, Int>(keeping: .for(.seconds(10)), clock: clock) { lookups.start($0) }
        _ = cache.value(for: "a")
        clock.advance(by: .seconds(5))
        lookups.fulfil(1, with: 1)
        clock.advance(by: .seconds(9))
        #expect(cache.value(for: "a").value == 1, "expired before its time, counted from the fulfilment")
        clock.advance(by: .seconds(1))
        #expect(cache.value(for: "a").isPending)
        #expect(lookups.total == 2)
    }

    @Test func aFailureReachesEveryCallerAndIsNotKept() {
        let lookups = ManualLookups()
        defer { lookups.rejectTheRest() }
        let cache = PromiseCache<String, Int>(keeping: .forever) { lookups.start($0) }
        let first = cache.value(for: "a")
        let second = cache.value(for: "a")
        lookups.reject(1)
        #expect(first.error as? TestError == .other)
        #expect(second.error as? TestError == .other)
        _ = cache.value(for: "a")
        #expect(lookups.total == 2)
    }

    @Test func aThrowingLookupRejectsItsCallers() {
        let cache = PromiseCache<String, Int> { _ -> Promise<Int> in throw TestError.boom }
        #expect(cache.value(for: "a").error as? TestError == .boom)
    }

    @Test func oneCallerCancellingLeavesTheLookupToTheOthers() {
        let lookups = ManualLookups()
        let cache = PromiseCache<String, Int> { lookups.start($0) }
        let leaving = cache.value(for: "a")
        let staying = cache.value(for: "a")
        leaving.cancel()
        #expect(lookups.cancelled.isEmpty)
        lookups.fulfil(1, with: 3)
        #expect(staying.value == 3)
        #expect(leaving.result?.isCancellation == true)
    }

    @Test func everyCallerCancellingCancelsTheLookupAndTheNextStartsAnew() {
        let lookups = ManualLookups()
        let cache = PromiseCache<String, Int>(keeping: .forever) { lookups.start($0) }
        let first = cache.value(for: "a")
        let second = cache.value(for: "a")
        first.cancel()
        second.cancel()
        #expect(lookups.cancelled == [1])
        let next = cache.value(for: "a")
        #expect(lookups.total == 2)
        lookups.fulfil(2, with: 4)
        #expect(next.value == 4)
    }

    @Test func aLookupInvalidatedInFlightStillReachesItsCallersButIsNotKept() {
        let lookups = ManualLookups()
        let cache = PromiseCache<String, Int>(keeping: .forever) { lookups.start($0) }
        let old = cache.value(for: "a")
        cache.invalidate("a")
        let new = cache.value(for: "a")
        lookups.fulfil(1, with: 1)
        #expect(old.value == 1)
        #expect(new.isPending, "the invalidated lookup settled the new one")
        lookups.fulfil(2, with: 2)
        #expect(new.value == 2)
        #expect(cache.value(for: "a").value == 2)
        #expect(lookups.total == 2)
    }

    /// Invalidating forgets a lookup in flight but does not keep it running for nobody: once
    /// its last caller leaves, it is cancelled, and a later lookup of the key is left alone.
    @Test func aLookupInvalidatedInFlightIsCancelledWhenItsLastCallerLeaves() {
        let lookups = ManualLookups()
        let cache = PromiseCache<String, Int>(keeping: .forever) { lookups.start($0) }
        let first = cache.value(for: "a")
        let second = cache.value(for: "a")
        cache.invalidate("a")
        let next = cache.value(for: "a")
        first.cancel()
        #expect(lookups.cancelled.isEmpty, "cancelled while a caller still waited")
        second.cancel()
        #expect(lookups.cancelled == [1])
        lookups.fulfil(2, with: 5)
        #expect(next.value == 5)
    }

    @Test func aNegativeRetentionIsBadInput() {
        let lookups = ManualLookups()
        let cache = PromiseCache<String, Int>(keeping: .for(.seconds(-1))) { lookups.start($0) }
        #expect(badInputReason(cache.value(for: "a").error)?.contains("-1") == true)
        #expect(lookups.total == 0)
    }

    @Test func aCallerArrivingAsTheLastOneLeavesIsNeverCancelledWithIt() async throws {
        let tally = try await stressTest {
            raceRounds(atMost: 2_000, sanitized: 400) { round in
                let resolvers = Protected<[Resolver<Int>]>([])
                let cache = PromiseCache<Int, Int> { _ in
                    let (promise, resolver) = Promise<Int>.pending()
                    resolvers.withLock { $0.append(resolver) }
                    return promise
                }
                let leaving = cache.value(for: round)
                let arriving = Protected<Promise<Int>?>(nil)
                let raced = runTogether(
                    round: round, { leaving.cancel() }, { arriving.withLock { $0 = cache.value(for: round) } }
                )
                for resolver in resolvers.withLock({ $0 }) { resolver.fulfill(round) }
                let outcome = arriving.withLock { $0!.result }
                #expect(
                    (try? outcome?.get()) == round,
                    "round \(round): the new caller got \(String(describing: outcome))")
                return raced
            }
        }
        #expect(
            tally.raced > 0, "the cancellation and the new caller never overlapped in \(tally.rounds) rounds")
    }

    @Test func callersRacingForAMissStartOneLookup() async throws {
        let tally = try await stressTest {
            raceRounds(atMost: 2_000, sanitized: 400) { round in
                let lookups = Counter()
                let (pending, resolver) = Promise<Int>.pending()
                let cache = PromiseCache<Int, Int> { _ in
                    lookups.increment()
                    return pending
                }
                let values = Recorder<Int>()
                let ask: @Sendable () -> Void = {
                    cache.value(for: round).pipe { values.record(try! $0.get()) }
                }
                let raced = runTogether(round: round, ask, ask)
                resolver.fulfill(round)
                #expect(lookups.value == 1, "round \(round): \(lookups.value) lookups for one key")
                #expect(values.all == [round, round])
                return raced
            }
        }
        #expect(tally.raced > 0, "the callers never overlapped in \(tally.rounds) rounds")
    }

    /// Each way a kept value leaves the cache.
    enum Release: CaseIterable, Sendable {
        case expiry, invalidate, invalidateAll
    }

    /// A kept value's `deinit` is user code, and may call the cache: the cache must release the
    /// value outside its lock, which it would otherwise take again and wait for forever.
    @Test(arguments: Release.allCases)
    func aKeptValueWhoseDeinitCallsTheCacheIsReleasedOutsideItsLock(_ release: Release) {
        let clock = ManualClock()
        let calls = CacheCalls()
        let cache = PromiseCache<String, CallsBackOnRelease>(keeping: .for(.seconds(10)), clock: clock) {
            _ in Promise.value(CallsBackOnRelease(calls))
        }
        calls.cache = cache
        _ = cache.value(for: "a")
        #expect(calls.count == 0)
        let returned = returnsWithinPatience {
            switch release {
            case .expiry:
                clock.advance(by: .seconds(10))
                _ = cache.value(for: "a")
            case .invalidate:
                cache.invalidate("a")
            case .invalidateAll:
                cache.invalidateAll()
            }
        }
        #expect(returned, "the cache deadlocked on the value's deinit")
        #expect(calls.count == 1, "the kept value was not released")
    }

    /// The cache's clock is user code too: read outside the lock, it may call the cache.
    @Test func aClockThatCallsTheCacheIsReadOutsideItsLock() {
        let calls = CacheCalls()
        let clock = CallingClock(calls: calls)
        let cache = PromiseCache<String, CallsBackOnRelease>(keeping: .for(.seconds(10)), clock: clock) {
            _ in Promise.value(CallsBackOnRelease(CacheCalls()))
        }
        calls.cache = cache
        let returned = returnsWithinPatience {
            _ = cache.value(for: "a")
            _ = cache.value(for: "a")
        }
        #expect(returned, "the cache deadlocked on reading its clock")
        #expect(calls.count >= 2, "the clock was read at the fulfilment and at the second call")
    }
}

/// Calls into a cache, counted: a value's `deinit` or a clock's `now` does so.
private final class CacheCalls: Sendable {
    private struct State {
        /// Weak: the cache's lookup closure or clock holds this object.
        weak var cache: PromiseCache<String, CallsBackOnRelease>?
        var count = 0
    }
    private let state = Protected(State())

    var cache: PromiseCache<String, CallsBackOnRelease>? {
        get { state.withLock { $0.cache } }
        set { state.withLock { $0.cache = newValue } }
    }

    var count: Int { state.withLock { $0.count } }

    /// Asks the cache to forget a key nobody uses, which takes its lock.
    func call() {
        let cache = state.withLock { state in
            state.count += 1
            return state.cache
        }
        cache?.invalidate("other")
    }
}

/// A value that calls into the cache as it is released.
private final class CallsBackOnRelease: Sendable {
    let calls: CacheCalls

    init(_ calls: CacheCalls) {
        self.calls = calls
    }

    deinit {
        calls.call()
    }
}

/// A clock that calls into the cache each time it is read.
private struct CallingClock: Clock {
    let calls: CacheCalls
    let base = ManualClock()

    var now: ManualClock.Instant {
        calls.call()
        return base.now
    }

    var minimumResolution: Duration { base.minimumResolution }

    func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}
