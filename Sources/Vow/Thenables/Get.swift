public import Dispatch

extension Thenable {
    /// Looks at the fulfilled value without changing it.
    ///
    /// A throw from `body` rejects; otherwise the value passes on unchanged. `body` runs in
    /// the isolation of the code that wrote it, otherwise on `conf.Q.return`.
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
        @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (T) throws -> Void
    ) -> Promise<T> {
        get(via: HandlerQueue(isolation: body.isolation, else: conf.Q.return), synchronous(body))
    }

    /// Looks at the fulfilled value on `on`, or inline when `on` is `nil`, without changing it.
    ///
    /// ```swift
    /// fetchUser().get(on: nil) { print("fetched", $0.id) }
    /// ```
    @inlinable
    public func get(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<T> {
        get(via: HandlerQueue(on, flags), body)
    }

    /// Looks at the fulfilled value through `dispatcher` without changing it.
    ///
    /// ```swift
    /// fetchUser().get(on: .inline) { print("fetched", $0.id) }
    /// ```
    @inlinable
    public func get(
        on dispatcher: some Dispatcher,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<T> {
        get(via: HandlerQueue(dispatcher), body)
    }

    @inlinable
    func get(via queue: HandlerQueue, _ body: @escaping @Sendable (T) throws -> Void) -> Promise<T> {
        chainValue(on: queue, with: body) { value, body, next in
            try body(value)
            next.seal(.success(value))
        }
    }

    /// Looks at the result, value or error, without changing it. Useful for logging.
    ///
    /// `body` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchUser().tap { result in
    ///     print("fetchUser:", result)
    /// }
    /// ```
    @inlinable
    public func tap(
        @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (Result<T, any Error>) -> Void
    ) -> Promise<T> {
        tap(via: HandlerQueue(isolation: body.isolation, else: conf.Q.map), synchronous(body))
    }

    /// Looks at the result on `on`, or inline when `on` is `nil`, without changing it.
    ///
    /// ```swift
    /// fetchUser().tap(on: nil) { print("fetchUser:", $0) }
    /// ```
    @inlinable
    public func tap(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Promise<T> {
        tap(via: HandlerQueue(on, flags), body)
    }

    /// Looks at the result through `dispatcher` without changing it.
    ///
    /// ```swift
    /// fetchUser().tap(on: logOperations) { print("fetchUser:", $0) }
    /// ```
    @inlinable
    public func tap(
        on dispatcher: some Dispatcher,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Promise<T> {
        tap(via: HandlerQueue(dispatcher), body)
    }

    @inlinable
    func tap(via queue: HandlerQueue, _ body: @escaping @Sendable (Result<T, any Error>) -> Void) -> Promise<
        T
    > {
        chainResult(on: queue, with: body) { result, body, next in
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
        @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (Result<T, any Error>) -> Void
    ) -> Guarantee<T> {
        let queue = HandlerQueue(isolation: body.isolation, else: conf.Q.map)
        let body = synchronous(body)
        return get(via: queue) { body(.success($0)) }
    }

    /// Looks at the result on `on`, or inline when `on` is `nil`, keeping a ``Guarantee``.
    ///
    /// ```swift
    /// after(seconds: 1).tap(on: nil) { print("timer:", $0) }
    /// ```
    @inlinable
    @discardableResult
    public func tap(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Guarantee<T> {
        get(via: HandlerQueue(on, flags)) { body(.success($0)) }
    }

    /// Looks at the result through `dispatcher`, keeping a ``Guarantee``.
    ///
    /// ```swift
    /// after(seconds: 1).tap(on: .inline) { print("timer:", $0) }
    /// ```
    @inlinable
    @discardableResult
    public func tap(
        on dispatcher: some Dispatcher,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Guarantee<T> {
        get(via: HandlerQueue(dispatcher)) { body(.success($0)) }
    }

    /// Looks at the value without changing it, keeping the result a ``Guarantee``.
    ///
    /// ```swift
    /// currentLocation().get { print("at", $0) }.map(geocode)
    /// ```
    @inlinable
    @discardableResult
    public func get(
        @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (T) -> Void
    ) -> Guarantee<T> {
        get(via: HandlerQueue(isolation: body.isolation, else: conf.Q.return), synchronous(body))
    }

    /// Looks at the value on `on`, or inline when `on` is `nil`, keeping a ``Guarantee``.
    ///
    /// ```swift
    /// currentLocation().get(on: nil) { print("at", $0) }
    /// ```
    @inlinable
    @discardableResult
    public func get(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<T> {
        get(via: HandlerQueue(on, flags), body)
    }

    /// Looks at the value through `dispatcher`, keeping a ``Guarantee``.
    ///
    /// ```swift
    /// currentLocation().get(on: .inline) { print("at", $0) }
    /// ```
    @inlinable
    @discardableResult
    public func get(
        on dispatcher: some Dispatcher,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<T> {
        get(via: HandlerQueue(dispatcher), body)
    }

    @inlinable
    func get(via queue: HandlerQueue, _ body: @escaping @Sendable (T) -> Void) -> Guarantee<T> {
        chainGuarantee(on: queue, with: body) { value, body, next in
            body(value)
            next.seal(value)
        }
    }
}
