/// A box born pending, resolved later by exactly one seal that takes effect.
///
/// The sealant lives behind a concurrent queue from ``BarrierQueues``: reads run concurrently,
/// while sealing and attaching are barrier writes. Barrier blocks only move handlers in and
/// out; user code always runs outside them.
///
/// Handlers attached before the box resolves run in attachment order, on the thread that
/// resolves it. A handler attached once it has resolved runs at once, on the attaching thread,
/// even while the resolving thread is still running the earlier ones: it never waits behind
/// another thread, so two threads can never each wait for the other's handlers.
///
/// The phase, the cancellation state and what the box waits on live in its superclass,
/// ``BoxCore``, which does not depend on `T`.
///
/// The rest of Vow names it `EmptyBox<T>`; the class behind the name is ``SealantBox``.
@usableFromInline
typealias EmptyBox<T: Sendable> = SealantBox<T, Sealant<T>>

/// The class of an ``EmptyBox``, which takes the type of its stored sealant as a second
/// generic parameter, always `Sealant<T>`.
///
/// Swift never specializes a `deinit`, and a generic class's `deinit` destroys its stored
/// properties with their types' metadata. For a property of type `Sealant<T>` that metadata is
/// looked up in the runtime's global cache on every deallocation, some 320 instructions, a
/// tenth of an inline chain's cost. The metadata of a type the class takes as a parameter is
/// read from the class's own metadata instead, at the cost of a load.
///
/// Not final: an operator's box, a ``StepBox``, is an empty box that also carries the operator's
/// step. Every member is final, so that every call stays direct, in code inlined into other
/// modules too.
@usableFromInline
// @unchecked: `storage` is only touched inside `queue` blocks, or read after an acquiring load
// of the phase returns `resolved`, after which it is never written again.
class SealantBox<T: Sendable, Storage: SealantStorage>: BoxCore, @unchecked Sendable
where Storage.Value == T {
    @usableFromInline
    typealias Handler = Handlers<T>.Body

    // Unchecked exclusivity: the queue already orders every access, and the dynamic check
    // would cost more than the barrier.
    @usableFromInline @exclusivity(unchecked)
    final var storage = Storage()

    /// The box's state, pending with the handlers attached so far or resolved.
    @inlinable
    final var sealant: Sealant<T> {
        _read { yield storage.sealant }
        _modify { yield &storage.sealant }
    }

    /// A pending box with no upstream yet: the barrier that attaches its handler to what it
    /// consumes records that as its upstream (see ``ConsumerLink``).
    @inlinable
    override init() {
        super.init()
    }

    /// A pending box made by the operation that `site` names; see ``init()``.
    @inlinable
    override init(madeAt site: RecordedSite) {
        super.init(madeAt: site)
    }

    /// A lazy box: pending, with work that `start` begins once the first handler is attached,
    /// and never if the box is cancelled before.
    @usableFromInline
    init(dormant start: LazyStart<T>, madeAt site: RecordedSite) {
        super.init(madeAt: site)
        wait(on: start, token: 0)
        statusStorage |= BoxStatus.dormant
    }

    deinit {
        // A pending box owns its handlers, and each handler owns the next promise of its chain.
        // Released recursively, a long unresolved chain would overflow the stack, so the
        // trampoline releases it one link at a time.
        guard phase == .pending else { return }
        releaseOrphans()
    }

    /// Hands the handlers of a box released while pending to the trampoline.
    ///
    /// A function of its own, never inlined, so that `deinit`, whose common path only reads
    /// the phase, does not look up the metadata of `Sealant<T>`, which this needs.
    @inline(never)
    private func releaseOrphans() {
        guard !sealant.isEmptyPending else { return }
        Trampoline.current.run(Released(taking: &sealant, leaving: .pending(Handlers())).work, as: .tail)
    }

    /// The result, or `nil` while the box is pending.
    @inlinable
    final var resolution: T? {
        if phase == .resolved {
            return resolvedValue
        }
        var state = (box: Unretained(self), value: T?.none)
        queue.read(&state) { state in
            state.value = state.box.with { box in box.sealant.value }
        }
        return state.value
    }

    /// The state of ``attach(_:recordingIn:)``'s barrier block: the box and the consumer that
    /// records the attachment, unretained (see ``Unretained``); the handler, which the block
    /// moves into the sealant, leaving ``Handlers/none``, if the box is still pending; and the
    /// token it gets there.
    ///
    /// A struct rather than a tuple, for the handler's sake; see ``BarrierQueue``.
    @usableFromInline
    struct Attachment {
        @usableFromInline
        let box: Unretained<SealantBox>
        @usableFromInline
        let consumer: Unretained<BoxCore>?
        @usableFromInline
        var handler: Handlers<T>
        @usableFromInline
        var token: UInt32?

        @inlinable
        init(box: SealantBox, consumer: BoxCore?, handler: @escaping Handler) {
            self.box = Unretained(box)
            self.consumer = consumer.map(Unretained.init)
            self.handler = .one(handler)
            token = nil
        }
    }

    /// Resolves the box from the last statement of an operator's step, the common case: its
    /// handlers run before the thread's current handler run continues, nested in this call
    /// unless the thread is already ``Trampoline/maximumDepth`` runs deep. Only the first seal
    /// takes effect; later ones are ignored.
    @inlinable
    final func seal(_ value: T) {
        seal(value, as: .tail)
    }

    /// Resolves the box for a caller that may go on after the call, such as a ``Resolver``:
    /// its handlers have run when this returns, however deep the thread is in other handlers.
    /// Only the first seal takes effect; later ones are ignored.
    ///
    /// A failure sealed so began here, at the resolver: its ``BoxCore/failureOrigin`` is the
    /// box's own site.
    @inlinable
    final func sealNow(_ value: T) {
        seal(value, as: .call, failingAt: site)
    }

    /// Resolves the box with what its own work produced, such as the body of a
    /// `DispatchQueue.async(.promise)` or of an async initializer: a failure began here, at the
    /// box's site, whatever failure's handlers this thread runs.
    @inlinable
    final func sealOwnResult(_ value: T) {
        seal(value, as: .tail, failingAt: site)
    }

    /// Resolves the box with `value`, runs its handlers as `entry` allows, then tells the
    /// upstream, which the box no longer needs.
    ///
    /// If `value` is a failure, `origin` is where it began; a seal that passes on a failure
    /// from upstream gives none, and the box takes the origin of the failure whose handlers
    /// this thread is running (see ``Trampoline/deliveredOrigin``).
    @inlinable
    final func seal(_ value: T, as entry: TrampolineEntry, failingAt origin: RecordedSite = RecordedSite()) {
        let (handlers, upstream, token) = take(value, failingAt: origin)
        run(handlers, with: value, as: entry)
        Upstream.withdraw(from: upstream, token: token, cancelling: false)
    }

    /// Stores `value` and takes the handlers attached so far and the upstream, which the box
    /// no longer needs; takes nothing if already resolved. A failure's origin is stored with
    /// it, in a debug build; see ``seal(_:as:failingAt:)``.
    @inlinable
    final func take(_ value: T, failingAt origin: RecordedSite) -> (
        handlers: Handlers<T>, upstream: Upstream?, token: UInt32
    ) {
        // A box that has resolved stays as it is: later seals, such as the rejection a
        // cancelled chain passes on to its cancelled steps, skip the barrier.
        guard phase == .pending else { return (.none, nil, 0) }
        return withUnsafePointer(to: value) { value in
            var state = (
                box: Unretained(self), value: value, handlers: Handlers<T>.none, upstream: Upstream?.none,
                token: UInt32(0), origin: RecordedSite.origin(of: value.pointee, explicit: origin)
            )
            queue.write(&state) { state in
                let unretained = state.box
                unretained.with { box in
                    #if DEBUG
                    // Stored before the settling publishes the resolved bit, after which a
                    // reader such as `failureOrigin` reads it without the barrier; only while
                    // the box is pending, which the barrier keeps it while this runs.
                    if !box.status.isResolved { box.failureOrigin = state.origin }
                    #endif
                    guard
                        let settled = box.settleInBarrier(
                            with: state.value.pointee, upstream: &state.upstream)
                    else { return }
                    (state.handlers, state.token) = settled
                }
            }
            return (state.handlers, state.upstream, state.token)
        }
    }

    /// Runs the handlers ``take(_:)`` returned, nested in this call or postponed on the
    /// trampoline, as `entry` allows there.
    @inlinable
    final func run(_ batch: Handlers<T>, with value: T, as entry: TrampolineEntry) {
        switch batch {
        case .none:
            return
        case .one(let handler):
            // The common case runs without a `HandlerRun`: nothing is left of the batch once
            // its only handler returns.
            Trampoline.withCurrent { trampoline in
                guard trampoline.enter(nil, as: entry) else {
                    trampoline.postpone(HandlerRun(value, batch, failingAt: failureOrigin).work)
                    return
                }
                #if DEBUG
                let outer = trampoline.deliver(failureOrigin)
                handler(value)
                trampoline.deliveredOrigin = outer
                #else
                handler(value)
                #endif
                trampoline.leave()
            }
        case .many:
            Trampoline.withCurrent {
                $0.run(HandlerRun(value, batch, failingAt: failureOrigin).work, as: entry)
            }
        }
    }

    /// Cancels this box alone; see ``BoxCore/cancelNow()``.
    @usableFromInline
    final override func cancelNow() -> ConsumerLink {
        cancelNow(resolvingWith: nil)
    }

    /// A consumer attached as `token` no longer needs this pending box: its handler leaves the
    /// box's handlers at once and is released here, outside the barrier, and the box gives up if
    /// no consumer and no handle is left (see ``BoxStatus``).
    ///
    /// Never specialized, like every override, so the barrier block is the non-generic one of
    /// ``BoxCore/takeBack(_:into:settling:with:handingOver:)``, which reaches the sealant
    /// through ``detach(_:into:)``.
    @usableFromInline
    final override func withdrawPending(_ token: UInt32) -> Withdrawal {
        // The value to settle with if the box gives up, worked out only when it may, once no
        // handle is left, so that giving up takes this one barrier. A handle released meanwhile
        // leaves it unknown, and the box is then cancelled afterwards, in a barrier of its own.
        let settling = status.hasNoHandle
        var removed = Handlers<T>.none
        if settling, var rejection = Self.cancellationValue {
            var handlers = Handlers<T>.none
            let (gaveUp, upstream) = takeBack(
                token, into: &removed, settlingWithValueAt: &rejection, handingOver: &handlers)
            let detached = !removed.isEmpty
            guard gaveUp else { return Withdrawal(detached: detached, next: .none) }
            guard let upstream else { return Withdrawal(detached: detached, next: cancelNow()) }
            run(handlers, with: rejection, as: .call)
            return Withdrawal(detached: detached, next: upstream)
        }
        let (gaveUp, upstream) = takeBack(token, into: &removed, settling: settling)
        let detached = !removed.isEmpty
        guard gaveUp else { return Withdrawal(detached: detached, next: .none) }
        return Withdrawal(detached: detached, next: upstream ?? cancelNow())
    }

    /// What a cancelled box of this type resolves with: a promise's rejection with
    /// ``PromiseError/cancelled``; `nil` for a guarantee, which stays pending.
    @inlinable
    static var cancellationValue: T? {
        (T.self as? any CancellationRejectable.Type)?.cancellationRejection(as: T.self)
    }

    /// Takes the handler attached as `token` out into `removed`, a `Handlers<T>`; see
    /// ``BoxCore/detach(_:into:)``.
    @usableFromInline
    final override func detach(_ token: UInt32, into removed: UnsafeMutableRawPointer) -> Bool {
        storage.detach(token, into: &removed.assumingMemoryBound(to: Handlers<T>.self).pointee)
    }

    /// Resolves the box with the `T` at `value`; see
    /// ``BoxCore/settleCancelled(with:handingOver:)``.
    @usableFromInline
    final override func settleCancelled(
        with value: UnsafeRawPointer, handingOver handlers: UnsafeMutableRawPointer
    ) {
        guard let taken = resolveInBarrier(with: value.assumingMemoryBound(to: T.self).pointee) else {
            return
        }
        handlers.assumingMemoryBound(to: Handlers<T>.self).pointee = taken
    }

    /// The box's state, for its chain's description (see `DescribedBox.swift`).
    final override var describedState: String {
        guard phase == .resolved else { return isCancelled ? "cancelled" : "pending" }
        return (resolvedValue as? any FailureCarrying)?.describedResolution ?? "resolved"
    }

    /// Whether the box is a promise's; see ``BoxCore/settlesAsPromise``.
    final override var settlesAsPromise: Bool {
        T.self is any CancellationRejectable.Type
    }

    /// Whether no value has been sealed yet. Cheap enough for the unspecialized `deinit` of a
    /// resolver, which reports a promise that can no longer be resolved.
    final var isUnsealed: Bool {
        phase == .pending
    }

    /// The value of a resolved box, read without the queue: it can no longer change.
    @inlinable
    final var resolvedValue: T {
        guard case .resolved(let value) = sealant else {
            preconditionFailure("Vow internal error: a resolved box has no value")
        }
        return value
    }
}

