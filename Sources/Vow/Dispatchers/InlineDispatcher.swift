/// Runs a handler at once, inside the call that dispatches it: on the thread that resolved the
/// thenable, or on the thread that attached the handler if the thenable had resolved already.
///
/// It is `on: nil` under another name, for code that holds a ``Dispatcher``.
///
/// ```swift
/// let dispatcher: any Dispatcher = testing ? .inline : DispatchQueue.main
/// fetchUser(id: id).map(on: dispatcher) { $0.name }
/// ```
public struct InlineDispatcher: Dispatcher {
    /// The inline dispatcher; `.inline` where a ``Dispatcher`` is expected.
    public init() {}

    /// Runs `work` now.
    public func dispatch(_ work: @escaping @Sendable () -> Void) {
        work()
    }
}

extension Dispatcher where Self == InlineDispatcher {
    /// Runs handlers at once, on the thread that resolves the thenable.
    ///
    /// ```swift
    /// Promise.value(21).map(on: .inline) { $0 * 2 }
    /// ```
    public static var inline: InlineDispatcher { InlineDispatcher() }
}
