/// A bound handler and its owner, held weakly: the payload of an owner-bound step.
///
/// The step holds the owner only while its handler runs, so a chain waiting on slow work never
/// keeps the owner alive; once the owner is gone, the step skips its handler and cancels
/// itself, and so the rest of its chain.
@usableFromInline
struct Owned<Owner: AnyObject & Sendable, Body: Sendable>: Sendable {
    @usableFromInline
    weak var owner: Owner?
    @usableFromInline
    let body: Body

    @inlinable
    init(_ owner: Owner, _ body: Body) {
        self.owner = owner
        self.body = body
    }
}

/// Runs the steps bound to an actor on it, holding it weakly as ``Owned`` does: a
/// ``HandlerQueue`` made from the actor itself would keep it alive for as long as the step is
/// pending.
///
/// Once the actor is gone, the work runs at once instead, to find the owner gone and cancel its
/// step.
@usableFromInline
struct OwnerDispatcher<Owner: Actor>: Dispatcher {
    @usableFromInline
    weak var owner: Owner?

    @inlinable
    init(_ owner: Owner) {
        self.owner = owner
    }

    @inlinable
    func dispatch(_ work: @escaping @Sendable () -> Void) {
        guard let owner else { return work() }
        Task { await runIsolated(on: owner, work) }
    }
}

/// The handler of an actor-bound step as a plain function of its owner, to be called only on
/// that actor.
///
/// An `isolated` parameter changes where a function may be called, not how: the actor is passed
/// as any other argument, and `unsafeBitCast` traps should the two sizes ever differ. The step
/// runs through an ``OwnerDispatcher``, which calls the handler only while running on the owner,
/// so the isolation the type promised holds.
@inlinable
func onOwner<Owner: Actor, A, R>(
    _ handler: @escaping @Sendable (isolated Owner, A) throws -> R
) -> @Sendable (Owner, A) throws -> R {
    unsafeBitCast(handler, to: (@Sendable (Owner, A) throws -> R).self)
}

/// The handler of an actor-bound step that cannot throw as a plain function of its owner; see
/// the first `onOwner(_:)`.
@inlinable
func onOwner<Owner: Actor, A>(
    _ handler: @escaping @Sendable (isolated Owner, A) -> Void
) -> @Sendable (Owner, A) -> Void {
    unsafeBitCast(handler, to: (@Sendable (Owner, A) -> Void).self)
}

/// The handler of an actor-bound step that gets the owner alone as a plain function of it; see
/// the first `onOwner(_:)`.
@inlinable
func onOwner<Owner: Actor>(_ handler: @escaping @Sendable (isolated Owner) -> Void)
    -> @Sendable (Owner) -> Void
{
    unsafeBitCast(handler, to: (@Sendable (Owner) -> Void).self)
}

extension Thenable {
    // The steps every bound operator shares, whoever the owner is; each skips its handler and
    // cancels its box once the owner is gone.

    @inlinable
    func then<Owner: AnyObject & Sendable, U: Thenable>(
        via queue: HandlerQueue, owner: Owner, _ body: @escaping @Sendable (Owner, T) throws -> U
    ) -> Promise<U.T> {
        chainValue(on: queue, with: Owned(owner, body)) { value, owned, next in
            guard let owner = owned.owner else { return next.cancel() }
            try next.follow(owned.body(owner, value))
        }
    }

    @inlinable
    func map<Owner: AnyObject & Sendable, U>(
        via queue: HandlerQueue, owner: Owner, _ body: @escaping @Sendable (Owner, T) throws -> U
    ) -> Promise<U> {
        chainValue(on: queue, with: Owned(owner, body)) { value, owned, next in
            guard let owner = owned.owner else { return next.cancel() }
            next.seal(.success(try owned.body(owner, value)))
        }
    }

    @inlinable
    func done<Owner: AnyObject & Sendable>(
        via queue: HandlerQueue, owner: Owner, _ body: @escaping @Sendable (Owner, T) throws -> Void
    ) -> Promise<Void> {
        map(via: queue, owner: owner, body)
    }

    @inlinable
    func recover<Owner: AnyObject & Sendable, U: Thenable>(
        via queue: HandlerQueue, owner: Owner, policy: CatchPolicy,
        _ body: @escaping @Sendable (Owner, any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        chainResult(on: queue, route: .errors(policy), with: Owned(owner, body)) { result, owned, next in
            guard let owner = owned.owner else { return next.cancel() }
            guard case .failure(let error) = result else { return next.seal(result) }
            try next.follow(owned.body(owner, error))
        }
    }

    @inlinable
    func ensure<Owner: AnyObject & Sendable>(
        via queue: HandlerQueue, owner: Owner, _ body: @escaping @Sendable (Owner) -> Void
    ) -> Promise<T> {
        chainResult(on: queue, with: Owned(owner, body)) { result, owned, next in
            guard let owner = owned.owner else { return next.cancel() }
            owned.body(owner)
            next.seal(result)
        }
    }
}

extension CatchMixin {
    @inlinable
    func `catch`<Owner: AnyObject & Sendable>(
        via queue: HandlerQueue, owner: Owner, policy: CatchPolicy,
        _ body: @escaping @Sendable (Owner, any Error) -> Void
    ) -> Finalizer {
        let owned = Owned(owner, body)
        // The end of a chain: with the owner gone there is nothing left to cancel.
        return self.catch(via: queue, policy: policy) { error in
            if let owner = owned.owner { owned.body(owner, error) }
        }
    }
}
