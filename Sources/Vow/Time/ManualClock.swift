/// A clock whose time moves only when a test moves it, so that a schedule of delays runs
/// instantly and in the same order every time.
///
/// Give it to anything in Vow that waits: ``after(_:clock:file:line:)``, ``Thenable/delay(_:clock:file:line:)``,
/// ``Thenable/timeout(_:clock:file:line:)`` and ``retry(attempts:delay:clock:if:file:line:_:)-26o1u``. Nothing that
/// waits on it finishes until ``advance(by:)`` or ``advance(to:)`` moves the clock past its
/// deadline. Advancing runs what fell due on the calling thread, in deadline order, before it
/// returns; work scheduled while it advances runs too, if its deadline is still within reach.
/// So a schedule whose steps run inline finishes inside one `advance`:
///
/// ```swift
/// let clock = ManualClock()
/// let fetched = retry(attempts: 5, delay: .exponential(from: .seconds(1)), clock: clock) {
///     flakyFetch()
/// }
/// clock.advance(by: .seconds(30))   // the retries of half a minute, at once
/// let data = try fetched.wait()
/// ```
///
/// Scheduling, withdrawing and running a wait each cost O(log n) in the n that wait, so one
/// clock takes a test's many thousands of timeouts in its stride.
///
/// It is an ordinary `Clock`, so an `async` function can sleep on it too:
/// `try await clock.sleep(for: .seconds(5))` returns once the clock has been advanced five
/// seconds, and throws `CancellationError` if its task is cancelled first.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class ManualClock: Clock, Sendable {
    /// A moment on a ``ManualClock``: how far the clock had been advanced when it came.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// How far after the clock's start this moment lies.
        public let offset: Duration

        @usableFromInline
        init(offset: Duration) {
            self.offset = offset
        }

        /// The moment `duration` after this one.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this moment to `other`, negative if `other` came first.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` came before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset from the clock's start, such as `+3.0 seconds`.
        public var description: String {
            "+\(offset)"
        }
    }

    private let state = Locked(Schedule())

    /// A clock at its start, with nothing scheduled.
    public init() {}

    /// The clock's current time.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// The clock has no resolution of its own: it reaches every deadline exactly.
    public var minimumResolution: Duration {
        .zero
    }

    /// How many sleeps and timers wait for the clock to reach their deadline.
    ///
    /// A test can check it to learn that the code under test has started waiting:
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let feed = retry(attempts: 2, delay: .constant(.seconds(5)), clock: clock) { flakyFetch() }
    /// precondition(clock.sleepers == 1, "the retry should be waiting out its delay")
    /// ```
    public var sleepers: Int {
        state.withLock { $0.count }
    }

    /// Moves the clock forward by `duration`, running everything that falls due on the way.
    ///
    /// - Precondition: `duration` is not negative: a clock does not go back.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let banner = after(.seconds(3), clock: clock)
    /// clock.advance(by: .seconds(3))  // the timer fires here, at once
    /// assert(banner.isResolved)
    /// ```
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock cannot go back: advance(by: \(duration))")
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock forward to `deadline`, running everything that falls due on the way, in
    /// deadline order and, for equal deadlines, in the order it was scheduled.
    ///
    /// Each one runs on this thread, outside the clock's lock, with ``now`` at its deadline.
    /// A deadline the clock has passed already leaves it where it is.
    public func advance(to deadline: Instant) {
        while let due = state.withLock({ $0.takeFirst(dueBy: deadline) }) {
            due.action()
        }
    }

    /// Suspends until the clock has been advanced to `deadline`; returns at once if it has.
    ///
    /// - Throws: `CancellationError` if the task is cancelled before the clock gets there.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { $0.newID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { schedule in
                    // A cancellation that came before this point has set the flag already, and its
                    // handler found nothing to remove: it is answered here.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= schedule.now { return .success(()) }
                    schedule.add(
                        id, at: deadline, ending: { continuation.resume(throwing: CancellationError()) }
                    ) { continuation.resume() }
                    return nil
                }
                outcome.map { continuation.resume(with: $0) }
            }
        } onCancel: {
            // The sleep's action is released after the lock is left, as the timers' are.
            let withdrawn = state.withLock { $0.take(id) }
            withdrawn?.end?()
        }
    }

    /// Runs `action` once the clock reaches `duration` from now; the returned number withdraws
    /// it through ``cancelTimer(_:)``. Runs it at once, on this thread, if `duration` is not
    /// positive.
    func timer(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64? {
        let scheduled: UInt64? = state.withLock { schedule in
            guard duration > .zero else { return nil }
            let id = schedule.newID()
            schedule.add(id, at: schedule.now.advanced(by: duration), action)
            return id
        }
        if scheduled == nil {
            action()
        }
        return scheduled
    }

    /// Withdraws a timer that has not run, so that it never does.
    func cancelTimer(_ id: UInt64) {
        // Released after the lock is left: the action may hold the last reference to the chain
        // that waits for the timer, whose steps' captures have deinits of the user's, which may
        // read this clock.
        let withdrawn = state.withLock { $0.take(id) }
        withExtendedLifetime(withdrawn) {}
    }
}