// Here, rather than in the class, because a lazy box hands itself to its work as an `EmptyBox`.
extension SealantBox where Storage == Sealant<T> {
    /// Runs `handler` with the result: after the handlers attached before it if the box is
    /// pending, at once on this thread if it has resolved. A handler attached so is never taken
    /// back.
    @inlinable
    func observe(_ handler: @escaping Handler) {
        _ = attach(handler, recordingIn: nil)
    }

    /// Attaches `handler` as ``observe(_:)`` does, on behalf of a consumer that may take it
    /// back: returns the link to withdraw it with, or `.none` if the box has resolved and the
    /// handler ran at once. With `consumer`, the box of a new step that no other thread can
    /// reach yet, the attaching barrier records the link as that box's upstream instead, before
    /// the handler can run, and this returns `.none`.
    ///
    /// One function for both, with an optional consumer: two would be inlined side by side into
    /// every `_pipe(_:linking:)`, which then grows too large to inline into the operators.
    @inlinable
    func attach(_ handler: @escaping Handler, recordingIn consumer: BoxCore?) -> ConsumerLink {
        if phase == .resolved {
            #if DEBUG
            let outer = Trampoline.deliver(failureOrigin)
            handler(resolvedValue)
            Trampoline.restore(outer)
            #else
            handler(resolvedValue)
            #endif
            return .none
        }
        var state = Attachment(box: self, consumer: consumer, handler: handler)
        queue.write(&state) { state in
            let unretained = state.box
            unretained.with { box in
                guard let token = box.attachInBarrier(&state.handler) else { return }
                if let consumer = state.consumer {
                    consumer.with { consumer in consumer.wait(on: box, token: token) }
                } else {
                    state.token = token
                }
            }
        }
        if case .one(let handler) = state.handler {
            #if DEBUG
            let outer = Trampoline.deliver(failureOrigin)
            handler(resolvedValue)
            Trampoline.restore(outer)
            #else
            handler(resolvedValue)
            #endif
            return .none
        }
        if status.isDormant {
            wake()
        }
        return state.token.map { ConsumerLink(self, token: $0) } ?? .none
    }

    /// Starts the work of a lazy box that a handler has just been attached to, unless another
    /// thread's attachment started it first, or the box was cancelled meanwhile, which released
    /// the work unstarted.
    @usableFromInline
    func wake() {
        var state = (box: Unretained(self), start: Upstream?.none)
        queue.write(&state) { state in
            state.start = state.box.with { box in box.wakeInBarrier() }
        }
        (state.start as? LazyStart<T>)?.wake(self)
    }
}
