// The error operators of a main-actor promise: errors are `Sendable`, so only the handlers are
// the main actor's here, and the value passes through untouched.

@MainActor
extension MainActorPromise {
    /// Handles the error that ends a chain.
    ///
    /// ```swift
    /// fetchNote().done { textView.note = $0 }.catch { report($0) }
    /// ```
    @discardableResult
    @inlinable
    public func `catch`(
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (any Error) -> Void
    ) -> Finalizer {
        let handler: PlacedHandler<@Sendable (any Error) -> Void> = PlacedHandler(mainActor: body)
        return Finalizer(
            shared.chain(
                on: handler.queue, CatchStep<MainActorValue<T>>(handler.body, policy: policy),
                madeAt: RecordedSite("catch", fileID: file, line: line)))
    }

    /// Replaces an error that `policy` covers with the result of another main-actor promise;
    /// `body` may rethrow.
    ///
    /// ```swift
    /// fetchNote().recover { error in
    ///     guard error is StoreError else { throw error }
    ///     return .value(Note(text: "Untitled"))
    /// }
    /// ```
    @inlinable
    public func recover(
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (any Error) throws -> MainActorPromise<T>
    ) -> MainActorPromise<T> {
        let handler: PlacedHandler<@Sendable (any Error) throws -> Promise<MainActorValue<T>>> =
            PlacedHandler(mainActor: body).map { body in { @Sendable in try body($0).shared } }
        return MainActorPromise(
            Promise(
                shared.chain(
                    on: handler.queue, RecoverStep(handler.body, policy: policy),
                    madeAt: RecordedSite("recover", fileID: file, line: line)))
        )
    }

    /// Replaces an error that `policy` covers with the result of shared work, such as a second
    /// request, whose `Sendable` value comes back to the main actor; `body` may rethrow.
    ///
    /// ```swift
    /// MainActorPromise(fetchMarkdown(id: 1)).recover { _ in fetchMarkdown(id: 2) }
    /// ```
    @inlinable
    public func recover<U: Thenable>(
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (any Error) throws -> U
    ) -> MainActorPromise<T> where U.T == T {
        let handler: PlacedHandler<@Sendable (any Error) throws -> Promise<MainActorValue<T>>> =
            PlacedHandler(mainActor: body).map { body in
                // The thenable `body` returns, brought to the main actor in a box of its own.
                { @Sendable in
                    try body($0).map(
                        via: PlacedHandler(on: nil) { @Sendable in MainActorValue($0) },
                        madeAt: RecordedSite("recover", fileID: file, line: line))
                }
            }
        return MainActorPromise(
            Promise(
                shared.chain(
                    on: handler.queue, RecoverStep(handler.body, policy: policy),
                    madeAt: RecordedSite("recover", fileID: file, line: line)))
        )
    }

    /// Replaces every error with a main-actor guarantee, so that the chain cannot fail.
    ///
    /// ```swift
    /// fetchNote().recover { _ in .value(Note(text: "Untitled")) }
    /// ```
    @discardableResult
    @inlinable
    public func recover(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (any Error) -> MainActorGuarantee<T>
    ) -> MainActorGuarantee<T> {
        let handler: PlacedHandler<@Sendable (any Error) -> Guarantee<MainActorValue<T>>> =
            PlacedHandler(mainActor: body).map { body in
                { @Sendable in body($0).shared }
            }
        return MainActorGuarantee(
            Guarantee(
                shared.chain(
                    on: handler.queue, RecoverAllStep(handler.body),
                    madeAt: RecordedSite("recover", fileID: file, line: line)))
        )
    }

    /// Replaces every error with a shared guarantee's `Sendable` value, so that the chain
    /// cannot fail.
    ///
    /// ```swift
    /// MainActorPromise(fetchMarkdown(id: 1)).recover { _ in Guarantee.value("# Untitled") }
    /// ```
    @discardableResult
    @inlinable
    public func recover(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (any Error) -> Guarantee<T>
    ) -> MainActorGuarantee<T> where T: Sendable {
        let handler: PlacedHandler<@Sendable (any Error) -> Guarantee<MainActorValue<T>>> =
            PlacedHandler(mainActor: body).map { body in
                // The guarantee `body` returns, brought to the main actor in a box of its own.
                { @Sendable in
                    body($0).map(
                        via: PlacedHandler(on: nil) { @Sendable in MainActorValue($0) },
                        madeAt: RecordedSite("recover", fileID: file, line: line))
                }
            }
        return MainActorGuarantee(
            Guarantee(
                shared.chain(
                    on: handler.queue, RecoverAllStep(handler.body),
                    madeAt: RecordedSite("recover", fileID: file, line: line)))
        )
    }

    /// Runs `body` however the promise settles, and passes the result on.
    ///
    /// ```swift
    /// spinner.start()
    /// fetchNote().ensure { spinner.stop() }.done { textView.note = $0 }.catch { report($0) }
    /// ```
    @inlinable
    public func ensure(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor () -> Void
    ) -> MainActorPromise<T> {
        let handler: PlacedHandler<@Sendable () -> Void> = PlacedHandler(mainActor: body)
        return MainActorPromise(
            Promise(
                shared.chain(
                    on: handler.queue, EnsureStep(handler.body),
                    madeAt: RecordedSite("ensure", fileID: file, line: line)))
        )
    }

    /// Like ``ensure(file:line:_:)``, but waits for the main-actor guarantee `body` returns
    /// before passing the result on.
    ///
    /// ```swift
    /// fetchNote().ensureThen { confirm(deleting: Note(text: "draft")).asVoid() }
    /// ```
    @inlinable
    public func ensureThen(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor () -> MainActorGuarantee<Void>
    ) -> MainActorPromise<T> {
        // The shared guarantee of the one `body` returns, in a box of its own.
        ensureThen(madeAt: RecordedSite("ensureThen", fileID: file, line: line)) { () -> Guarantee<Void> in
            Guarantee(body(), madeAt: RecordedSite("ensureThen", fileID: file, line: line))
        }
    }

    /// Like ``ensure(file:line:_:)``, but waits for the shared guarantee `body` returns, such
    /// as closing a session, before passing the result on.
    ///
    /// ```swift
    /// fetchNote().ensureThen { after(seconds: 0.1) }
    /// ```
    @inlinable
    public func ensureThen(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor () -> Guarantee<Void>
    ) -> MainActorPromise<T> {
        ensureThen(madeAt: RecordedSite("ensureThen", fileID: file, line: line), body)
    }

    /// `ensureThen` with a shared guarantee, in a box that records `site`.
    @inlinable
    func ensureThen(
        madeAt site: RecordedSite, _ body: @escaping @MainActor () -> Guarantee<Void>
    ) -> MainActorPromise<T> {
        let handler: PlacedHandler<@Sendable () -> Guarantee<Void>> = PlacedHandler(mainActor: body)
        return MainActorPromise(
            Promise(shared.chain(on: handler.queue, EnsureThenStep(handler.body), madeAt: site)))
    }
}
