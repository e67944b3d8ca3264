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
        policy: CatchPolicy = conf.catchPolicy, _ body: @escaping @MainActor (any Error) -> Void
    ) -> Finalizer {
        shared.catch(via: PlacedHandler(mainActor: body), policy: policy)
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
        _ body: @escaping @MainActor (any Error) throws -> MainActorPromise<T>
    ) -> MainActorPromise<T> {
        MainActorPromise(
            shared.recover(
                via: PlacedHandler(mainActor: body).map { body in { @Sendable in try body($0).shared } },
                policy: policy)
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
        _ body: @escaping @MainActor (any Error) throws -> U
    ) -> MainActorPromise<T> where U.T == T {
        MainActorPromise(
            shared.recover(
                via: PlacedHandler(mainActor: body).map { body in
                    { @Sendable in try body($0).map(on: nil) { MainActorValue($0) } }
                },
                policy: policy)
        )
    }

    /// Replaces every error with a main-actor guarantee, so that the chain cannot fail.
    ///
    /// ```swift
    /// fetchNote().recover { _ in .value(Note(text: "Untitled")) }
    /// ```
    @discardableResult
    @inlinable
    public func recover(_ body: @escaping @MainActor (any Error) -> MainActorGuarantee<T>)
        -> MainActorGuarantee<T>
    {
        MainActorGuarantee(
            shared.recover(
                via: PlacedHandler(mainActor: body).map { body in { @Sendable in body($0).shared } })
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
    public func recover(_ body: @escaping @MainActor (any Error) -> Guarantee<T>) -> MainActorGuarantee<T>
    where T: Sendable {
        MainActorGuarantee(
            shared.recover(
                via: PlacedHandler(mainActor: body).map { body in
                    { @Sendable in body($0).map(on: nil) { MainActorValue($0) } }
                })
        )
    }

    /// Runs `body` however the promise settles, and passes the result on.
    ///
    /// ```swift
    /// spinner.start()
    /// fetchNote().ensure { spinner.stop() }.done { textView.note = $0 }.catch { report($0) }
    /// ```
    @inlinable
    public func ensure(_ body: @escaping @MainActor () -> Void) -> MainActorPromise<T> {
        MainActorPromise(shared.ensure(via: PlacedHandler(mainActor: body)))
    }

    /// Like ``ensure(_:)``, but waits for the main-actor guarantee `body` returns before passing
    /// the result on.
    ///
    /// ```swift
    /// fetchNote().ensureThen { confirm(deleting: Note(text: "draft")).asVoid() }
    /// ```
    @inlinable
    public func ensureThen(_ body: @escaping @MainActor () -> MainActorGuarantee<Void>) -> MainActorPromise<T>
    {
        ensureThen { () -> Guarantee<Void> in Guarantee(body()) }
    }

    /// Like ``ensure(_:)``, but waits for the shared guarantee `body` returns, such as closing a
    /// session, before passing the result on.
    ///
    /// ```swift
    /// fetchNote().ensureThen { after(seconds: 0.1) }
    /// ```
    @inlinable
    public func ensureThen(_ body: @escaping @MainActor () -> Guarantee<Void>) -> MainActorPromise<T> {
        MainActorPromise(shared.ensureThen(via: PlacedHandler(mainActor: body)))
    }
}
