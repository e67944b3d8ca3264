extension Thenable {
    /// The pending box behind this thenable, counted as having one more holder, for a new box
    /// that waits on it to keep as its upstream: cancelling that box then reaches this one.
    /// `nil` for a thenable that has resolved, or that is not Vow's own.
    ///
    /// The casts cost nothing once the operator is specialized for a concrete type.
    @inlinable
    var consumedBox: Upstream? {
        if let promise = self as? Promise<T> {
            return promise.box.consumed
        }
        if let guarantee = self as? Guarantee<T> {
            return guarantee.box.consumed
        }
        return nil
    }

    /// Runs `handler` with the result, as ``pipe(to:)`` does, without counting a consumer that
    /// never withdraws: for an operator whose new box counts as the consumer instead (see
    /// ``consumedBox``), or for code that holds this thenable until `handler` has run.
    @inlinable
    func attach(_ handler: @escaping @Sendable (Result<T, any Error>) -> Void) {
        if let promise = self as? Promise<T> {
            promise.box.observe(handler)
        } else if let guarantee = self as? Guarantee<T> {
            guarantee.box.observe { handler(.success($0)) }
        } else {
            pipe(to: handler)
        }
    }
}

extension Box {
    /// This box, if pending, counted as having one more holder; see ``Thenable/consumedBox``.
    @inlinable
    var consumed: Upstream? {
        guard case .empty(let box) = self, box.phase == .pending else { return nil }
        box.interest.addHolder()
        return box
    }

    /// Counts the release of one of this box's handles; see ``Interest``.
    @inlinable
    func releaseHandle() {
        if case .empty(let box) = self {
            box.releaseHandle()
        }
    }
}
