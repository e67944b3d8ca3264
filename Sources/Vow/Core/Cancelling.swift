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
    /// Cancels the box: a promise's box rejects with ``PromiseError/cancelled`` and runs its
    /// handlers; a guarantee's is marked cancelled and stays pending, its steps no longer run.
    /// Then the upstream hears that this box no longer needs it, and so on up the chain, as
    /// far as nobody else needs each upstream (see ``Interest``).
    ///
    /// Does nothing to a box that has resolved or was cancelled already.
    @usableFromInline
    func cancel() {
        cancel(resolvingWith: nil)
    }

    /// Cancels the box as ``cancel()`` does, resolving it with `value` if given, as a
    /// ``Finalizer`` resolves with `()`: its chain has finished.
    @usableFromInline
    func cancel(resolvingWith value: T?) {
        guard let upstream = cancelNow(resolvingWith: value) else { return }
        Upstream.withdraw(from: upstream, cancelling: true)
    }

    /// Cancels this box alone and returns its upstream, which the caller must tell.
    @usableFromInline
    func cancelNow(resolvingWith value: T? = nil) -> Upstream? {
        let rejection = value ?? (T.self as? any CancellationRejectable.Type)?.cancellationRejection as? T
        let (handlers, upstream): (Handlers<T>, Upstream?) = queue.write {
            guard case .pending(let handlers) = sealant, !interest.isCancelled else { return (.none, nil) }
            interest.markCancelled()
            let upstream = self.upstream
            self.upstream = nil
            guard let rejection else { return (.none, upstream) }
            sealant = .resolved(rejection)
            vow_store_releasing(phaseAddress, Phase.resolved.rawValue)
            return (handlers, upstream)
        }
        if let rejection {
            run(handlers, with: rejection, as: .call)
        }
        return upstream
    }

    /// Counts a handle's release: the last one, after a consumer withdrew, cancels the box.
    @inlinable
    func releaseHandle() {
        guard phase == .pending, interest.releaseHandle() else { return }
        cancel()
    }

    /// Counts a consumer that never withdraws, or one more handle, while the box is pending.
    @inlinable
    func addHolder() {
        if phase == .pending {
            interest.addHolder()
        }
    }

    /// Whether the box was cancelled, directly or because nobody wanted its result any longer.
    @inlinable
    var isCancelled: Bool {
        interest.isCancelledAcquiring
    }

    /// Registers a way to stop the work that will resolve this box, a box with no other
    /// upstream. It runs at once if the box was cancelled already, and never if the box
    /// resolves otherwise.
    @usableFromInline
    func onCancel(_ hook: @escaping @Sendable () -> Void) {
        let runNow: Bool = queue.write {
            guard case .pending = sealant, !interest.isCancelled else { return interest.isCancelled }
            if let hooks = upstream as? CancelHooks {
                hooks.hooks.append(hook)
            } else {
                precondition(
                    upstream == nil, "Vow internal error: cancel hooks on a box that waits on another")
                upstream = CancelHooks(hook)
            }
            return false
        }
        if runNow {
            hook()
        }
    }
}