/// What a ``ManualClock`` knows: its time, and what waits for it.
///
/// What waits is kept twice: its entry under its id in `waiting`, and its deadline and id in
/// `order`, a heap that yields the earliest, so that scheduling, withdrawing and firing each
/// cost O(log n) at most. Withdrawing removes the entry alone, in O(1), and so releases its
/// action at once; the key it leaves in the heap is dead, and is dropped when it reaches the
/// top, or with every other dead key once they make up more than half of the heap, which keeps
/// the heap within twice the size of what waits. A heap that tracked each key's position could
/// remove the key itself, but would write that position to a dictionary at every step of every
/// sift, to save memory this bound already keeps small.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
private struct Schedule: Sendable {
    /// Where something that waits stands in line: by deadline and, since ids increase, among
    /// equal deadlines by the order it was scheduled in.
    struct Key: Comparable, Sendable {
        let deadline: ManualClock.Instant
        let id: UInt64

        /// Whether `lhs` falls due first: the earlier deadline, or the earlier id of equal ones.
        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id)
        }
    }

    /// Something that waits for a deadline: what to run when the clock reaches it, and, for a
    /// sleep, how to end it early.
    struct Waiting: Sendable {
        let action: @Sendable () -> Void
        /// Resumes the sleep with `CancellationError`; a timer has none.
        let end: (@Sendable () -> Void)?
    }

    var now = ManualClock.Instant(offset: .zero)
    /// Everything that waits, by id.
    private var waiting: [UInt64: Waiting] = [:]
    /// The key of everything that waits, and of some that no longer does.
    private var order = MinHeap<Key>()
    private var lastID: UInt64 = 0

    /// How many sleeps and timers wait.
    var count: Int { waiting.count }

    mutating func newID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Schedules `action` under `id` for `deadline`; `end` ends a sleep early.
    mutating func add(
        _ id: UInt64, at deadline: ManualClock.Instant, ending end: (@Sendable () -> Void)? = nil,
        _ action: @escaping @Sendable () -> Void
    ) {
        waiting[id] = Waiting(action: action, end: end)
        order.insert(Key(deadline: deadline, id: id))
    }

    /// Removes the earliest of what is due by `deadline`, the first scheduled among equals,
    /// and moves the time to its deadline; with nothing due, moves the time to `deadline`.
    mutating func takeFirst(dueBy deadline: ManualClock.Instant) -> Waiting? {
        while let first = order.min, first.deadline <= deadline {
            _ = order.removeMin()
            // A key whose entry is gone was withdrawn: it has nothing to run.
            guard let due = waiting.removeValue(forKey: first.id) else { continue }
            now = max(now, first.deadline)
            return due
        }
        now = max(now, deadline)
        return nil
    }

    /// Removes what waits under `id`, if it still does, and returns it.
    mutating func take(_ id: UInt64) -> Waiting? {
        guard let withdrawn = waiting.removeValue(forKey: id) else { return nil }
        // Dead keys would otherwise pile up in a clock that is never advanced. Dropping them
        // once they outnumber the live ones costs O(n) for at least n/2 withdrawals since the
        // last time, so O(1) for each.
        if order.count > 2 * waiting.count {
            order.removeAll { waiting[$0.id] == nil }
        }
        return withdrawn
    }
}
