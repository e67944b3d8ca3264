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
/// A box also knows what it waits on, its ``Upstream``, and who waits on it, its ``Interest``,
/// so that cancelling it stops the work behind it once nobody else wants that work's result;
/// see ``cancel()``.
@usableFromInline
// @unchecked: `sealant` and `upstream` are only touched inside `queue` blocks (or, for
// `upstream`, in `init` before the box is shared), and the sealant is read after an acquiring
// load of the phase returns `resolved`, after which it is never written again. The phase byte
// and the interest word are only accessed through the atomic functions of CVowCore.
final class EmptyBox<T: Sendable>: Upstream, @unchecked Sendable {
    @usableFromInline
    typealias Handler = Handlers<T>.Body

    // The raw storage of `phase`. First, so that its address is the start of the stored
    // properties, which `deinit` finds without knowing `T`.
    @usableFromInline
    var phaseStorage = Phase.pending.rawValue
    // The raw storage of `interest`, in the padding after the phase: it costs no memory.
    @usableFromInline
    var interestStorage = Interest.born
    // Unchecked exclusivity: the queue already orders every access, and the dynamic check
    // would cost more than the barrier.
    @usableFromInline @exclusivity(unchecked)
    var sealant: Sealant<T> = .pending(Handlers())
    // What this box waits on, told when the box settles or is cancelled. Last, in the word the
    // allocation had spare after the sealant of a typical promise.
    @usableFromInline @exclusivity(unchecked)
    var upstream: Upstream?

    /// A pending box with no upstream, whose one holder is the handle its creator wraps it in.
    @inlinable
    override init() {}

    /// A pending box that consumes `upstream`, as returned by ``Thenable/linkableBox``: it
    /// counts as one of its holders until this box settles or is cancelled.
    @inlinable
    init(consuming upstream: Upstream?) {
        self.upstream = upstream
    }

    deinit {
        // A pending box owns its handlers, and each handler owns the next promise of its chain.
        // Released recursively, a long unresolved chain would overflow the stack, so the
        // trampoline releases it one link at a time.
        guard phase == .pending, !sealant.isEmptyPending else { return }
        Trampoline.current.run(Orphans(taking: &sealant).work, as: .tail)
    }

    @inlinable
    var queue: BarrierQueue { BarrierQueues.queue(for: self) }

    /// The phase, loaded with acquiring ordering: once it reads `resolved`, so does the sealant.
    @inlinable
    var phase: Phase {
        Phase(rawValue: vow_load_acquiring(phaseAddress)).unsafelyUnwrapped
    }

    @inlinable
    var phaseAddress: UnsafeMutablePointer<UInt8> {
        _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: UInt8.self)
    }

    /// Who still wants this box's result; see ``Interest``.
    @inlinable
    var interest: Interest {
        // The word follows the phase byte, aligned to four bytes.
        Interest((_getUnsafePointerToStoredProperties(self) + 4).assumingMemoryBound(to: UInt32.self))
    }

    /// The result, or `nil` while the box is pending.
    @inlinable
    var resolution: T? {
        if phase == .resolved {
            return resolvedValue
        }
        return queue.read { sealant.value }
    }

    /// Runs `handler` with the result: after the handlers attached before it if the box is
    /// pending, at once on this thread if it has resolved.
    @inlinable
    func observe(_ handler: @escaping Handler) {
        if phase == .resolved {
            handler(resolvedValue)
            return
        }
        let attached = queue.write { sealant.attach(handler) }
        if !attached {
            handler(resolvedValue)
        }
    }

    /// Resolves the box from the last statement of an operator's step, the common case: its
    /// handlers run before the thread's current handler run continues, nested in this call
    /// unless the thread is already ``Trampoline/maximumDepth`` runs deep. Only the first seal
    /// takes effect; later ones are ignored.
    @inlinable
    func seal(_ value: T) {
        let (handlers, upstream) = take(value)
        run(handlers, with: value, as: .tail)
        if let upstream { Upstream.withdraw(from: upstream, cancelling: false) }
    }

    /// Resolves the box for a caller that may go on after the call, such as a ``Resolver``:
    /// its handlers have run when this returns, however deep the thread is in other handlers.
    /// Only the first seal takes effect; later ones are ignored.
    @inlinable
    func sealNow(_ value: T) {
        let (handlers, upstream) = take(value)
        run(handlers, with: value, as: .call)
        if let upstream { Upstream.withdraw(from: upstream, cancelling: false) }
    }

    /// Stores `value` and takes the handlers attached so far and the upstream, which the box
    /// no longer needs; takes nothing if already resolved. The phase's only transition happens
    /// here.
    @inlinable
    func take(_ value: T) -> (Handlers<T>, Upstream?) {
        queue.write {
            guard case .pending(let handlers) = sealant else { return (.none, nil) }
            sealant = .resolved(value)
            vow_store_releasing(phaseAddress, Phase.resolved.rawValue)
            let upstream = self.upstream
            self.upstream = nil
            return (handlers, upstream)
        }
    }

    /// Runs the handlers ``take(_:)`` returned, nested in this call or postponed on the
    /// trampoline, as `entry` allows there.
    @inlinable
    func run(_ batch: Handlers<T>, with value: T, as entry: TrampolineEntry) {
        switch batch {
        case .none:
            return
        case .one(let handler):
            // The common case runs without a `HandlerRun`: nothing is left of the batch once
            // its only handler returns.
            let trampoline = Trampoline.current
            guard trampoline.enter(nil, as: entry) else {
                trampoline.postpone(HandlerRun(value, batch).work)
                return
            }
            handler(value)
            trampoline.leave()
        case .many:
            Trampoline.current.run(HandlerRun(value, batch).work, as: entry)
        }
    }

    /// One consumer no longer needs this box; see ``Upstream/withdraw(cancelling:)``.
    @usableFromInline
    override func withdraw(cancelling: Bool) -> Upstream? {
        guard phase == .pending, interest.withdrawConsumer() else { return nil }
        return cancelNow()
    }

    /// Whether no value has been sealed yet. Cheap enough for the unspecialized `deinit` of a
    /// resolver, which reports a promise that can no longer be resolved.
    var isUnsealed: Bool {
        phase == .pending
    }

    /// The value of a resolved box, read without the queue: it can no longer change.
    @inlinable
    var resolvedValue: T {
        guard case .resolved(let value) = sealant else {
            preconditionFailure("Vow internal error: a resolved box has no value")
        }
        return value
    }
}
