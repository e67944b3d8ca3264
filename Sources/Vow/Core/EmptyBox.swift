public import CVowCore

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

    /// A pending box with no upstream.
    @inlinable
    init() {
        super.init(consuming: .none)
    }

    /// A pending box that consumes what `link` leads to, as a thenable's
    /// `_pipe(linking:)` hands it: it counts as one of its consumers until this box
    /// settles or is cancelled.
    @inlinable
    override init(consuming link: ConsumerLink) {
        super.init(consuming: link)
    }

    /// A lazy box: pending, with work that `start` begins once the first handler is attached,
    /// and never if the box is cancelled before.
    @usableFromInline
    init(dormant start: LazyStart<T>) {
        super.init(consuming: ConsumerLink(start))
        interestStorage = Interest.dormant
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
        Trampoline.current.run(Orphans(taking: &sealant).work, as: .tail)
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

    /// The state of ``observe(_:)``'s barrier block: the box, unretained (see ``Unretained``),
    /// and the handler, which the block moves into the sealant, leaving ``Handlers/none``, if
    /// the box is still pending.
    ///
    /// A struct rather than a tuple, for the handler's sake; see ``BarrierQueue``.
    @usableFromInline
    struct Attachment {
        @usableFromInline
        let box: Unretained<SealantBox>
        @usableFromInline
        var handler: Handlers<T>

        @inlinable
        init(box: SealantBox, handler: @escaping Handler) {
            self.box = Unretained(box)
            self.handler = .one(handler)
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
    @inlinable
    final func sealNow(_ value: T) {
        seal(value, as: .call)
    }

    /// Resolves the box with `value`, runs its handlers as `entry` allows, then tells the
    /// upstream, which the box no longer needs.
    @inlinable
    final func seal(_ value: T, as entry: TrampolineEntry) {
        let (handlers, upstream) = take(value)
        run(handlers, with: value, as: entry)
        if let upstream { Upstream.withdraw(from: upstream, cancelling: false) }
    }

    /// Stores `value` and takes the handlers attached so far and the upstream, which the box
    /// no longer needs; takes nothing if already resolved.
    @inlinable
    final func take(_ value: T) -> (Handlers<T>, Upstream?) {
        // A box that has resolved stays as it is: later seals, such as the rejection a
        // cancelled chain passes on to its cancelled steps, skip the barrier.
        guard phase == .pending else { return (.none, nil) }
        return withUnsafePointer(to: value) { value in
            var state = (
                box: Unretained(self), value: value, handlers: Handlers<T>.none, upstream: Upstream?.none
            )
            queue.write(&state) { state in
                let unretained = state.box
                unretained.with { box in
                    guard let handlers = box.resolveInBarrier(with: state.value.pointee) else { return }
                    state.handlers = handlers
                    // Swapped rather than copied and cleared: a copy would retain the upstream.
                    swap(&state.upstream, &box.upstream)
                }
            }
            return (state.handlers, state.upstream)
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
                    trampoline.postpone(HandlerRun(value, batch).work)
                    return
                }
                handler(value)
                trampoline.leave()
            }
        case .many:
            Trampoline.withCurrent { $0.run(HandlerRun(value, batch).work, as: entry) }
        }
    }

    /// Cancels this box alone; see ``BoxCore/cancelNow()``.
    @usableFromInline
    final override func cancelNow() -> Upstream? {
        cancelNow(resolvingWith: nil)
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

    /// The pending-to-resolved transition, the one place it is written: stores `value`,
    /// publishes the phase, and returns the handlers the box held, or `nil` if it has
    /// resolved already. Only inside the box's barrier, from ``take(_:)`` or, when the box is
    /// cancelled, from ``settleCancelled(with:handingOver:)``, which marks it in the same
    /// barrier.
    @inlinable
    final func resolveInBarrier(with value: T) -> Handlers<T>? {
        guard let handlers = sealant.resolve(with: value) else { return nil }
        vow_store_releasing(phaseAddress, Phase.resolved.rawValue)
        return handlers
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
    /// pending, at once on this thread if it has resolved.
    @inlinable
    func observe(_ handler: @escaping Handler) {
        if phase == .resolved {
            handler(resolvedValue)
            return
        }
        var state = Attachment(box: self, handler: handler)
        queue.write(&state) { state in
            let unretained = state.box
            unretained.with { box in
                guard box.sealant.attach(&state.handler) else { return }
                box.interest.countConsumer()
            }
        }
        if case .one(let handler) = state.handler {
            handler(resolvedValue)
        } else if interest.isDormant {
            wake()
        }
    }

    /// Starts the work of a lazy box that a handler has just been attached to, unless another
    /// thread's attachment started it first, or the box was cancelled meanwhile, which released
    /// the work unstarted.
    @usableFromInline
    func wake() {
        var state = (box: Unretained(self), start: Upstream?.none)
        queue.write(&state) { state in
            state.box.with { box in
                guard box.interest.wake() else { return }
                swap(&state.start, &box.upstream)
            }
        }
        (state.start as? LazyStart<T>)?.start(self)
    }
}
