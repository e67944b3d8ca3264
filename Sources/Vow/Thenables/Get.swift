public import Dispatch

extension Thenable {
    /// Looks at the fulfilled value without changing it.
    ///
    /// A throw from `body` rejects; otherwise the value passes on unchanged.
    ///
    /// ```swift
    /// fetchUser().get { user in
    ///     cache.store(user)
    /// }.then { user in
    ///     fetchAvatar(for: user)
    /// }
    /// ```
    @inlinable
    public func get(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<T> {
        chainValue(on: HandlerQueue(on, flags), with: body) { value, body, next in
            try body(value)
            next.seal(.success(value))
        }
    }

    /// Looks at the result, value or error, without changing it. Useful for logging.
    ///
    /// ```swift
    /// fetchUser().tap { result in
    ///     print("fetchUser:", result)
    /// }
    /// ```
    @inlinable
    public func tap(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Promise<T> {
        chainResult(on: HandlerQueue(on, flags), with: body) { result, body, next in
            body(result)
            next.seal(result)
        }
    }
}

extension Guarantee {
    /// Looks at the result without changing it, keeping the result a ``Guarantee``. The result
    /// of a guarantee is always a success.
    ///
    /// ```swift
    /// after(seconds: 1).map { "tick" }.tap { print("timer:", $0) }
    /// ```
    @inlinable
    @discardableResult
    public func tap(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Guarantee<T> {
        get(on: on, flags: flags) { body(.success($0)) }
    }

    /// Looks at the value without changing it, keeping the result a ``Guarantee``.
    ///
    /// ```swift
    /// currentLocation().get { print("at", $0) }.map(geocode)
    /// ```
    @inlinable
    @discardableResult
    public func get(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<T> {
        chainGuarantee(on: HandlerQueue(on, flags), with: body) { value, body, next in
            body(value)
            next.seal(value)
        }
    }
}
