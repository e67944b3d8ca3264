/// The part of an ``EmptyBox`` that does not depend on its value type: its ``BoxStatus`` word
/// and what the box waits on, its ``Upstream`` and the token of its attachment there.
///
/// A class of its own so that the code that runs for every promise without knowing its type,
/// a handle's `deinit` and the telling of an upstream when a box settles, is plain code rather
/// than generic code, which would look type metadata up on every call. Its stored properties,
/// after the status word that ``Upstream`` declares, come first in every empty box.
///
/// The transitions of a box's whole state, this and its sealant, are written in
/// ``SealantBox``'s barrier blocks and the methods they call here; SealantCore.md draws them.
@usableFromInline
// @unchecked: `upstream` and `upstreamToken` are only touched inside the box's barrier blocks,
// in `init` before the box is shared, or by the barrier that attaches the box's own handler to
// its upstream, before the box is shared (see `ConsumerLink`). The status word is only accessed
// through the atomic functions of CVowCore.
class BoxCore: Upstream, @unchecked Sendable {
    // The stored properties are final. An empty box's class is not, since a step box subclasses
    // it, and in code inlined into other modules a property of a class that is not final is
    // reached through the class's table: an accessor call, which also keeps the optimizer from
    // moving values in and out of the box.

    // The status word is the upstream's `statusStorage`, first in the stored properties. The
    // token of this box's attachment to its upstream is in the word after it: the two fill
    // what the allocation had before the upstream's pointer.
    @usableFromInline @exclusivity(unchecked)
    final var upstreamToken: UInt32 = 0
    // What this box waits on, told when the box settles or is cancelled. Unchecked
    // exclusivity: the box's barrier orders every access.
    @usableFromInline @exclusivity(unchecked)
    final var upstream: Upstream?

    @inlinable
    override init() {
        super.init(status: BoxStatus.born)
    }

    /// Whether the box has resolved, read with acquiring ordering: once it reads `resolved`, so
    /// does the sealant.
    @inlinable
    final var phase: Phase {
        status.isResolved ? .resolved : .pending
    }

    @inlinable
    final var queue: BarrierQueue { BarrierQueues.queue(for: self) }

    /// Whether the box was cancelled, directly or because nobody wanted its result any longer.
    @inlinable
    final var isCancelled: Bool {
        status.isCancelled
    }

    /// Moves the upstream this box waits on into `upstream`, which must be empty, and returns
    /// the token of its attachment there. Only inside the box's barrier.
    @inlinable
    final func takeUpstream(into upstream: inout Upstream?) -> UInt32 {
        // Swapped rather than copied and cleared: a copy would retain the upstream.
        swap(&upstream, &self.upstream)
        return upstreamToken
    }

    /// Counts a handle's release: the last one, once every consumer withdrew, cancels the box.
    @inlinable
    final func releaseHandle() {
        guard status.releaseHandle() else { return }
        cancel()
    }

    /// Cancels the box: a promise's box rejects with ``PromiseError/cancelled`` and runs its
    /// handlers; a guarantee's is marked cancelled and stays pending, its steps no longer run.
    /// Then the upstream takes the box's handler back and gives up in turn, and so on up the
    /// chain, as far as nobody else needs each upstream (see ``BoxStatus``).
    ///
    /// Does nothing to a box that has resolved or was cancelled already.
    @usableFromInline
    final func cancel() {
        withdraw(afterCancelling: cancelNow())
    }

    /// Tells `upstream`, which this box took as it was cancelled, that the box no longer needs
    /// it, and lets the box's step go if the upstream took its handler back.
    @usableFromInline
    final func withdraw(afterCancelling upstream: ConsumerLink) {
        if Upstream.withdraw(from: upstream, cancelling: true) {
            didWithdraw()
        }
    }

    /// The consumer attached as `token` no longer needs this box; see
    /// ``Upstream/withdraw(_:cancelling:)``.
    ///
    /// A box that has resolved has nothing left to take back: it answers here, in plain code,
    /// which is what every step's box does for the box before it once that one settled it.
    /// Only a pending box goes on to ``withdrawPending(_:)``, whose code is generic.
    @usableFromInline
    final override func withdraw(_ token: UInt32, cancelling: Bool) -> Withdrawal {
        guard phase == .pending else { return .none }
        return withdrawPending(token)
    }

    /// Takes back the handler attached as `token` to this pending box; see
    /// ``withdraw(_:cancelling:)``.
    @usableFromInline
    func withdrawPending(_ token: UInt32) -> Withdrawal {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to withdraw")
    }

