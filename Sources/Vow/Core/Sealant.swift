/// The state of an ``EmptyBox``: still waiting, with the handlers attached so far, or resolved.
///
/// Only ``EmptyBox`` stores a sealant; a ``SealedBox`` is resolved from birth and needs none.
@usableFromInline
enum Sealant<R: Sendable> {
    case pending(Handlers<R>)
    case resolved(R)

    /// The value, or `nil` while pending.
    @inlinable
    var value: R? {
        if case .resolved(let value) = self { value } else { nil }
    }

    /// Whether the sealant is pending with no handler attached.
    var isEmptyPending: Bool {
        if case .pending(.none) = self { true } else { false }
    }

    /// Resolves a pending sealant with `value` and returns the handlers it held, or returns
    /// `nil`, leaving it unchanged, if it has resolved already.
    @inlinable
    mutating func resolve(with value: R) -> Handlers<R>? {
        guard case .pending = self else { return nil }
        var pending = Sealant.resolved(value)
        swap(&self, &pending)
        guard case .pending(let handlers) = pending else { return nil }
        return handlers
    }

    /// Moves the one handler in `handler` to the end of a pending sealant's handlers, leaving
    /// `handler` empty, and returns its token; returns `nil`, leaving both unchanged, if the
    /// sealant has resolved.
    ///
    /// Moved rather than copied: a copy would retain the handler, and the caller release it.
    /// Carried in a ``Handlers`` rather than an optional, whose payload would be a closure
    /// behind a reabstracting thunk; see ``BarrierQueue``.
    @inlinable
    mutating func attach(_ handler: inout Handlers<R>) -> UInt32? {
        guard case .pending(var handlers) = self, case .one = handler else { return nil }
        var moved = Handlers<R>.none
        swap(&moved, &handler)
        guard case .one(let body) = moved else { return nil }
        // Drop the sealant's own reference first, so the list below is unique and grows in place.
        self = .pending(Handlers())
        let token = handlers.append(body)
        self = .pending(handlers)
        return token
    }

    /// Takes the handler attached as `token` out of a pending sealant's handlers into `removed`;
    /// returns whether it was there and no handler is left.
    @inlinable
    mutating func detach(_ token: UInt32, into removed: inout Handlers<R>) -> Bool {
        guard case .pending(var handlers) = self else { return false }
        // Dropped first, so that the list below is unique and changes in place.
        self = .pending(Handlers())
        let body = handlers.remove(token)
        let isEmpty = handlers.isEmpty
        self = .pending(handlers)
        guard let body else { return false }
        removed = .one(body)
        return isEmpty
    }
}
