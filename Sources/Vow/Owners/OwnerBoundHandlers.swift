// Handlers bound to an owner: an object, such as a view controller or a service, that the
// handler gets as its first argument, strongly, while the chain holds it only weakly. No
// `[weak self]`, no `guard let self`: once the owner is gone, its handlers are skipped and
// their steps cancelled, so the chains it started end with it. AsyncNinja calls such an owner
// an execution context.
//
// The handlers run in the isolation of the code that wrote them, as every handler does: in a
// `@MainActor` class, on the main actor. An actor owner has forms of its own, in
// ActorBoundHandlers.swift, whose handlers run on the owner.

extension Thenable {
    /// Chains asynchronous work for `owner`: when this thenable fulfils, and if `owner` still
    /// exists, `body` gets it and the value and starts the next step.
    ///
    /// The chain holds `owner` weakly, so a pending chain never keeps it alive. Once `owner` is
    /// gone, `body` is skipped and the returned promise is cancelled, which rejects it with
    /// ``PromiseError/cancelled`` and skips every handler after it but `ensure` and `finally`.
    ///
    /// ```swift
    /// @MainActor final class ProfileViewController {
    ///     let api = API()
    ///     private(set) var avatar: Data?
    ///     private(set) var failure: (any Error)?
    ///
    ///     func load(id: Int) {
    ///         fetchUser(id: id).then(owner: self) { controller, user in
    ///             controller.api.fetchAvatar(for: user)
    ///         }.done(owner: self) { controller, avatar in
    ///             controller.avatar = avatar
    ///         }.catch(owner: self) { controller, error in
    ///             controller.failure = error
    ///         }
    ///     }
    /// }
    /// ```
    @inlinable
    public func then<Owner: AnyObject & Sendable, U: Thenable>(
        owner: Owner,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (Owner, T) throws -> U
    ) -> Promise<U.T> {
        then(
            via: PlacedHandler(body, else: .map), owner: owner,
            madeAt: RecordedSite("then", fileID: file, line: line))
    }

    /// Transforms the fulfilled value for `owner`, if it still exists; see
    /// `then(owner:_:)` for what happens once it is gone.
    ///
    /// ```swift incomplete
    /// fetchUser(id: id).map(owner: self) { controller, user in
    ///     controller.formatter.string(for: user)
    /// }
    /// ```
    @inlinable
    public func map<Owner: AnyObject & Sendable, U: Sendable>(
        owner: Owner,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (Owner, T) throws -> U
    ) -> Promise<U> {
        map(
            via: PlacedHandler(body, else: .map), owner: owner,
            madeAt: RecordedSite("map", fileID: file, line: line))
    }

    /// Handles the fulfilled value for `owner`, if it still exists; see
    /// `then(owner:_:)` for what happens once it is gone.
    ///
    /// ```swift incomplete
    /// fetchUser(id: id).done(owner: self) { controller, user in
    ///     controller.nameLabel.text = user.name
    /// }.catch(owner: self) { controller, error in
    ///     controller.show(error)
    /// }
    /// ```
    @inlinable
    public func done<Owner: AnyObject & Sendable>(
        owner: Owner,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (Owner, T) throws -> Void
    ) -> Promise<Void> {
        done(
            via: PlacedHandler(body, else: .return), owner: owner,
            madeAt: RecordedSite("done", fileID: file, line: line))
    }

    /// Recovers from the errors `policy` covers for `owner`, if it still exists; see
    /// `then(owner:_:)` for what happens once it is gone.
    ///
    /// ```swift incomplete
    /// api.fetchFeed().recover(owner: self) { controller, error in
    ///     controller.cache.lastFeed()
    /// }
    /// ```
    @inlinable
    public func recover<Owner: AnyObject & Sendable, U: Thenable>(
        owner: Owner,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body:
            @escaping @isolated(any) @Sendable (Owner, any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        recover(
            via: PlacedHandler(body, else: .map), owner: owner, policy: policy,
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Runs `body` for `owner` however the thenable settles, and passes the result on, if
    /// `owner` still exists; once it is gone, `body` is skipped and the returned promise is
    /// cancelled.
    ///
    /// ```swift incomplete
    /// api.fetchFeed().ensure(owner: self) { controller in
    ///     controller.spinner.stopAnimating()
    /// }
    /// ```
    @inlinable
    public func ensure<Owner: AnyObject & Sendable>(
        owner: Owner,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (Owner) -> Void
    ) -> Promise<T> {
        ensure(
            via: PlacedHandler(body, else: .return), owner: owner,
            madeAt: RecordedSite("ensure", fileID: file, line: line))
    }
}

extension CatchMixin {
    /// Handles the errors `policy` covers for `owner`, if it still exists, ending the chain.
    ///
    /// Once `owner` is gone, `body` is skipped: the chain ends all the same.
    ///
    /// ```swift incomplete
    /// fetchUser(id: id).done(owner: self) { controller, user in
    ///     controller.show(user)
    /// }.catch(owner: self) { controller, error in
    ///     controller.show(error)
    /// }
    /// ```
    @inlinable
    @discardableResult
    public func `catch`<Owner: AnyObject & Sendable>(
        owner: Owner,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (Owner, any Error) -> Void
    ) -> Finalizer {
        self.catch(
            via: PlacedHandler(body, else: .return), owner: owner, policy: policy,
            madeAt: RecordedSite("catch", fileID: file, line: line))
    }
}
