public import Dispatch

/// The error-handling operators of a thenable that can fail: `catch`, `recover`, `ensure`,
/// `ensureThen` and `cauterize`. ``Promise`` conforms; ``Guarantee`` cannot fail and does not.
///
/// ```swift
/// fetchFeed().done { feed in
///     print(feed.count, "stories")
/// }.catch { error in
///     print("could not load the feed:", error)
/// }
/// ```
public protocol CatchMixin: Thenable {}

extension CatchMixin {
    /// Handles the error that ends a chain.
    ///
    /// Errors the `policy` excludes skip `body`: by default cancellations do, so that a
    /// cancelled operation does not show an error to the user. `body` runs in the isolation of
    /// the code that wrote it: on the main actor in `@MainActor` code, on the actor in an
    /// actor's method, otherwise on `conf.Q.return`.
    ///
    /// ```swift
    /// fetchFeed().done { feed in
    ///     render(feed)
    /// }.catch { error in
    ///     showAlert(error)
    /// }.finally {
    ///     spinner.stop()
    /// }
    /// ```
    ///
    /// - Returns: A ``Finalizer`` whose `finally` runs after `body`, or at once when there is no
    ///   error for `body` to handle: on success, or when `policy` skips the error.
    @inlinable
    @discardableResult
    public func `catch`(
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) -> Void
    ) -> Finalizer {
        self.catch(
            via: PlacedHandler(body, else: .return), policy: policy,
            madeAt: RecordedSite("catch", fileID: file, line: line))
    }

    /// Handles the error that ends a chain on `on`, or inline when `on` is `nil`.
    ///
    /// `body` is nonisolated: it may not touch the state of the actor that wrote it.
    ///
    /// ```swift
    /// upload(photo).catch(on: logQueue) { error in
    ///     log.write("upload failed: \(error)")
    /// }
    /// ```
    @inlinable
    @discardableResult
    public func `catch`(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Finalizer {
        self.catch(
            via: PlacedHandler(on: on, flags: flags, body), policy: policy,
            madeAt: RecordedSite("catch", fileID: file, line: line))
    }

    /// Handles the error that ends a chain through `dispatcher`.
    ///
    /// `body` is nonisolated, as with a queue.
    ///
    /// ```swift
    /// upload(photo).catch(on: .mainActor) { error in
    ///     print("upload failed: \(error)")
    /// }
    /// ```
    @inlinable
    @discardableResult
    public func `catch`(
        on dispatcher: some Dispatcher,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Finalizer {
        self.catch(
            via: PlacedHandler(on: dispatcher, body), policy: policy,
            madeAt: RecordedSite("catch", fileID: file, line: line))
    }

    @inlinable
    func `catch`(
        via handler: PlacedHandler<@Sendable (any Error) -> Void>, policy: CatchPolicy,
        madeAt site: RecordedSite
    )
        -> Finalizer
    {
        Finalizer(chain(on: handler.queue, CatchStep<T>(handler.body, policy: policy), madeAt: site))
    }

    /// Ends a chain whose errors need no handling, reporting any that arrives as
    /// ``LogEvent/cauterized(_:)`` through ``Configuration/logHandler``.
    ///
    /// ```swift
    /// analytics.send(event).cauterize()
    /// ```
    @inlinable
    @discardableResult
    public func cauterize(file: StaticString = #fileID, line: UInt = #line) -> Finalizer {
        self.catch(
            via: PlacedHandler(on: nil) { @Sendable in conf.log(.cauterized($0)) }, policy: conf.catchPolicy,
            madeAt: RecordedSite("cauterize", fileID: file, line: line))
    }
}

/// The step of `catch`, which ends a chain: resolved once the body has handled an error the
/// policy hands it, at once for anything else.
@usableFromInline
struct CatchStep<Value: Sendable>: GuaranteeStep {
    @usableFromInline
    let body: @Sendable (any Error) -> Void
    @usableFromInline
    let policy: CatchPolicy

    @inlinable
    init(_ body: @escaping @Sendable (any Error) -> Void, policy: CatchPolicy) {
        self.body = body
        self.policy = policy
    }

    @inlinable
    func route(_ input: Result<Value, any Error>) -> StepRoute<any Error, Void> {
        guard case .failure(let error) = input, policy.handles(error) else { return .settle(()) }
        return .run(error)
    }

    @inlinable
    func run(_ error: any Error, settling box: EmptyBox<Void>) {
        body(error)
        box.seal(())
    }
}
