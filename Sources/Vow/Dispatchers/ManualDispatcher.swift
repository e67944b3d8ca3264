/// Keeps every handler dispatched to it until a test runs it: handlers run when, where and in
/// the order the test says, on the test's own thread.
///
/// ```swift
/// import Testing
///
/// let dispatcher = ManualDispatcher()
/// let doubled = Promise.value(21).map(on: dispatcher) { $0 * 2 }
/// #expect(doubled.isPending)
/// #expect(dispatcher.pending == 1)
/// dispatcher.runAll()
/// #expect(doubled.value == 42)
/// ```
///
/// Together with ``ManualClock`` it makes a test of asynchronous code run in one thread,
/// deterministically, without waiting.
public final class ManualDispatcher: Dispatcher {
    private let queue = Locked([@Sendable () -> Void]())

    /// An empty dispatcher.
    ///
    /// ```swift
    /// let dispatcher = ManualDispatcher()
    /// ```
    public init() {}

    /// Keeps `work` until ``runNext()`` or ``runAll()`` runs it.
    public func dispatch(_ work: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(work) }
    }

    /// How much work waits to be run.
    ///
    /// ```swift
    /// precondition(dispatcher.pending == 0, "a handler ran before the test let it")
    /// ```
    public var pending: Int {
        queue.withLock { $0.count }
    }

    /// Runs the work dispatched first, if there is any, on this thread.
    ///
    /// ```swift
    /// dispatcher.runNext()  // Runs the first handler only.
    /// ```
    ///
    /// - Returns: Whether there was work to run.
    @discardableResult
    public func runNext() -> Bool {
        // Taken out before it runs: the work may dispatch more, or run this dispatcher itself.
        guard let work = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
        work()
        return true
    }

    /// Runs work, in the order it was dispatched, until none is left, including the work that
    /// running it dispatches.
    ///
    /// ```swift
    /// let total = Promise.value(1).map(on: dispatcher) { $0 + 1 }.map(on: dispatcher) { $0 * 10 }
    /// dispatcher.runAll()  // Runs both steps: the second was dispatched by the first.
    /// assert(total.value == 20)
    /// ```
    ///
    /// - Returns: How many pieces of work ran.
    @discardableResult
    public func runAll() -> Int {
        var count = 0
        while runNext() { count += 1 }
        return count
    }
}
