// The state machine of an empty box: every transition of a box's state, in this one file.
//
// A box's state has four parts, stored in this order (SealantCore.md draws them): the status
// word (`BoxStatus`), the token of the box's own attachment to its upstream, that upstream, and
// the sealant. Together they make these states:
//
// | state | status word | sealant | upstream |
// | --- | --- | --- | --- |
// | dormant: lazy, its work not started | `dormant` | `pending(.none)` | the `LazyStart` |
// | waiting | — | `pending(handlers)` | what it waits on: a box, `Upstreams`, `CancelHooks`, or none |
// | forsaken: its last consumer withdrew | `forsaken` | `pending(.none)` | the same |
// | cancelled, left pending | `cancelled`, and `settledByItsWork` unless a guarantee's | `pending(handlers)` | none |
// | resolved | `resolved`, and `cancelled` if it was | `resolved(value)` | none |
//
// The transitions are the functions below. Each runs inside the box's barrier, or, for
// `wait(on:token:)`, before the box is shared; each changes the parts it names and returns what
// its caller does once the barrier is left: the handlers to run, a handler taken back to
// release, the upstream to tell, the work to start. None of them runs user code, not even a
// `deinit`: whatever a transition takes out of the box, it hands to its caller, which runs or
// releases it outside.
//
// | transition | from | to | the caller then |
// | --- | --- | --- | --- |
// | `wait(on:token:)` | new, not shared yet | waiting | — |
// | `attachInBarrier(_:)` | waiting, forsaken, dormant | waiting, dormant | runs the handler itself if the box resolved; wakes a dormant box |
// | `wakeInBarrier()` | dormant | waiting | starts the work |
// | `resolveInBarrier(with:)` | any pending | resolved | runs the handlers |
// | `settleInBarrier(with:upstream:)` | any pending | resolved | runs the handlers, tells the upstream it settled |
// | `replaceUpstreamInBarrier(_:token:)` | waiting | waiting, on another upstream | withdraws from the new upstream if refused, releases the old one |
// | `addCancelHooksInBarrier(_:leavingPending:)` | waiting, on hooks or none | the same | runs the hook at once if the box was cancelled |
// | `cancelInBarrier(settlingWith:handingOver:)` | any pending, not cancelled | resolved or cancelled, left pending | runs the handlers, tells the upstream it was cancelled |
// | `withdrawInBarrier(_:into:settling:with:handingOver:)` | waiting | waiting, or forsaken, then cancelled if no handle is left | releases the handler taken back; tells the upstream if the box gave up |
//
// Two changes happen outside the barrier, to the status word alone, by atomic read-modify-
// writes: a handle's arrival and its release (`BoxStatus.addHandle()` and `releaseHandle()`);
// the release of the last handle of a forsaken box cancels it. `BoxStatus` justifies each
// atomic ordering once.

extension BoxCore {
    /// Sets what a new box waits on, before any other thread can reach the box: at its birth,
    /// or in the barrier that attaches its handler to `upstream` (see ``ConsumerLink``).
    @inlinable
    final func wait(on upstream: Upstream, token: UInt32) {
        self.upstream = upstream
        upstreamToken = token
    }

    /// Moves the upstream this box waits on into `upstream`, which must be empty, and returns
    /// the token of its attachment there. Only inside the box's barrier.
    @inlinable
    final func takeUpstream(into upstream: inout Upstream?) -> UInt32 {
        // Swapped rather than copied and cleared: a copy would retain the upstream.
        swap(&upstream, &self.upstream)
        return upstreamToken
    }

    /// Starts the work of a dormant box: returns its ``LazyStart``, for the caller to start,
    /// or `nil` if another attachment woke it first or it was cancelled meanwhile, which
    /// released the work unstarted. Only inside the box's barrier.
    @inlinable
    final func wakeInBarrier() -> Upstream? {
        guard status.wake() else { return nil }
        var start: Upstream?
        swap(&start, &upstream)
        return start
    }

    /// Makes `upstream` what this waiting box waits on, in place of the one it followed, whose
    /// result has arrived: swaps the two, so that `upstream` holds the replaced one, for the
    /// caller to release after the barrier, where its release may free a value and run a
    /// `deinit`. Returns `false`, leaving both, if the box has settled or was cancelled: the
    /// caller then withdraws from the new upstream. Only inside the box's barrier.
    @inlinable
    final func replaceUpstreamInBarrier(_ upstream: inout Upstream?, token: UInt32) -> Bool {
        // Inside the barrier, the status and the sealant agree.
        guard phase == .pending, !status.isCancelled else { return false }
        swap(&upstream, &self.upstream)
        upstreamToken = token
        return true
    }

