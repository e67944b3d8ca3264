public import CVowCore

/// The part of an ``EmptyBox`` that does not depend on its value type: the phase, who still
/// wants the result (its ``Interest`` and ``Handles``) and what the box waits on (its
/// ``Upstream``).
///
/// A class of its own so that the code that runs for every promise without knowing its type,
/// a handle's `deinit` and the telling of an upstream when a box settles, is plain code rather
/// than generic code, which would look type metadata up on every call. Its stored properties
/// come first in every empty box, so `_getUnsafePointerToStoredProperties` finds the phase.
@usableFromInline
// @unchecked: `upstream` is only touched inside the box's barrier blocks, or in `init` before
// the box is shared. The phase byte, the handle count and the interest word are only accessed
// through the atomic functions of CVowCore.
class BoxCore: Upstream, @unchecked Sendable {
    // The stored properties are final. An empty box's class is not, since a step box subclasses
    // it, and in code inlined into other modules a property of a class that is not final is
    // reached through the class's table: an accessor call, which also keeps the optimizer from
    // moving values in and out of the box.

    // The raw storage of `phase`: first, at the start of the stored properties.
    @usableFromInline
    final var phaseStorage = Phase.pending.rawValue
    // The raw storage of `handles` and `interest`, in the padding after the phase: they cost
    // no memory.
    @usableFromInline
    final var handlesStorage = Handles.born
    @usableFromInline
    final var interestStorage = Interest.born
    // What this box waits on, told when the box settles or is cancelled. Unchecked
    // exclusivity: the box's barrier orders every access.
    @usableFromInline @exclusivity(unchecked)
    final var upstream: Upstream?

    @inlinable
    init(consuming link: ConsumerLink) {
        upstream = link.upstream
    }

    /// The phase, loaded with acquiring ordering: once it reads `resolved`, so does the sealant.
    @inlinable
    final var phase: Phase {
        // A comparison rather than `Phase(rawValue:)`, whose optional would cost a generic
        // metadata lookup in unspecialized code.
        vow_load_acquiring(phaseAddress) == Phase.pending.rawValue ? .pending : .resolved
    }

    @inlinable
    final var phaseAddress: UnsafeMutablePointer<UInt8> {
        _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: UInt8.self)
    }

    @inlinable
    final var queue: BarrierQueue { BarrierQueues.queue(for: self) }

    /// Which consumers still want this box's result; see ``Interest``.
    @inlinable
    final var interest: Interest {
        // The word follows the handle count, aligned to four bytes.
        Interest((_getUnsafePointerToStoredProperties(self) + 4).assumingMemoryBound(to: UInt32.self))
    }

    /// How many handles wrap this box; see ``Handles``.
    @inlinable
    final var handles: Handles {
        // The count follows the phase byte, aligned to two bytes.
        Handles((_getUnsafePointerToStoredProperties(self) + 2).assumingMemoryBound(to: UInt16.self))
    }

    /// Whether the box was cancelled, directly or because nobody wanted its result any longer.
    @inlinable
    final var isCancelled: Bool {
        interest.isCancelledAcquiring
    }

    /// Counts a handle's release: the last one, once every consumer withdrew, cancels the box.
    @inlinable
    final func releaseHandle() {
        guard phase == .pending, handles.release(), interest.isForsaken else { return }
        cancel()
    }

    /// One consumer no longer needs this box; see ``Upstream/withdraw(cancelling:)``.
    @usableFromInline
    override final func withdraw(cancelling: Bool) -> Upstream? {
        guard phase == .pending else { return nil }
        var state = (box: Unretained(self), wasLast: false)
        queue.write(&state) { state in
            state.wasLast = state.box.with { box in box.interest.withdrawConsumer() }
        }
        guard state.wasLast else { return nil }
        // Orders the withdrawal before the look at the handles, as a handle's release orders
        // its count before its look at the consumers; see `Interest`.
        vow_fence_sequential()
        guard handles.areGone else { return nil }
        return cancelNow()
    }

    /// Cancels the box: a promise's box rejects with ``PromiseError/cancelled`` and runs its
    /// handlers; a guarantee's is marked cancelled and stays pending, its steps no longer run.
    /// Then the upstream hears that this box no longer needs it, and so on up the chain, as
    /// far as nobody else needs each upstream (see ``Interest``).
    ///
    /// Does nothing to a box that has resolved or was cancelled already.
    @usableFromInline
    final func cancel() {
        guard let upstream = cancelNow() else { return }
        Upstream.withdraw(from: upstream, cancelling: true)
    }

    /// Cancels this box alone and returns its upstream, which the caller must tell.
    @usableFromInline
    func cancelNow() -> Upstream? {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to cancel")
    }

    /// Marks a pending box cancelled and takes its upstream, and, given a `value` to settle
    /// it with and a place for its `handlers`, settles it through
    /// ``settleCancelled(with:handingOver:)`` in the same barrier, unless its work settles it
    /// (see ``Resolver/onCancelLeavingPending(_:)``).
    /// Does nothing to a box that has resolved or was cancelled already.
    ///
    /// Not generic, and so neither is its barrier block: cancelling from below runs through
    /// ``cancelNow()``, an override that is never specialized, where a generic block would
    /// allocate its context and look up the metadata of every type it touches.
    ///
    /// - Parameters:
    ///   - value: The address of the value the box resolves with, if any.
    ///   - handlers: Where ``settleCancelled(with:handingOver:)`` leaves the handlers it takes,
    ///     a `Handlers` of the box's value type.
    /// - Returns: Whether this call marked the box, and the upstream it took.
    @usableFromInline
    final func markCancelled(
        settlingWith value: UnsafeRawPointer?, handingOver handlers: UnsafeMutableRawPointer?
    ) -> (marked: Bool, upstream: Upstream?) {
        var state = (
            box: Unretained(self), value: value, handlers: handlers, marked: false, upstream: Upstream?.none
        )
        queue.write(&state) { state in
            let unretained = state.box
            unretained.with { box in
                // Inside the barrier, the phase and the sealant agree.
                guard box.phase == .pending, !box.interest.isCancelled else { return }
                box.interest.markCancelled()
                swap(&state.upstream, &box.upstream)
                // A box that its work settles once stopped stays pending, marked cancelled.
                if let value = state.value, let handlers = state.handlers, !box.interest.isSettledByItsWork {
                    box.settleCancelled(with: value, handingOver: handlers)
                }
                state.marked = true
            }
        }
        return (state.marked, state.upstream)
    }

    /// Resolves a box being cancelled with the value at `value` and moves the handlers it held
    /// to `handlers`. Only inside the box's barrier, from ``markCancelled(settlingWith:handingOver:)``.
    @usableFromInline
    func settleCancelled(with value: UnsafeRawPointer, handingOver handlers: UnsafeMutableRawPointer) {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to settle")
    }
}