    /// Cancels this box alone and returns its upstream, which the caller must tell.
    @usableFromInline
    func cancelNow() -> ConsumerLink {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to cancel")
    }

    /// Called once this box, cancelled, has withdrawn from its upstream, which took its handler
    /// back, so that it can never run: a step box lets its step go then.
    @usableFromInline
    func didWithdraw() {}

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
    ) -> (marked: Bool, upstream: ConsumerLink) {
        var state = (box: Unretained(self), value: value, handlers: handlers, upstream: ConsumerLink?.none)
        queue.write(&state) { state in
            state.upstream = state.box.with { box in
                box.cancelInBarrier(settlingWith: state.value, handingOver: state.handlers)
            }
        }
        return (state.upstream != nil, state.upstream ?? .none)
    }

    /// The cancelling transition, the one place it is written: marks a pending box cancelled,
    /// takes its upstream and settles it as ``markCancelled(settlingWith:handingOver:)`` says.
    /// Returns `nil` if the box has resolved or was cancelled already. Only inside the box's
    /// barrier.
    @usableFromInline
    final func cancelInBarrier(
        settlingWith value: UnsafeRawPointer?, handingOver handlers: UnsafeMutableRawPointer?
    ) -> ConsumerLink? {
        // Inside the barrier, the status and the sealant agree.
        guard phase == .pending, !status.isCancelled else { return nil }
        status.markCancelled()
        var upstream: Upstream?
        let token = takeUpstream(into: &upstream)
        // A box that its work settles once stopped stays pending, marked cancelled.
        if let value, let handlers, !status.isSettledByItsWork {
            settleCancelled(with: value, handingOver: handlers)
        }
        return ConsumerLink(upstream, token: token)
    }

    /// Runs ``withdrawInBarrier(_:into:settling:with:handingOver:)`` in the box's barrier.
    ///
    /// Not generic, and so neither is its barrier block, for the reason
    /// ``markCancelled(settlingWith:handingOver:)`` gives.
    @usableFromInline
    final func takeBack(
        _ token: UInt32, into removed: UnsafeMutableRawPointer, settling: Bool,
        with value: UnsafeRawPointer?, handingOver handlers: UnsafeMutableRawPointer?
    ) -> (gaveUp: Bool, upstream: ConsumerLink?) {
        var state = (
            box: Unretained(self), token: token, removed: removed, settling: settling, value: value,
            handlers: handlers, outcome: (gaveUp: false, upstream: ConsumerLink?.none)
        )
        queue.write(&state) { state in
            state.outcome = state.box.with { box in
                box.withdrawInBarrier(
                    state.token, into: state.removed, settling: state.settling, with: state.value,
                    handingOver: state.handlers)
            }
        }
        return state.outcome
    }

    /// The withdrawing transition: takes the handler attached as `token` out of the box's
    /// handlers into `removed`, a `Handlers` of the box's value type, and says whether that
    /// left the box without consumers and without handles, so that it gives up. Only inside the
    /// box's barrier.
    ///
    /// A box that gives up is cancelled in the same barrier when the caller worked out its
    /// cancellation value beforehand (`settling`, with `value` the address of that value, or
    /// `nil` for a box that has none); otherwise the caller cancels it afterwards.
    ///
    /// - Returns: Whether the box gave up, and the upstream it took if it was cancelled here.
    @usableFromInline
    final func withdrawInBarrier(
        _ token: UInt32, into removed: UnsafeMutableRawPointer, settling: Bool,
        with value: UnsafeRawPointer?, handingOver handlers: UnsafeMutableRawPointer?
    ) -> (gaveUp: Bool, upstream: ConsumerLink?) {
        guard phase == .pending, detach(token, into: removed), status.markForsaken() else {
            return (false, nil)
        }
        guard settling else { return (true, nil) }
        return (true, cancelInBarrier(settlingWith: value, handingOver: handlers))
    }

    /// Takes the handler attached as `token` out of the box's handlers into `removed`; returns
    /// whether no handler is left. Only inside the box's barrier, from
    /// ``withdrawInBarrier(_:into:settling:with:handingOver:)``.
    @usableFromInline
    func detach(_ token: UInt32, into removed: UnsafeMutableRawPointer) -> Bool {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to detach")
    }

    /// Resolves a box being cancelled with the value at `value` and moves the handlers it held
    /// to `handlers`. Only inside the box's barrier, from ``cancelInBarrier(settlingWith:handingOver:)``.
    @usableFromInline
    func settleCancelled(with value: UnsafeRawPointer, handingOver handlers: UnsafeMutableRawPointer) {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to settle")
    }
}
