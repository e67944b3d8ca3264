import Foundation

extension Thenable {
    /// Blocks the current thread until the thenable resolves, then returns its value or throws
    /// its error.
    ///
    /// On the main thread `wait()` keeps the main run loop turning, so handlers that target the
    /// main queue (the default) still run: a test case or a script's top-level code can wait
    /// safely. It reports ``LogEvent/waitOnMainThread`` there, since an app's interface stops
    /// responding meanwhile. Elsewhere it blocks the thread outright.
    ///
    /// ```swift
    /// @Test func loadsUser() throws {
    ///     let user = try fetchUser(id: 1).wait()
    ///     #expect(user.name == "Ada")
    /// }
    /// ```
    public func wait() throws -> T {
        try blockUntilResolved(reportingMainThread: true).get()
    }

    /// Blocks until resolved, turning the main run loop if this is the main thread.
    func blockUntilResolved(reportingMainThread: Bool) -> Result<T, any Error> {
        // Work this thread deferred while resolving inline chains might be what resolves us.
        Trampoline.drainCurrentThread()
        if let result {
            return result
        }
        if Thread.isMainThread {
            if reportingMainThread {
                conf.log(.waitOnMainThread)
            }
            // An empty main-queue block wakes the run loop once the result arrives elsewhere.
            pipe { _ in DispatchQueue.main.async {} }
            while isPending {
                if !RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1)) {
                    // The run loop had nothing to wait on; nap rather than spin.
                    Thread.sleep(forTimeInterval: 0.001)
                }
            }
        } else {
            let semaphore = DispatchSemaphore(value: 0)
            pipe { _ in semaphore.signal() }
            semaphore.wait()
        }
        guard let result else {
            preconditionFailure("Vow internal error: wait() woke before the result arrived")
        }
        return result
    }
}

extension Guarantee {
    /// Blocks the current thread until the guarantee resolves and returns its value.
    ///
    /// Safe on the main thread, as ``Thenable/wait()`` is.
    ///
    /// ```swift
    /// let greeting = Guarantee.value("hi").map { $0.uppercased() }.wait()
    /// ```
    public func wait() -> T {
        // A guarantee's result is always a success, so `get()` cannot throw here.
        try! blockUntilResolved(reportingMainThread: true).get()
    }
}
