/// The storage beneath every promise and guarantee: a result that arrives once.
///
/// `Box` has two kinds. A ``SealedBox`` is born resolved and needs no synchronization;
/// an ``EmptyBox`` is born pending and guards its state with a concurrent barrier queue.
/// Everything above the core talks to a box through these three members only.
// @unchecked: the base class holds no state; each subclass documents its own guarantee.
class Box<T: Sendable>: @unchecked Sendable {
    typealias Handler = @Sendable (T) -> Void

    /// The result, or `nil` while the box is pending.
    var resolution: T? {
        preconditionFailure("Box is abstract: use SealedBox or EmptyBox")
    }

    /// Runs `handler` with the result once it exists.
    ///
    /// Handlers attached to one box run in the order they were attached, also when an
    /// attachment races with ``seal(_:)``. A handler attached after resolution runs inline.
    func observe(_ handler: @escaping Handler) {
        preconditionFailure("Box is abstract: use SealedBox or EmptyBox")
    }

    /// Resolves the box. Only the first call has an effect; later ones are ignored.
    func seal(_ value: T) {
        preconditionFailure("Box is abstract: use SealedBox or EmptyBox")
    }
}
