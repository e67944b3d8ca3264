public import Dispatch

/// What `catch` returns: the end of a chain, with one last hook that always runs.
///
/// ```swift
/// spinner.start()
/// load().done(show).catch(report).finally { spinner.stop() }
/// ```
public final class Finalizer: Sendable {
    /// Resolves once the chain has finished; its one handle is this finalizer.
    @usableFromInline
    let caught: EmptyBox<Void>

    /// A finalizer whose chain has finished once `caught` resolves.
    @inlinable
    init(_ caught: EmptyBox<Void>) {
        self.caught = caught
    }

    deinit {
        caught.releaseHandle()
    }

    /// Cancels the chain that ends in this `catch`: the `catch` handler will not run, the
    /// chain counts as finished at once, so `finally` runs, and the promise the `catch` was
    /// attached to is cancelled, with the work behind it, unless something else still waits
    /// for it.
    ///
    /// The cancelled promise rejects with ``PromiseError/cancelled``, which the `catch`
    /// would skip under the default policy anyway. Does nothing once the chain has finished.
    ///
    /// ```swift
    /// final class ProfileScreen {
    ///     private var loading: Finalizer?
    ///
    ///     func appear() {
    ///         loading = api.profile().done(show).catch(report)
    ///     }
    ///
    ///     func disappear() {
    ///         loading?.cancel()
    ///     }
    /// }
    /// ```
    public func cancel() {
        caught.cancel(resolvingWith: ())
    }

    /// Runs `body` once the chain has finished, after the `catch` handler if there was an error.
    ///
    /// `body` runs in the isolation of the code that wrote it: on the main actor in
    /// `@MainActor` code, on the actor in an actor's method, otherwise on `conf.Q.return`.
    ///
    /// ```swift
    /// load().done(show).catch(report).finally { spinner.stop() }
    /// ```
    ///
    /// - Returns: A guarantee that resolves once `body` has run, for a script or a test to
    ///   `hang` on or `wait` for; PromiseKit's `finally` returns nothing, so it is discardable.
    @inlinable
    @discardableResult
    public func finally(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () -> Void
    ) -> Guarantee<Void> {
        finally(
            via: PlacedHandler(body, else: .return),
            madeAt: RecordedSite("finally", fileID: file, line: line))
    }

    /// Runs `body` on `on`, or inline when `on` is `nil`, once the chain has finished.
    ///
    /// ```swift
    /// upload(photo).catch(report).finally(on: nil) { connection.close() }
    /// ```
    ///
    /// - Parameters:
    ///   - on: The queue `body` runs on; `nil` runs it inline.
    ///   - flags: Work-item flags for the dispatch onto `on`.
    ///   - file: Where the call is written, recorded in debug builds for the chain's description
    ///     (see ``CreationSite``). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    ///   - body: The last step of the chain.
    @inlinable
    @discardableResult
    public func finally(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Guarantee<Void> {
        finally(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("finally", fileID: file, line: line))
    }

    /// Runs `body` through `dispatcher` once the chain has finished.
    ///
    /// ```swift
    /// upload(photo).catch(report).finally(on: .mainActor) { print("upload finished") }
    /// ```
    @inlinable
    @discardableResult
    public func finally(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Guarantee<Void> {
        finally(
            via: PlacedHandler(on: dispatcher, body),
            madeAt: RecordedSite("finally", fileID: file, line: line))
    }

    @inlinable
    func finally(
        via handler: PlacedHandler<@Sendable () -> Void>, madeAt site: RecordedSite
    ) -> Guarantee<Void> {
        finished.done(via: handler.map { body in { @Sendable _ in body() } }, madeAt: site)
    }

    /// A guarantee that resolves once the chain has finished: after the `catch` handler if
    /// there was an error, at once on success.
    ///
    /// ```swift
    /// let logged = upload(photo).catch { error in log(error) }
    /// await logged.finished.async()
    /// ```
    @inlinable
    public var finished: Guarantee<Void> {
        Guarantee<Void>(sharing: caught)
    }

    /// Blocks the current thread until the chain has finished, as ``Thenable/wait(file:line:)`` does.
    ///
    /// ```swift
    /// import Testing
    ///
    /// @MainActor final class ErrorLog {
    ///     var entries: [String] = []
    /// }
    ///
    /// @Test @MainActor func reportsFailures() {
    ///     let errors = ErrorLog()
    ///     upload(brokenReport).catch { error in errors.entries.append("\(error)") }.wait()
    ///     #expect(errors.entries.count == 1)
    /// }
    /// ```
    @available(
        *, noasync, message: "wait() blocks the thread; use 'await finalizer.finished.async()' in async code"
    )
    public func wait(file: StaticString = #fileID, line: UInt = #line) {
        finished.wait(file: file, line: line)
    }
}
