/// Something Vow noticed that its user should hear about, delivered to ``Configuration/logHandler``.
public enum LogEvent: Sendable {
    /// `wait()` had to block on the main thread or inside a block on the main queue.
    ///
    /// On the main thread Vow keeps the main run loop turning, so steps on the main queue still
    /// run, but the thread serves no other input until the promise resolves. Inside a main-queue
    /// block nothing can: steps that target the main queue wait for that block to return, and if
    /// the promise needs one, it never resolves. Use `await promise.async()` there instead.
    case waitOnMainThread

    /// The last reference to a pending promise's ``Resolver`` went away, so it can never resolve.
    case pendingPromiseDeallocated

    /// The resolve function of a pending ``Guarantee`` was released uncalled.
    case pendingGuaranteeDeallocated

    /// ``CatchMixin/cauterize()`` swallowed this error.
    case cauterized(any Error)
}

extension LogEvent: CustomStringConvertible {
    /// A sentence describing the event.
    public var description: String {
        switch self {
        case .waitOnMainThread:
            "wait() called on the main thread or main queue; main-queue steps cannot run inside a main-queue block."
        case .pendingPromiseDeallocated:
            "A pending promise's resolver was released unresolved: the promise can never resolve."
        case .pendingGuaranteeDeallocated:
            "A pending guarantee's resolve function was released uncalled: it can never resolve."
        case .cauterized(let error):
            "cauterize() swallowed an error: \(error)"
        }
    }
}
