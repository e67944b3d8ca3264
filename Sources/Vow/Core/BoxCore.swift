/// The part of an ``EmptyBox`` that does not depend on its value type: its ``BoxStatus`` word
/// and what the box waits on, its ``Upstream`` and the token of its attachment there.
///
/// A class of its own so that the code that runs for every promise without knowing its type,
/// a handle's `deinit` and the telling of an upstream when a box settles, is plain code rather
/// than generic code, which would look type metadata up on every call. Its stored properties,
/// after the status word that ``Upstream`` declares, come first in every empty box.
///
/// The transitions of a box's whole state, this and its sealant, are written in one file,
/// `BoxStateMachine.swift`; the methods here run them in the box's barrier.
@usableFromInline
// @unchecked: `upstream` and `upstreamToken` are only touched inside the box's barrier blocks,
// or by `wait(on:token:)` before the box is shared: at its birth, or in the barrier that
// attaches the box's own handler to its upstream (see `ConsumerLink`). The status word is only
// accessed through the atomic functions of CVowCore.
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

    /// Where the box was made and by which operation, for its chain's description and the
    /// reports that name it: empty in a release build, where it takes no memory.
    @usableFromInline
    let site: RecordedSite

    /// Where the failure this box rejected with began, in a debug build: the site of the step
    /// whose body threw, of the resolver that rejected, or of the timeout that expired, written
    /// in the barrier that stores the failure, before the box is marked resolved, and read only
    /// once the box has resolved, so never while it is written; see ``FailureOrigin``. Empty in
    /// a release build, where it takes no memory.
    @usableFromInline @exclusivity(unchecked)
    final var failureOrigin = RecordedSite()

    /// A box made for Vow's own work, which records no site.
    @inlinable
    override init() {
        site = RecordedSite()
        super.init(status: BoxStatus.born)
    }

    /// A box made by the operation that `site` names.
    @inlinable
    init(madeAt site: RecordedSite) {
        self.site = site
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
    ///
    /// The thread's ``WithdrawalWalk`` takes the link over, so that a chain whose links are
    /// released one by one, each cancelling the next from a handle's `deinit`, is cancelled in
    /// its loop rather than by a recursion.
    @usableFromInline
    final func withdraw(afterCancelling upstream: __owned ConsumerLink) {
        // A box that has resolved has nothing to take back.
        guard upstream.leadsToPending else { return }
        Trampoline.current.withdrawals.withdraw(self, afterCancellingFrom: consume upstream)
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

    /// The box's state, `pending` or how it settled, for its chain's description (see
    /// `DescribedBox.swift`). Never called on a path that resolves or attaches.
    var describedState: String {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to describe itself")
    }

    /// Whether the box is an operator's step, which waits on its input and then on its handler;
    /// for its chain's description.
    var isStep: Bool { false }

    /// Whether the box is a promise's, which a rejection can settle, rather than a guarantee's;
    /// for its chain's description.
    var settlesAsPromise: Bool {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say what it settles")
    }

    /// Called once this box, cancelled, has withdrawn from its upstream, which took its handler
    /// back, so that it can never run: a step box lets its step go then.
    @usableFromInline
    func didWithdraw() {}

    /// Runs ``cancelInBarrier(settlingWith:handingOver:)`` in the box's barrier. Does nothing
    /// to a box that has resolved or was cancelled already.
    ///
    /// Not generic, and so neither is its barrier block: cancelling from below runs through
    /// ``cancelNow()``, an override that is never specialized, where a generic block would
    /// allocate its context and look up the metadata of every type it touches.
    ///
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
