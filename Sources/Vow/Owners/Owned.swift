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
        ActorMailboxes.send(ClosureJob(work), to: owner)
    }
}

extension PlacedHandler {
    // A handler bound to an actor, as a plain function of its owner, placed on that actor.
    //
    // An `isolated` parameter changes where a function may be called, not how: the actor is
    // passed as any other argument, and `unsafeBitCast` traps should the two sizes ever differ.
    // The queue is an ``OwnerDispatcher`` of the owner, which calls the handler only while
    // running on the owner, so the isolation the type promised holds.

    /// A handler of the owner and one argument, placed on the owner.
    @inlinable
    init<Owner: Actor, A, R>(owner: Owner, _ handler: @escaping @Sendable (isolated Owner, A) throws -> R)
    where Body == @Sendable (Owner, A) throws -> R {
        self.init(HandlerQueue(OwnerDispatcher(owner)), unsafeBitCast(handler, to: Body.self))
    }

    /// A handler of the owner and one argument that cannot throw, placed on the owner.
    @inlinable
    init<Owner: Actor, A>(owner: Owner, _ handler: @escaping @Sendable (isolated Owner, A) -> Void)
    where Body == @Sendable (Owner, A) -> Void {
        self.init(HandlerQueue(OwnerDispatcher(owner)), unsafeBitCast(handler, to: Body.self))
    }

    /// A handler of the owner alone, placed on the owner.
    @inlinable
    init<Owner: Actor>(owner: Owner, _ handler: @escaping @Sendable (isolated Owner) -> Void)
    where Body == @Sendable (Owner) -> Void {
        self.init(HandlerQueue(OwnerDispatcher(owner)), unsafeBitCast(handler, to: Body.self))
    }
}

extension Thenable {
    // The steps every bound operator shares, whoever the owner is; each skips its handler and
    // cancels its box once the owner is gone.

    @inlinable
    func then<Owner: AnyObject & Sendable, U: Thenable>(
        via handler: PlacedHandler<@Sendable (Owner, T) throws -> U>, owner: Owner, madeAt site: RecordedSite
    ) -> Promise<U.T> {
        Promise(chain(on: handler.queue, OwnedThenStep(Owned(owner, handler.body)), madeAt: site))
    }

    @inlinable
    func map<Owner: AnyObject & Sendable, U>(
        via handler: PlacedHandler<@Sendable (Owner, T) throws -> U>, owner: Owner, madeAt site: RecordedSite
    ) -> Promise<U> {
        Promise(chain(on: handler.queue, OwnedMapStep(Owned(owner, handler.body)), madeAt: site))
    }

    @inlinable
    func done<Owner: AnyObject & Sendable>(
        via handler: PlacedHandler<@Sendable (Owner, T) throws -> Void>, owner: Owner,
        madeAt site: RecordedSite
    ) -> Promise<Void> {
        map(via: handler, owner: owner, madeAt: site)
    }

    @inlinable
    func recover<Owner: AnyObject & Sendable, U: Thenable>(
        via handler: PlacedHandler<@Sendable (Owner, any Error) throws -> U>, owner: Owner,
        policy: CatchPolicy, madeAt site: RecordedSite
    ) -> Promise<T> where U.T == T {
        Promise(
            chain(
                on: handler.queue, OwnedRecoverStep(Owned(owner, handler.body), policy: policy), madeAt: site)
        )
    }

    @inlinable
    func ensure<Owner: AnyObject & Sendable>(
        via handler: PlacedHandler<@Sendable (Owner) -> Void>, owner: Owner, madeAt site: RecordedSite
    ) -> Promise<T> {
        Promise(chain(on: handler.queue, OwnedEnsureStep(Owned(owner, handler.body)), madeAt: site))
    }
}

extension CatchMixin {
    @inlinable
    func `catch`<Owner: AnyObject & Sendable>(
        via handler: PlacedHandler<@Sendable (Owner, any Error) -> Void>, owner: Owner, policy: CatchPolicy,
        madeAt site: RecordedSite
    ) -> Finalizer {
        // The end of a chain: with the owner gone there is nothing left to cancel.
        let unbound: PlacedHandler<@Sendable (any Error) -> Void> = handler.map { body in
            let owned = Owned(owner, body)
            return { error in
                if let owner = owned.owner { owned.body(owner, error) }
            }
        }
        // The step of `catch`, in a box that records the caller's site.
        return Finalizer(chain(on: unbound.queue, CatchStep<T>(unbound.body, policy: policy), madeAt: site))
    }
}

// The steps of the bound operators: each is its unbound namesake's step, run only while the
// owner lives; once it is gone, the step cancels its box, and so the rest of its chain.

/// The step of a bound `then`.
@usableFromInline
struct OwnedThenStep<Owner: AnyObject & Sendable, Admitted: Sendable, Next: Thenable>: ValueStep {
    @usableFromInline
    typealias Value = Next.T

    @usableFromInline
    let owned: Owned<Owner, @Sendable (Owner, Admitted) throws -> Next>

    @inlinable
    init(_ owned: Owned<Owner, @Sendable (Owner, Admitted) throws -> Next>) {
        self.owned = owned
    }

    @inlinable
    func run(_ value: Admitted, settling box: EmptyBox<Result<Next.T, any Error>>) throws {
        guard let owner = owned.owner else { return box.cancel() }
        try box.follow(owned.body(owner, value))
    }
}

/// The step of a bound `map` and `done`.
@usableFromInline
struct OwnedMapStep<Owner: AnyObject & Sendable, Admitted: Sendable, Value: Sendable>: ValueStep {
    @usableFromInline
    let owned: Owned<Owner, @Sendable (Owner, Admitted) throws -> Value>

    @inlinable
    init(_ owned: Owned<Owner, @Sendable (Owner, Admitted) throws -> Value>) {
        self.owned = owned
    }

    @inlinable
    func run(_ value: Admitted, settling box: EmptyBox<Result<Value, any Error>>) throws {
        guard let owner = owned.owner else { return box.cancel() }
        box.seal(.success(try owned.body(owner, value)))
    }
}

/// The step of a bound `recover`.
@usableFromInline
struct OwnedRecoverStep<Owner: AnyObject & Sendable, Value: Sendable, Next: Thenable>: RecoveryStep
where Next.T == Value {
    @usableFromInline
    let owned: Owned<Owner, @Sendable (Owner, any Error) throws -> Next>
    @usableFromInline
    let policy: CatchPolicy

    @inlinable
    init(_ owned: Owned<Owner, @Sendable (Owner, any Error) throws -> Next>, policy: CatchPolicy) {
        self.owned = owned
        self.policy = policy
    }

    @inlinable
    func run(_ error: any Error, settling box: EmptyBox<Result<Value, any Error>>) throws {
        guard let owner = owned.owner else { return box.cancel() }
        try box.follow(owned.body(owner, error))
    }
}

/// The step of a bound `ensure`.
@usableFromInline
struct OwnedEnsureStep<Owner: AnyObject & Sendable, Value: Sendable>: ResultStep {
    @usableFromInline
    let owned: Owned<Owner, @Sendable (Owner) -> Void>

    @inlinable
    init(_ owned: Owned<Owner, @Sendable (Owner) -> Void>) {
        self.owned = owned
    }

    @inlinable
    func run(_ result: Result<Value, any Error>, settling box: EmptyBox<Result<Value, any Error>>) {
        guard let owner = owned.owner else { return box.cancel() }
        owned.body(owner)
        box.seal(result)
    }
}
