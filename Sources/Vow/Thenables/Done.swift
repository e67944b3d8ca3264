public import Dispatch

extension Thenable {
    /// Consumes the fulfilled value at the end of a chain.
    ///
    /// The returned promise fulfils once `body` has run, or rejects with this thenable's error
    /// or the one `body` throws. End the chain with `catch`.
    ///
    /// ```swift
    /// fetchScore().done { score in
    ///     label.text = "\(score)"
    /// }.catch { error in
    ///     label.text = "unavailable"
    /// }
    /// ```
    @inlinable
    public func done(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<Void> {
        chainValue(on: HandlerQueue(on, flags), with: body) { value, body, next in
            try body(value)
            next.seal(.success(()))
        }
    }
}

extension Guarantee {
    /// Consumes the value at the end of a chain that cannot fail.
    ///
    /// ```swift
    /// after(seconds: 1).done { print("tick") }
    /// ```
    @inlinable
    @discardableResult
    public func done(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<Void> {
        chainGuarantee(on: HandlerQueue(on, flags), with: body) { value, body, next in
            body(value)
            next.seal(())
        }
    }
}
