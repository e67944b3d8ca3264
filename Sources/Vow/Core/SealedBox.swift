/// A box born resolved. Its value never changes, so it needs no synchronization.
@usableFromInline
final class SealedBox<T: Sendable>: Sendable {
    @usableFromInline
    let value: T

    @inlinable
    init(_ value: T) {
        self.value = value
    }

    /// Runs `handler` with the value, at once, on this thread. In a debug build no failure's
    /// origin is delivered meanwhile: a sealed box's value is never a failure whose start Vow
    /// saw, so its handler must not see that of a failure whose handler may be running on this
    /// thread (see ``FailureOrigin/current``). A release build only calls the handler.
    @inlinable
    func run(_ handler: (T) -> Void) {
        #if DEBUG
        let outer = Trampoline.deliver(RecordedSite())
        handler(value)
        Trampoline.restore(outer)
        #else
        handler(value)
        #endif
    }
}
