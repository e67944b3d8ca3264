/// A clock whose time moves only when a test moves it, so that a schedule of delays runs
/// instantly and in the same order every time.
///
/// Give it to anything in Vow that waits: ``after(_:clock:)``, ``Thenable/delay(_:clock:)``,
/// ``Thenable/timeout(_:clock:)`` and ``retry(attempts:delay:clock:if:_:)-6g9g9``. Nothing that
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
        state.withLock { $0.waiting.count }
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
            due()
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
                    schedule.add(id, at: deadline) { continuation.resume() }
                    schedule.cancellations[id] = { continuation.resume(throwing: CancellationError()) }
                    return nil
                }
                outcome.map { continuation.resume(with: $0) }
            }
        } onCancel: {
            // The sleep's action is released after the lock is left, as the timers' are.
            let withdrawn = state.withLock { $0.cancel(id) }
            withdrawn?.end()
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
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
private struct Schedule: Sendable {
    /// Something that waits for a deadline, and what to run when the clock reaches it.
    struct Waiting: Sendable {
        let id: UInt64
        let deadline: ManualClock.Instant
        let action: @Sendable () -> Void
    }

    var now = ManualClock.Instant(offset: .zero)
    var waiting: [Waiting] = []
    /// How to end each waiting sleep early, by its id; a timer has none.
    var cancellations: [UInt64: @Sendable () -> Void] = [:]
    private var lastID: UInt64 = 0

    mutating func newID() -> UInt64 {
        lastID += 1
        return lastID
    }

    mutating func add(
        _ id: UInt64, at deadline: ManualClock.Instant, _ action: @escaping @Sendable () -> Void
    ) {
        waiting.append(Waiting(id: id, deadline: deadline, action: action))
    }

    /// Removes the earliest of what is due by `deadline`, the first scheduled among equals,
    /// and moves the time to its deadline; with nothing due, moves the time to `deadline`.
    mutating func takeFirst(dueBy deadline: ManualClock.Instant) -> (@Sendable () -> Void)? {
        // `min(by:)` keeps the first of equal elements, so equal deadlines run in order.
        guard let first = waiting.indices.min(by: { waiting[$0].deadline < waiting[$1].deadline }),
            waiting[first].deadline <= deadline
        else {
            now = max(now, deadline)
            return nil
        }
        let due = waiting.remove(at: first)
        cancellations[due.id] = nil
        now = max(now, due.deadline)
        return due.action
    }

    /// Removes what waits under `id`, if it still does, and returns its action.
    mutating func take(_ id: UInt64) -> (@Sendable () -> Void)? {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        cancellations[id] = nil
        return waiting.remove(at: index).action
    }

    /// Removes the sleep waiting under `id`, if it still does, and returns how to end it, and
    /// its action, for the caller to release outside the lock.
    mutating func cancel(_ id: UInt64) -> (end: @Sendable () -> Void, action: @Sendable () -> Void)? {
        guard let end = cancellations[id], let action = take(id) else { return nil }
        return (end, action)
    }
}
