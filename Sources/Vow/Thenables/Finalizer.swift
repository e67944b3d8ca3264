public import Dispatch

/// What `catch` returns: the end of a chain, with one last hook that always runs.
///
/// ```swift
/// spinner.start()
/// load().done(show).catch(report).finally { spinner.stop() }
/// ```
public final class Finalizer: Sendable {
    @usableFromInline
    let caught = EmptyBox<Void>()

    @inlinable
    init() {}

    /// Marks the chain finished, so `finally` handlers run.
    @inlinable
    func release() {
        caught.seal(())
    }

    /// Runs `body` once the chain has finished, after the `catch` handler if there was an error.
    ///
    /// - Parameters:
    ///   - on: The queue `body` runs on; `nil` runs it inline. Defaults to `conf.Q.return`.
    ///   - flags: Work-item flags for the dispatch onto `on`.
    ///   - body: The last step of the chain.
    @inlinable
    public func finally(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Void
    ) {
        Guarantee<Void>(caught).done(on: on, flags: flags) { body() }
    }
}
