/// Tells work whether the promise it will settle has been cancelled, for work that checks now
/// and then whether to go on.
///
/// Handed to the body of `DispatchQueue.async(.promise) { cancellation in … }`; a body that
/// creates its promise with a ``Resolver`` reads ``Resolver/isCancelled`` instead.
///
/// ```swift
/// DispatchQueue.global().async(.promise) { cancellation in
///     try frames.map { frame in
///         if cancellation.isCancelled { throw PromiseError.cancelled }
///         return draw(frame)
///     }
/// }
/// ```
public struct CancellationToken: Sendable {
    @usableFromInline
    let isCancelledNow: @Sendable () -> Bool

    @inlinable
    init<T>(_ box: EmptyBox<T>) {
        isCancelledNow = { box.isCancelled }
    }

    /// Whether the promise has been cancelled: its result is no longer wanted.
    ///
    /// ```swift
    /// let total = DispatchQueue.global().async(.promise) { token in
    ///     var sum = 0
    ///     for n in 1...1_000_000 where !token.isCancelled { sum += n }
    ///     return sum
    /// }
    /// ```
    @inlinable
    public var isCancelled: Bool {
        isCancelledNow()
    }
}
