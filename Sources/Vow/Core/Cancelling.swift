internal import CVowCore

/// A box value that stands for "cancelled". A promise's box has one, a rejection with
/// ``PromiseError/cancelled``; a guarantee's has none, so a cancelled guarantee stays pending.
@usableFromInline
protocol CancellationRejectable {
    static var cancellationRejection: Self { get }
}

extension Result: CancellationRejectable where Failure == any Error {
    @usableFromInline
    static var cancellationRejection: Self { .failure(PromiseError.cancelled) }
}

extension EmptyBox {
    /// Cancels the box as ``BoxCore/cancel()`` does, resolving it with `value` if given, as a
    /// ``Finalizer`` resolves with `()`: its chain has finished.
    @usableFromInline
    func cancel(resolvingWith value: T?) {
        guard let upstream = cancelNow(resolvingWith: value) else { return }
        Upstream.withdraw(from: upstream, cancelling: true)
    }

    /// Cancels this box alone and returns its upstream, which the caller must tell.
    @usableFromInline
    func cancelNow(resolvingWith value: T?) -> Upstream? {
        let rejection = value ?? (T.self as? any CancellationRejectable.Type)?.cancellationRejection as? T
        var state = (
            box: Unretained(self), rejection: rejection, handlers: Handlers<T>.none, upstream: Upstream?.none
        )
        queue.write(&state) { state in
            let unretained = state.box
            unretained.with { box in
                guard case .pending = box.sealant, !box.interest.isCancelled else { return }
                box.interest.markCancelled()
                swap(&state.upstream, &box.upstream)
                guard let rejection = state.rejection, let handlers = box.sealant.resolve(with: rejection)
                else {
                    return
                }
                vow_store_releasing(box.phaseAddress, Phase.resolved.rawValue)
                state.handlers = handlers
            }
        }
        if let rejection {
            run(state.handlers, with: rejection, as: .call)
        }
        return state.upstream
    }

    /// Registers a way to stop the work that will resolve this box, a box with no other
    /// upstream. It runs at once if the box was cancelled already, and never if the box
    /// resolves otherwise.
    @usableFromInline
    func onCancel(_ hook: @escaping @Sendable () -> Void) {
        // The hook travels in its own object, which becomes the upstream if it is the first:
        // a closure in the block's state would be wrapped in a thunk (see `BarrierQueue`).
        var state = (box: Unretained(self), hooks: CancelHooks(hook), runNow: false)
        queue.write(&state) { state in
            let unretained = state.box
            unretained.with { box in
                guard case .pending = box.sealant, !box.interest.isCancelled else {
                    state.runNow = box.interest.isCancelled
                    return
                }
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
