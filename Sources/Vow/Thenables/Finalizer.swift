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
    /// - Returns: A guarantee that resolves once `body` has run, for a script or a test to
    ///   `hang` on or `wait` for; PromiseKit's `finally` returns nothing, so it is discardable.
    @inlinable
    @discardableResult
    public func finally(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Void
    ) -> Guarantee<Void> {
        finished.done(on: on, flags: flags) { body() }
    }

    /// A guarantee that resolves once the chain has finished: after the `catch` handler if
    /// there was an error, at once on success.
    ///
    /// ```swift
    /// let logged = upload(report).catch { error in log(error) }
    /// await logged.finished.async()
    /// ```
    @inlinable
    public var finished: Guarantee<Void> {
        Guarantee<Void>(caught)
    }

    /// Blocks the current thread until the chain has finished, as ``Thenable/wait()`` does.
    ///
    /// ```swift
    /// @Test func reportsFailures() {
    ///     upload(brokenReport).catch { error in failures.append(error) }.wait()
    ///     #expect(failures.count == 1)
    /// }
    /// ```
    @available(
        *, noasync, message: "wait() blocks the thread; use 'await finalizer.finished.async()' in async code"
    )
    public func wait() {
        finished.wait()
    }
}
