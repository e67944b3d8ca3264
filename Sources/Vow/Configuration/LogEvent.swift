/// Something Vow noticed that its user should hear about, delivered to ``Configuration/logHandler``.
///
/// The four cases are PromiseKit's, so a PromiseKit log handler's `switch` needs one more:
/// ``report(_:)``, through which every event Vow added comes. That case is the last one
/// `LogEvent` gains: a new kind of event is a new type conforming to ``LogReport``, so a
/// `switch` that compiles today compiles against every later version.
///
/// ```swift
/// conf.logHandler = { event in
///     switch event {
///     case .waitOnMainThread: assertionFailure("\(event)")
///     case .pendingPromiseDeallocated, .pendingGuaranteeDeallocated, .cauterized:
///         print("Vow:", event)
///     case .report(let stall as MainQueueStall):
///         print("Vow: the main queue did not run for \(stall.threshold) s")
///     case .report(let report):
///         print("Vow:", report)
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

    /// ``CatchMixin/cauterize(file:line:)`` swallowed this error.
    case cauterized(any Error)

    /// An event Vow added to PromiseKit's: match the report's type to tell them apart, as in
    /// `case .report(let stall as MainQueueStall)`.
    ///
    /// New kinds of report come in minor versions, so a `switch` should end with a plain
    /// `case .report(let report)`, which prints any report as a sentence. The kinds so far:
    /// ``MainQueueStall`` and ``StuckWait``.
    case report(any LogReport)
}

extension LogEvent: CustomStringConvertible {
    /// A sentence describing the event; for a report, the report's own.
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
        case .report(let report):
            report.description
        }
    }

    /// " It was made at App/Loader.swift:42.", or nothing when the site is unknown.
    private func made(at site: CreationSite?) -> String {
        site.map { " It was made at \($0)." } ?? ""
    }
}
