/// A box born resolved. Its value never changes, so it needs no synchronization.
// @unchecked: the only stored property is an immutable `let` of a Sendable type.
final class SealedBox<T: Sendable>: Box<T>, @unchecked Sendable {
    private let value: T

    init(_ value: T) {
        self.value = value
    }

    override var resolution: T? { value }

    override func observe(_ handler: @escaping Handler) {
        handler(value)
    }

    override func seal(_ value: T) {}
}
