// Handlers bound to an actor: the handler runs on the actor, which it gets as an `isolated`
// first argument, so it reads and writes the actor's state without `await`. The chain holds the
// actor weakly, as OwnerBoundHandlers.swift describes for any owner: once the actor is gone,
// its handlers are skipped and their steps cancelled.
//
// In an actor's method, these are the forms that touch the actor: a closure that used `self`
// instead would be isolated to the actor too, but would keep it alive for as long as the chain
// is pending, which is what an owner-bound handler is for avoiding.

extension Thenable {
    /// Chains asynchronous work on `owner`: when this thenable fulfils, and if `owner` still
    /// exists, `body` runs on it and starts the next step.
    ///
    /// Once `owner` is gone, `body` is skipped and the returned promise is cancelled.
    ///
    /// ```swift
    /// actor Directory {
    ///     var people: [String: Person] = [:]
    ///
    ///     func person(id: String) -> Promise<Person> {
    ///         api.fetchPerson(id).then(owner: self) { directory, person in
    ///             directory.people[id] = person
    ///             return api.fetchManager(of: person).map { _ in person }
    ///         }
    ///     }
    /// }
    /// ```
    @inlinable
    public func then<Owner: Actor, U: Thenable>(
        owner: Owner,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (isolated Owner, T) throws -> U
    ) -> Promise<U.T> {
        then(
            via: PlacedHandler(owner: owner, body), owner: owner,
            madeAt: RecordedSite("then", fileID: file, line: line))
    }

    /// Transforms the fulfilled value on `owner`, if it still exists; once it is gone, `body`
    /// is skipped and the returned promise is cancelled.
    ///
    /// ```swift incomplete
    /// api.fetchPerson(id).map(owner: self) { directory, person in
    ///     directory.people[id] = person
    ///     return person.name
    /// }
    /// ```
    @inlinable
    public func map<Owner: Actor, U: Sendable>(
        owner: Owner,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (isolated Owner, T) throws -> U
    ) -> Promise<U> {
        map(
            via: PlacedHandler(owner: owner, body), owner: owner,
            madeAt: RecordedSite("map", fileID: file, line: line))
    }

    /// Handles the fulfilled value on `owner`, if it still exists; once it is gone, `body` is
    /// skipped and the returned promise is cancelled.
    ///
    /// ```swift incomplete
    /// api.fetchPerson(id).done(owner: self) { directory, person in
    ///     directory.people[id] = person
    /// }
    /// ```
    @inlinable
    public func done<Owner: Actor>(
        owner: Owner,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (isolated Owner, T) throws -> Void
    ) -> Promise<Void> {
        done(
            via: PlacedHandler(owner: owner, body), owner: owner,
            madeAt: RecordedSite("done", fileID: file, line: line))
    }

    /// Recovers from the errors `policy` covers on `owner`, if it still exists; once it is
    /// gone, `body` is skipped and the returned promise is cancelled.
    ///
    /// ```swift incomplete
    /// api.fetchPerson(id).recover(owner: self) { directory, error in
    ///     guard let known = directory.people[id] else { throw error }
    ///     return Promise.value(known)
    /// }
    /// ```
    @inlinable
    public func recover<Owner: Actor, U: Thenable>(
        owner: Owner,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (isolated Owner, any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        recover(
            via: PlacedHandler(owner: owner, body), owner: owner, policy: policy,
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Runs `body` on `owner` however the thenable settles, and passes the result on, if
    /// `owner` still exists; once it is gone, `body` is skipped and the returned promise is
    /// cancelled.
    ///
    /// ```swift incomplete
    /// api.fetchPerson(id).ensure(owner: self) { directory in
    ///     directory.requestsInFlight -= 1
    /// }
    /// ```
    @inlinable
    public func ensure<Owner: Actor>(
        owner: Owner,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (isolated Owner) -> Void
    ) -> Promise<T> {
        ensure(
            via: PlacedHandler(owner: owner, body), owner: owner,
            madeAt: RecordedSite("ensure", fileID: file, line: line))
    }
}

extension CatchMixin {
    /// Handles the errors `policy` covers on `owner`, if it still exists, ending the chain;
    /// once it is gone, `body` is skipped.
    ///
    /// ```swift incomplete
    /// api.fetchPerson(id).done(owner: self) { directory, person in
    ///     directory.people[id] = person
    /// }.catch(owner: self) { directory, error in
    ///     directory.failures += 1
    /// }
    /// ```
    @inlinable
    @discardableResult
    public func `catch`<Owner: Actor>(
        owner: Owner,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (isolated Owner, any Error) -> Void
    ) -> Finalizer {
        self.catch(
            via: PlacedHandler(owner: owner, body), owner: owner, policy: policy,
            madeAt: RecordedSite("catch", fileID: file, line: line))
    }
}

/// Starts a chain on `owner`: `body` runs on the actor, with the actor as an `isolated`
/// argument, and the returned promise settles as the thenable it returns.
///
/// A `nonisolated` method of an actor can so hand its callers a promise at once, without
/// `await`, and still do its work on the actor. `body` is sent to the actor at once, so it runs
/// even if the caller lets go of the actor meanwhile; what `body` chains with `owner:` is
/// skipped once the actor is gone.
///
/// ```swift
/// actor Directory {
///     var people: [String: Person] = [:]
///
///     nonisolated func person(id: String) -> Promise<Person> {
///         firstly(owner: self) { directory in
///             directory.people[id].map { Promise.value($0) } ?? api.fetchPerson(id)
///         }
///     }
/// }
/// ```
@inlinable
public func firstly<Owner: Actor, U: Thenable>(
    owner: Owner,
    file: StaticString = #fileID, line: UInt = #line,
    _ body: @escaping @Sendable (isolated Owner) throws -> U
) -> Promise<U.T> {
    Guarantee.value(()).then(
        via: PlacedHandler(owner: owner) { (owner: isolated Owner, _: Void) in try body(owner) },
        owner: owner,
        madeAt: RecordedSite("firstly", fileID: file, line: line))
}
