/// The state of a pending box: still waiting with the handlers attached so far, or resolved.
///
/// Only ``EmptyBox`` stores a sealant; a ``SealedBox`` is resolved from birth and needs none.
enum Sealant<R: Sendable> {
    case pending(Handlers<R>)
    case resolved(R)
}

/// The handlers attached to a pending box, in attachment order.
///
/// A reference type so that appending to the list inside `Sealant.pending` does not copy
/// the enum payload. All access happens inside the owning box's barrier blocks.
final class Handlers<R: Sendable> {
    typealias Body = @Sendable (R) -> Void

    private var bodies: [Body] = []

    var isEmpty: Bool { bodies.isEmpty }

    func append(_ body: @escaping Body) {
        bodies.append(body)
    }

    /// Hands over every body attached so far and leaves the list empty for late arrivals.
    func takeAll() -> [Body] {
        defer { bodies = [] }
        return bodies
    }
}
