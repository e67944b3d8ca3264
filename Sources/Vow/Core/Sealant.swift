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

    /// Adds `handler` to a pending sealant; returns `false`, leaving it unchanged, if resolved.
    @inlinable
    mutating func attach(_ handler: @escaping Handlers<R>.Body) -> Bool {
        guard case .pending(var handlers) = self else { return false }
        // Drop the sealant's own reference first, so the list below is unique and grows in place.
        self = .pending(Handlers())
        handlers.append(handler)
        self = .pending(handlers)
        return true
    }
}
