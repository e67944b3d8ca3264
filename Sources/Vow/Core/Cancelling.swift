internal import CVowCore

/// A box value that stands for "cancelled". A promise's box has one, a rejection with
/// ``PromiseError/cancelled``; a guarantee's has none, so a cancelled guarantee stays pending.
@usableFromInline
protocol CancellationRejectable {
    static var cancellationRejection: Self { get }
}

extension CancellationRejectable {
    /// ``cancellationRejection`` as a `Value`, the type this one is known to be.
    @inlinable
    static func cancellationRejection<Value>(as _: Value.Type) -> Value {
        cancellationRejection as! Value
    }
}

extension Result: CancellationRejectable where Failure == any Error {
    @usableFromInline
    static var cancellationRejection: Self { .failure(PromiseError.cancelled) }
}

extension SealantBox {
    /// Cancels the box as ``BoxCore/cancel()`` does, resolving it with `value` if given, as a
    /// ``Finalizer`` resolves with `()`: its chain has finished.
    @usableFromInline
    func cancel(resolvingWith value: T?) {
        guard let upstream = cancelNow(resolvingWith: value) else { return }
        Upstream.withdraw(from: upstream, cancelling: true)
    }

    /// Cancels this box alone and returns its upstream, which the caller must tell: resolves
    /// it with `value`, or else with its ``CancellationRejectable/cancellationRejection`` if it
    /// has one, and runs its handlers.
    @usableFromInline
    func cancelNow(resolvingWith value: T?) -> Upstream? {
        guard
            let value = value
                ?? (T.self as? any CancellationRejectable.Type)?.cancellationRejection(as: T.self)
        else {
            return markCancelled(settlingWith: nil, handingOver: nil).upstream
        }
        var handlers = Handlers<T>.none
        let upstream = withUnsafePointer(to: value) { value in
            withUnsafeMutablePointer(to: &handlers) { handlers in
                markCancelled(settlingWith: value, handingOver: handlers).upstream
            }
        }
        run(handlers, with: value, as: .call)
        return upstream
    }

    /// Registers a way to stop the work that will resolve this box, a box with no other
    /// upstream. It runs at once if the box was cancelled already, and never if the box
    /// resolves otherwise. With `leavingPending`, a cancellation from then on leaves the box
    /// pending, for the work to settle once it has stopped.
    @usableFromInline
    func onCancel(leavingPending: Bool = false, _ hook: @escaping @Sendable () -> Void) {
        // The hook travels in its own object, which becomes the upstream if it is the first:
        // a closure in the block's state would be wrapped in a thunk (see `BarrierQueue`).
        var state = (
            box: Unretained(self), hooks: CancelHooks(hook), leavingPending: leavingPending, runNow: false
        )
        queue.write(&state) { state in
            let unretained = state.box
            unretained.with { box in
                guard case .pending = box.sealant, !box.interest.isCancelled else {
                    state.runNow = box.interest.isCancelled
                    return
                }
                if state.leavingPending { box.interest.markSettledByItsWork() }
                if let hooks = box.upstream as? CancelHooks {
                    hooks.hooks.append(contentsOf: state.hooks.hooks)
                } else {
                    precondition(
                        box.upstream == nil, "Vow internal error: cancel hooks on a box that waits on another"
                    )
                    box.upstream = state.hooks
                }
            }
        }
        if state.runNow {
            hook()
        }
    }
}