    /// Adds `hooks`, the ways to stop the work that will resolve this box, to those it has, or
    /// makes them its upstream; with `leavingPending`, a cancellation from then on leaves the
    /// box pending, for the work to settle once it has stopped. Returns whether the box was
    /// cancelled already, so that the caller runs the hooks at once; a box that has resolved
    /// drops them. Only inside the box's barrier.
    @usableFromInline
    final func addCancelHooksInBarrier(_ hooks: CancelHooks, leavingPending: Bool) -> Bool {
        guard phase == .pending, !status.isCancelled else { return status.isCancelled }
        if leavingPending { status.markSettledByItsWork() }
        if let registered = upstream as? CancelHooks {
            registered.hooks.append(contentsOf: hooks.hooks)
        } else {
            precondition(upstream == nil, "Vow internal error: cancel hooks on a box that waits on another")
            upstream = hooks
        }
        return false
    }

    /// Marks a pending box cancelled, takes its upstream, and, given a `value` to settle it
    /// with and a place for its `handlers`, settles it through
    /// ``settleCancelled(with:handingOver:)``, unless its work settles it (see
    /// ``Resolver/onCancelLeavingPending(_:)``). Returns the upstream, for the caller to tell
    /// that the box was cancelled, or `nil` if the box has resolved or was cancelled already.
    /// Only inside the box's barrier.
    ///
    /// - Parameters:
    ///   - value: The address of the value the box resolves with, if any.
    ///   - handlers: Where the handlers the box held go, a `Handlers` of the box's value type,
    ///     for the caller to run.
    @usableFromInline
    final func cancelInBarrier(
        settlingWith value: UnsafeRawPointer?, handingOver handlers: UnsafeMutableRawPointer?
    ) -> ConsumerLink? {
        guard phase == .pending, !status.isCancelled else { return nil }
        status.markCancelled()
        var upstream: Upstream?
        let token = takeUpstream(into: &upstream)
        if let value, let handlers, !status.isSettledByItsWork {
            settleCancelled(with: value, handingOver: handlers)
        }
        return ConsumerLink(upstream, token: token)
    }

    /// Takes the handler attached as `token` out of the box's handlers into `removed`, a
    /// `Handlers` of the box's value type, for the caller to release; and if that left the box
    /// without consumers, marks it forsaken. A forsaken box with no handle left gives up: it is
    /// cancelled here, through ``cancelInBarrier(settlingWith:handingOver:)``, when the caller
    /// worked out its cancellation value beforehand (`settling`, with `value` the address of
    /// that value, or `nil` for a box that has none); otherwise the caller cancels it
    /// afterwards. Only inside the box's barrier.
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
}

extension SealantBox where Storage == Sealant<T> {
    /// Moves the one handler in `handler` to the end of a pending box's handlers, leaving
    /// `handler` empty, and returns its token; a forsaken box has a consumer again. Returns
    /// `nil`, leaving `handler` for the caller to run with the value, if the box has resolved.
    /// Only inside the box's barrier.
    @inlinable
    func attachInBarrier(_ handler: inout Handlers<T>) -> UInt32? {
        guard let token = sealant.attach(&handler) else { return nil }
        status.markAttached()
        return token
    }
}

extension SealantBox {
    /// Stores `value`, publishes the `resolved` bit, and returns the handlers the box held, for
    /// the caller to run, or `nil` if it has resolved already. Only inside the box's barrier,
    /// from ``settleInBarrier(with:upstream:)`` or, when the box is cancelled, from
    /// ``settleCancelled(with:handingOver:)``, which marks it in the same barrier.
    ///
    /// Through ``SealantStorage``, whose metadata the box's class holds, for the sake of that
    /// second caller, which is never specialized.
    @inlinable
    final func resolveInBarrier(with value: T) -> Handlers<T>? {
        guard let handlers = storage.resolve(with: value) else { return nil }
        status.markResolved()
        return handlers
    }

    /// Resolves the box with `value` as ``resolveInBarrier(with:)`` does, and moves the upstream
    /// it no longer needs into `upstream`, which must be empty, for the caller to tell. Returns
    /// the handlers to run and the token of the box's attachment to that upstream, or `nil` if
    /// the box has resolved already. Only inside the box's barrier.
    @inlinable
    final func settleInBarrier(with value: T, upstream: inout Upstream?) -> (
        handlers: Handlers<T>, token: UInt32
    )? {
        guard let handlers = resolveInBarrier(with: value) else { return nil }
        return (handlers, takeUpstream(into: &upstream))
    }
}
