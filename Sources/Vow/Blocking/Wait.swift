import Foundation

extension Thenable {
    /// Blocks the current thread until the thenable resolves, then returns its value or throws
    /// its error.
    ///
    /// On the main thread `wait()` keeps the main run loop turning, so handlers that target the
    /// main queue (the default) still run: a test case or a script's top-level code can wait
    /// safely. Elsewhere it blocks the thread outright.
    ///
    /// When it has to block, it reports ``LogEvent/waitOnMainThread`` on the main thread, since an app's interface stops
    /// responding meanwhile, and inside a block on the main queue, where steps that target the
    /// main queue cannot run until the block returns. Async code, `@MainActor` code included,
    /// should `await` ``Promise/async()`` instead; the compiler refuses `wait()` there.
    ///
    /// ```swift
    /// @Test func loadsUser() throws {
    ///     let user = try fetchUser(id: 1).wait()
    ///     #expect(user.name == "Ada")
    /// }
    /// ```
    @available(*, noasync, message: "wait() blocks the thread; use 'await promise.async()' in async code")
    public func wait() throws -> T {
        try blockUntilResolved(reportingMainThread: true).get()
    }

    /// Blocks until resolved, turning the main run loop if this is the main thread.
    func blockUntilResolved(reportingMainThread: Bool) -> Result<T, any Error> {
        // The handlers this thread is running, or has queued, might be what resolves us.
        Trampoline.suspend { blockWithIdleTrampoline(reportingMainThread: reportingMainThread) }
    }

    private func blockWithIdleTrampoline(reportingMainThread: Bool) -> Result<T, any Error> {
        if let result {
            return result
        }
        // The main thread counts as being on the main queue even outside any block, so the
        // queue marker only tells something new on other threads, such as the one that drains
        // the main queue after `dispatchMain()`.
        let onMainThread = Thread.isMainThread
        if reportingMainThread && (onMainThread || DispatchQueue.getSpecific(key: mainQueueMarker) == true) {
            conf.log(.waitOnMainThread)
        }
        if onMainThread {
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
    /// Blocks as ``Thenable/wait()`` does: on the main thread it keeps the main run loop turning.
    ///
    /// ```swift
    /// let greeting = Guarantee.value("hi").map { $0.uppercased() }.wait()
    /// ```
    @available(*, noasync, message: "wait() blocks the thread; use 'await guarantee.async()' in async code")
    public func wait() -> T {
        // A guarantee's result is always a success, so `get()` cannot throw here.
        try! blockUntilResolved(reportingMainThread: true).get()
    }
}

/// Marks the main queue, so that `wait()` can tell it runs inside a main-queue block on a thread
/// other than the main thread, as after `dispatchMain()`.
private let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
