public import Dispatch

extension CatchMixin {
    /// Ensures `body` runs after this promise resolves, whatever the outcome, and passes the
    /// result on unchanged. `body` runs in the isolation of the code that wrote it, otherwise
    /// on `conf.Q.return`.
    ///
    /// ```swift
    /// spinner.start()
    /// fetchFeed().ensure {
    ///     spinner.stop()
    /// }.done(render).catch(report)
    /// ```
    @inlinable
    public func ensure(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () -> Void
    ) -> Promise<T> {
        ensure(
            via: PlacedHandler(body, else: .return),
            madeAt: RecordedSite("ensure", fileID: file, line: line))
    }

    /// Ensures `body` runs on `on`, or inline when `on` is `nil`, after this promise resolves.
    ///
    /// ```swift
    /// fetchFeed().ensure(on: nil) { connections.release() }
    /// ```
    @inlinable
    public func ensure(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<T> {
        ensure(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("ensure", fileID: file, line: line))
    }

    /// Ensures `body` runs through `dispatcher` after this promise resolves.
    ///
    /// ```swift
    /// fetchFeed().ensure(on: .inline) { connections.release() }
    /// ```
    @inlinable
    public func ensure(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<T> {
        ensure(
            via: PlacedHandler(on: dispatcher, body),
            madeAt: RecordedSite("ensure", fileID: file, line: line))
    }

    @inlinable
    func ensure(
        via handler: PlacedHandler<@Sendable () -> Void>, madeAt site: RecordedSite
    ) -> Promise<T> {
        Promise(chain(on: handler.queue, EnsureStep(handler.body), madeAt: site))
    }

    /// Like ``ensure(file:line:_:)``, but waits for the guarantee `body` returns before passing the
    /// result on.
    ///
    /// ```swift
    /// openSession().then(upload).ensureThen {
    ///     closeSession()
    /// }
    /// ```
    @inlinable
    public func ensureThen(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () -> Guarantee<Void>
    ) -> Promise<T> {
        ensureThen(
            via: PlacedHandler(body, else: .return),
            madeAt: RecordedSite("ensureThen", fileID: file, line: line))
    }

    /// Like ``ensure(on:flags:file:line:_:)``, but waits for the guarantee `body` returns.
    ///
    /// ```swift
    /// openSession().then(upload).ensureThen(on: nil) { closeSession() }
    /// ```
    @inlinable
    public func ensureThen(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable () -> Guarantee<Void>
    ) -> Promise<T> {
        ensureThen(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("ensureThen", fileID: file, line: line))
    }

    /// Like ``ensure(on:file:line:_:)``, but waits for the guarantee `body` returns.
    ///
    /// ```swift
    /// openSession().then(upload).ensureThen(on: eventLoopDispatcher) { closeSession() }
    /// ```
    @inlinable
    public func ensureThen(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable () -> Guarantee<Void>
    ) -> Promise<T> {
        ensureThen(
            via: PlacedHandler(on: dispatcher, body),
            madeAt: RecordedSite("ensureThen", fileID: file, line: line))
    }

    @inlinable
    func ensureThen(
        via handler: PlacedHandler<@Sendable () -> Guarantee<Void>>,
        madeAt site: RecordedSite
    ) -> Promise<T> {
        Promise(chain(on: handler.queue, EnsureThenStep(handler.body), madeAt: site))
    }
}

/// The step of `ensure`: the result, passed on once the body has run.
@usableFromInline
struct EnsureStep<Value: Sendable>: ResultStep {
    @usableFromInline
    let body: @Sendable () -> Void

    @inlinable
    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    @inlinable
    func run(_ result: Result<Value, any Error>, settling box: EmptyBox<Result<Value, any Error>>) {
        body()
        box.seal(result)
    }
}

/// The step of `ensureThen`: the result, passed on once the guarantee the body makes resolves.
@usableFromInline
struct EnsureThenStep<Value: Sendable>: ResultStep {
    @usableFromInline
    let body: @Sendable () -> Guarantee<Void>

    @inlinable
    init(_ body: @escaping @Sendable () -> Guarantee<Void>) {
        self.body = body
    }

    @inlinable
    func run(_ result: Result<Value, any Error>, settling box: EmptyBox<Result<Value, any Error>>) {
        body().box.observe { _ in box.seal(result) }
    }
}
