/// A box born resolved. Its value never changes, so it needs no synchronization.
@usableFromInline
final class SealedBox<T: Sendable>: Sendable {
    @usableFromInline
    let value: T

    @inlinable
    init(_ value: T) {
        self.value = value
    }

    /// Runs `handler` with the value, at once, on this thread, with no failure's origin
    /// delivered: a sealed box's value is never a failure whose start Vow saw, so its handler
    /// must not see that of a failure whose handler may be running on this thread (see
    /// ``FailureOrigin/current``). Debug builds only; release builds call the handler.
    #if DEBUG
    @inlinable
    func run(_ handler: (T) -> Void) {
        let outer = Trampoline.deliver(RecordedSite())
        handler(value)
        Trampoline.restore(outer)
    }
    #endif
}
