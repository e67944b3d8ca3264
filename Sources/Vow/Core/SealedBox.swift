/// A box born resolved. Its value never changes, so it needs no synchronization.
@usableFromInline
final class SealedBox<T: Sendable>: Sendable {
    @usableFromInline
    let value: T

    @inlinable
    init(_ value: T) {
        self.value = value
    }

    /// Runs `handler` with the value, at once, on this thread, in a debug build. A sealed box's value is never a
    /// failure whose start Vow saw, so in a debug build the handler runs with no failure's
    /// origin delivered: not with that of the failure whose handler may be running on this
    /// thread (see ``FailureOrigin/current``).
    #if DEBUG
    @inlinable
    func run(_ handler: (T) -> Void) {
        let outer = Trampoline.deliver(RecordedSite())
        handler(value)
        Trampoline.restore(outer)
    }
    #endif
}
