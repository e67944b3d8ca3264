/// A box born resolved. Its value never changes, so it needs no synchronization.
@usableFromInline
final class SealedBox<T: Sendable>: Sendable {
    @usableFromInline
    let value: T

    @inlinable
    init(_ value: T) {
        self.value = value
    }
}
