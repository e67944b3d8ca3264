/// Something Vow noticed that its user should hear about, delivered to ``Configuration/logHandler``.
///
/// ```swift
/// conf.logHandler = { event in
///     switch event {
///     case .waitOnMainThread: assertionFailure("\(event)")
///     case .pendingPromiseDeallocated, .pendingGuaranteeDeallocated, .cauterized, .mainQueueStalled:
///         print("Vow:", event)
///     }
/// }
/// ```
public enum LogEvent: Sendable {
    /// `wait()` or `hang` is blocking the main queue from inside one of its blocks.
    ///
    /// No other main-queue block can start until that block returns, so if the awaited chain
    /// needs a step on the main queue (the default queue), it never resolves. Vow reports this
    /// only when it sees the main queue stalled: a probe block it sends there has not run after
    /// a quarter of a second. On the main thread outside any block (a test method, a script's
    /// top-level code) `wait()` turns the run loop, the main queue keeps running, and nothing is
    /// reported. The name is PromiseKit's.
    ///
    /// To fix it, call `wait()` outside main-queue blocks, or `await promise.async()` in
    /// async code.
    case waitOnMainThread

    /// The last reference to a pending promise's ``Resolver`` went away, so it can never resolve.
    ///
    /// In a debug build `createdAt` says where the promise was made; in a release build it is
    /// `nil`. See ``CreationSite``.
    case pendingPromiseDeallocated(createdAt: CreationSite?)

    /// The resolve function of a pending ``Guarantee`` was released uncalled.
    ///
    /// In a debug build `createdAt` says where the guarantee was made; in a release build it is
    /// `nil`. See ``CreationSite``.
    case pendingGuaranteeDeallocated(createdAt: CreationSite?)

    /// ``CatchMixin/cauterize()`` swallowed this error.
    case cauterized(any Error)

    /// A handler bound for the main queue has waited there for over `threshold` seconds
    /// (``Configuration/mainQueueStallThreshold``): the main queue is not being serviced, or
    /// the main thread is blocked.
    ///
    /// A handler written in `@MainActor` code or a script's top-level code always runs on the
    /// main queue, whatever `conf.Q` says, and a nonisolated one without `on:` runs there by
    /// default. So a program must keep the main queue running: end a script with `hang(…)` or
    /// `dispatchMain()`, or turn the main run loop; and give nonisolated work that must not
    /// wait for the main thread a queue of its own, with `on:` or `conf.Q`. Reported once per
    /// process.
    case mainQueueStalled(threshold: Double)
}

extension LogEvent: CustomStringConvertible {
    /// A sentence describing the event.
    public var description: String {
        switch self {
        case .waitOnMainThread:
            """
            wait() is blocking the main queue from inside one of its blocks, so no main-queue step \
            can run until that block returns, and a chain that needs one never resolves. Call \
            wait() outside main-queue blocks, or use 'await promise.async()' in async code.
            """
        case .pendingPromiseDeallocated(let site):
            "A pending promise's resolver was released unresolved: the promise can never resolve.\(made(at: site))"
        case .pendingGuaranteeDeallocated(let site):
            "A pending guarantee's resolve function was released uncalled: it can never resolve.\(made(at: site))"
        case .cauterized(let error):
            "cauterize() swallowed an error: \(error)"
        case .mainQueueStalled(let threshold):
            """
            A handler for the main queue has waited over \(threshold) s: the main queue is not \
            being serviced, or the main thread is blocked. Main-actor and top-level handlers \
            always run there, whatever conf.Q says. Keep the main queue running (end a script \
            with hang(…) or dispatchMain(), or turn the main run loop), and give nonisolated \
            work a queue of its own with on: or conf.Q.
            """
        }
    }

    /// " It was made at App/Loader.swift:42.", or nothing when the site is unknown.
    private func made(at site: CreationSite?) -> String {
        site.map { " It was made at \($0)." } ?? ""
    }
}
