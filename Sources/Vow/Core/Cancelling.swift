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
    /// ``BoxCore/markCancelled(settlingWith:handingOver:)`` with the addresses typed, so that
    /// callers pass them with `&`: a conversion the compiler makes itself, where
    /// `withUnsafePointer`, in code that is never specialized, would call a generic function
    /// that looks up the metadata of every type its closure touches.
    @inline(__always)
    func markCancelled(
        settlingWithValueAt value: UnsafePointer<T>, handingOver handlers: UnsafeMutablePointer<Handlers<T>>
    ) -> (marked: Bool, upstream: ConsumerLink) {
        markCancelled(settlingWith: UnsafeRawPointer(value), handingOver: UnsafeMutableRawPointer(handlers))
    }

    /// ``BoxCore/takeBack(_:into:settling:with:handingOver:)`` with the addresses typed, for
    /// the reason ``markCancelled(settlingWithValueAt:handingOver:)`` gives: for a box that
    /// gives up settled with the value at `value`.
    @inline(__always)
    func takeBack(
        _ token: UInt32, into removed: UnsafeMutablePointer<Handlers<T>>,
        settlingWithValueAt value: UnsafePointer<T>,
        handingOver handlers: UnsafeMutablePointer<Handlers<T>>
    ) -> (gaveUp: Bool, upstream: ConsumerLink?) {
        takeBack(
            token, into: UnsafeMutableRawPointer(removed), settling: true, with: UnsafeRawPointer(value),
            handingOver: UnsafeMutableRawPointer(handlers))
    }

    /// ``BoxCore/takeBack(_:into:settling:with:handingOver:)`` with the address typed, for a
    /// box that has no value to settle with: a guarantee's, which is cancelled in the same
    /// barrier if `settling`, or any box, cancelled afterwards if it gives up.
    @inline(__always)
    func takeBack(_ token: UInt32, into removed: UnsafeMutablePointer<Handlers<T>>, settling: Bool) -> (
        gaveUp: Bool, upstream: ConsumerLink?
    ) {
        takeBack(
            token, into: UnsafeMutableRawPointer(removed), settling: settling, with: nil, handingOver: nil)
    }

    /// Cancels the box as ``BoxCore/cancel()`` does, resolving it with `value` if given, as a
    /// ``Finalizer`` resolves with `()`: its chain has finished.
    @usableFromInline
    func cancel(resolvingWith value: T?) {
        withdraw(afterCancelling: cancelNow(resolvingWith: value))
    }

    /// Cancels this box alone and returns its upstream, which the caller must tell: resolves
    /// it with `value`, or else with its ``CancellationRejectable/cancellationRejection`` if it
    /// has one, and runs its handlers.
    @usableFromInline
    func cancelNow(resolvingWith value: T?) -> ConsumerLink {
        guard var value = value ?? Self.cancellationValue else {
            return markCancelled(settlingWith: nil, handingOver: nil).upstream
        }
        var handlers = Handlers<T>.none
        let upstream = markCancelled(settlingWithValueAt: &value, handingOver: &handlers).upstream
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
            state.runNow = state.box.with { box in
                box.addCancelHooksInBarrier(state.hooks, leavingPending: state.leavingPending)
            }
        }
        if state.runNow {
            hook()
        }
    }
}
