import Foundation

extension Thenable {
    /// Blocks the current thread until the thenable resolves, then returns its value or throws
    /// its error.
    ///
    /// If the result exists, `wait()` returns it at once. On the main thread it keeps the main
    /// run loop turning while it waits, so handlers that target the main queue (the default)
    /// still run: a test case or a script's top-level code can wait safely. Elsewhere it blocks
    /// the thread outright.
    ///
    /// Called inside a handler, it does not hold back the handlers due after it on this thread:
    /// they go on on another thread, so a wait for something one of them does completes, and
    /// none of them runs on the waiting handler's stack.
    ///
    /// Inside a block on the main queue, no main-queue step can run until the block returns, so
    /// a wait for a chain that needs one never ends; when `wait()` sees the main queue stalled,
    /// it reports ``LogEvent/waitOnMainThread``. Async code, `@MainActor` code included,
    /// should `await` ``Promise/async()`` instead; the compiler refuses `wait()` there.
    ///
    /// ```swift
    /// import Testing
    ///
    /// @Test func loadsUser() throws {
    ///     let user = try fetchUser(id: 1).wait()
    ///     #expect(user.name == "Ada")
    /// }
    /// ```
    ///
    /// A wait that blocks longer than ``Configuration/stuckWaitThreshold`` reports a
    /// ``StuckWait`` once, naming `file` and `line` and describing what the chain waits on.
    ///
    /// - Parameters:
    ///   - file: Where the wait is written, named if it blocks for long (debug builds only;
    ///     see ``CreationSite``). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    @available(*, noasync, message: "wait() blocks the thread; use 'await promise.async()' in async code")
    public func wait(file: StaticString = #fileID, line: UInt = #line) throws -> T {
        try blockUntilResolved(WaitingCall("wait()", file: file, line: line)).get()
    }

    /// Blocks until resolved, turning the main run loop if this is the main thread; `call` is
    /// the waiting call, which a report names if it blocks for long.
    func blockUntilResolved(_ call: WaitingCall) -> Result<T, any Error> {
        if let result {
            return result
        }
        // This thread may be inside handlers, with more of them due on it: the rest of a box's
        // handlers, or those of a box a handler resolved. The result might depend on them, so
        // they go on elsewhere rather than wait behind this thread, and rather than run on its
        // stack, where they could in turn wait for the handler that is blocking here.
        return Trampoline.current.handingOff {
            #if DEBUG
            // What the wait runs meanwhile, the main queue's blocks on the main thread, is no
            // handler of the failure whose handler may be waiting here, and must not see its
            // origin as ``FailureOrigin/current``.
            let outer = Trampoline.deliver(RecordedSite())
            defer { Trampoline.restore(outer) }
            #endif
            return block(call)
        }
    }

    /// Blocks until resolved, turning the main run loop if this is the main thread, and reports
    /// a stalled main queue.
    private func block(_ call: WaitingCall) -> Result<T, any Error> {
        var watch = StuckWaitWatch(call, on: self)
        let onMainThread = Thread.isMainThread
        // The main thread counts as being on the main queue even outside any block, so the
        // queue marker only tells something new on other threads, such as the one that drains
        // the main queue after `dispatchMain()`.
        var probe =
            onMainThread || DispatchQueue.getSpecific(key: mainQueueMarker) == true ? MainQueueProbe() : nil
        if onMainThread {
            // An empty main-queue block wakes the run loop once the result arrives elsewhere.
            pipe { _ in DispatchQueue.main.async {} }
            while isPending {
                if !RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1)) {
                    // The run loop had nothing to wait on; nap rather than spin.
                    Thread.sleep(forTimeInterval: 0.001)
                }
                probe = probe?.reportIfStalled()
                watch = watch?.reportIfDue()
            }
        } else {
            let semaphore = DispatchSemaphore(value: 0)
            pipe { _ in semaphore.signal() }
            // Woken for each report still due, at most every quarter second; once none is left,
            // blocked outright.
            while probe != nil || watch != nil {
                let patience = probe != nil ? MainQueueProbe.patience : watch?.remaining ?? 0
                if semaphore.wait(timeout: .now() + patience) == .success {
                    break
                }
                probe = probe?.reportIfStalled()
                watch = watch?.reportIfDue()
            }
            if probe == nil, watch == nil {
                semaphore.wait()
            }
        }
        guard let result else {
            preconditionFailure("Vow internal error: wait() woke before the result arrived")
        }
        return result
    }
}

/// Finds out whether a `wait()` on the main queue blocks that queue: it sends an empty block
/// there and reports ``LogEvent/waitOnMainThread`` if the block has not run after
/// ``patience`` of waiting.
///
/// On the main thread outside any block, `wait()` turns the run loop, the block runs at once
/// and nothing is reported: a test or a script waits there safely. Inside a main-queue block,
/// no other main-queue block can start until it returns, so the probe never runs, and neither
/// can a step of the awaited chain that targets the main queue: that wait may never end.
private final class MainQueueProbe: Sendable {
    /// How long the main queue may leave the probe waiting before it counts as blocked.
    static let patience = 0.25

    private let started = DispatchTime.now()
    private let hasRun = Locked(false)

    init() {
        DispatchQueue.main.async { [hasRun] in hasRun.withLock { $0 = true } }
    }

    /// Reports a blocked main queue once enough time has passed; returns the probe while it is
    /// still worth checking, `nil` once it has run or reported.
    func reportIfStalled() -> MainQueueProbe? {
        if hasRun.withLock({ $0 }) {
            return nil
        }
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        guard waited >= Self.patience else { return self }
        conf.log(.waitOnMainThread)
        return nil
    }
}

extension Guarantee {
    /// Blocks the current thread until the guarantee resolves and returns its value.
    ///
    /// Blocks as ``Thenable/wait(file:line:)`` does: on the main thread it keeps the main run loop turning.
    ///
    /// ```swift
    /// let greeting = Guarantee.value("hi").map { $0.uppercased() }.wait()
    /// ```
    @available(*, noasync, message: "wait() blocks the thread; use 'await guarantee.async()' in async code")
    public func wait(file: StaticString = #fileID, line: UInt = #line) -> T {
        // A guarantee's result is always a success, so `get()` cannot throw here.
        try! blockUntilResolved(WaitingCall("wait()", file: file, line: line)).get()
    }
}

/// Marks the main queue, so that `wait()` can tell it runs inside a main-queue block on a thread
/// other than the main thread, as after `dispatchMain()`.
private let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
