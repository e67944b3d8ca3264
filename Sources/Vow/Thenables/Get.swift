public import Dispatch

extension Thenable {
    /// Looks at the fulfilled value without changing it.
    ///
    /// A throw from `body` rejects; otherwise the value passes on unchanged. `body` runs in
    /// the isolation of the code that wrote it, otherwise on `conf.Q.return`.
    ///
    /// ```swift
    /// fetchUser(id: 1).get { user in
    ///     cache.store(user)
    /// }.then { user in
    ///     fetchAvatar(for: user)
    /// }
    /// ```
    @inlinable
    public func get(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (T) throws -> Void
    ) -> Promise<T> {
        get(via: PlacedHandler(body, else: .return), madeAt: RecordedSite("get", fileID: file, line: line))
    }

    /// Looks at the fulfilled value on `on`, or inline when `on` is `nil`, without changing it.
    ///
    /// ```swift
    /// fetchUser(id: 1).get(on: nil) { print("fetched", $0.id) }
    /// ```
    @inlinable
    public func get(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<T> {
        get(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("get", fileID: file, line: line))
    }

    /// Looks at the fulfilled value through `dispatcher` without changing it.
    ///
    /// ```swift
    /// fetchUser(id: 1).get(on: .inline) { print("fetched", $0.id) }
    /// ```
    @inlinable
    public func get(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<T> {
        get(via: PlacedHandler(on: dispatcher, body), madeAt: RecordedSite("get", fileID: file, line: line))
    }

    @inlinable
    func get(
        via handler: PlacedHandler<@Sendable (T) throws -> Void>, madeAt site: RecordedSite
    ) -> Promise<T> {
        Promise(chain(on: handler.queue, GetStep(handler.body), madeAt: site))
    }

    /// Looks at the result, value or error, without changing it. Useful for logging.
    ///
    /// `body` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchUser(id: 1).tap { result in
    ///     print("fetchUser:", result)
    /// }
    /// ```
    @inlinable
    public func tap(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body:
            @escaping @isolated(any) @Sendable (Result<T, any Error>) -> Void
    ) -> Promise<T> {
        tap(via: PlacedHandler(body, else: .map), madeAt: RecordedSite("tap", fileID: file, line: line))
    }

    /// Looks at the result on `on`, or inline when `on` is `nil`, without changing it.
    ///
    /// ```swift
    /// fetchUser(id: 1).tap(on: nil) { print("fetchUser:", $0) }
    /// ```
    @inlinable
    public func tap(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Promise<T> {
        tap(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("tap", fileID: file, line: line))
    }

    /// Looks at the result through `dispatcher` without changing it.
    ///
    /// ```swift
    /// fetchUser(id: 1).tap(on: logOperations) { print("fetchUser:", $0) }
    /// ```
    @inlinable
    public func tap(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Promise<T> {
        tap(via: PlacedHandler(on: dispatcher, body), madeAt: RecordedSite("tap", fileID: file, line: line))
    }

    @inlinable
    func tap(
        via handler: PlacedHandler<@Sendable (Result<T, any Error>) -> Void>,
        madeAt site: RecordedSite
    ) -> Promise<T> {
        Promise(chain(on: handler.queue, TapStep(handler.body), madeAt: site))
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
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body:
            @escaping @isolated(any) @Sendable (Result<T, any Error>) -> Void
    ) -> Guarantee<T> {
        tap(via: PlacedHandler(body, else: .map), madeAt: RecordedSite("tap", fileID: file, line: line))
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
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Guarantee<T> {
        tap(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("tap", fileID: file, line: line))
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
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> Guarantee<T> {
        tap(via: PlacedHandler(on: dispatcher, body), madeAt: RecordedSite("tap", fileID: file, line: line))
    }

    @inlinable
    func tap(
        via handler: PlacedHandler<@Sendable (Result<T, any Error>) -> Void>, madeAt site: RecordedSite
    ) -> Guarantee<T> {
        get(via: handler.map { body in { @Sendable in body(.success($0)) } }, madeAt: site)
    }

    /// Looks at the value without changing it, keeping the result a ``Guarantee``.
    ///
    /// ```swift
    /// currentLocation().get { print("at", $0) }.map(geocode)
    /// ```
    @inlinable
    @discardableResult
    public func get(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (T) -> Void
    ) -> Guarantee<T> {
        get(via: PlacedHandler(body, else: .return), madeAt: RecordedSite("get", fileID: file, line: line))
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
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<T> {
        get(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("get", fileID: file, line: line))
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
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<T> {
        get(via: PlacedHandler(on: dispatcher, body), madeAt: RecordedSite("get", fileID: file, line: line))
    }

    @inlinable
    func get(
        via handler: PlacedHandler<@Sendable (T) -> Void>, madeAt site: RecordedSite
    ) -> Guarantee<T> {
        Guarantee(chain(on: handler.queue, GuaranteeGetStep(handler.body), madeAt: site))
    }
}

/// The step of a promise's `get`: the value, passed on once the body has seen it.
@usableFromInline
struct GetStep<Value: Sendable>: ValueStep {
    @usableFromInline
    let body: @Sendable (Value) throws -> Void

    @inlinable
    init(_ body: @escaping @Sendable (Value) throws -> Void) {
        self.body = body
    }

    @inlinable
    func run(_ value: Value, settling box: EmptyBox<Result<Value, any Error>>) throws {
        try body(value)
        box.seal(.success(value))
    }
}

/// The step of `tap`: the result, passed on once the body has seen it.
@usableFromInline
struct TapStep<Value: Sendable>: ResultStep {
    @usableFromInline
    let body: @Sendable (Result<Value, any Error>) -> Void

    @inlinable
    init(_ body: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        self.body = body
    }

    @inlinable
    func run(_ result: Result<Value, any Error>, settling box: EmptyBox<Result<Value, any Error>>) {
        body(result)
        box.seal(result)
    }
}

/// The step of a guarantee's `get`: the value, passed on once the body has seen it.
@usableFromInline
struct GuaranteeGetStep<Input: Sendable>: GuaranteeValueStep {
    @usableFromInline
    let body: @Sendable (Input) -> Void

    @inlinable
    init(_ body: @escaping @Sendable (Input) -> Void) {
        self.body = body
    }

    @inlinable
    func run(_ value: Input, settling box: EmptyBox<Input>) {
        body(value)
        box.seal(value)
    }
}
