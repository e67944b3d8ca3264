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
