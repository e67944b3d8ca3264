public import Dispatch

extension Thenable {
    /// Transforms the fulfilled value.
    ///
    /// A rejection skips `transform`; a throw from `transform` rejects.
    ///
    /// ```swift
    /// fetchData().map { data in
    ///     try JSONDecoder().decode(User.self, from: data)
    /// }
    /// ```
    ///
    /// `transform` runs in the isolation of the code that wrote it: on the main actor in
    /// `@MainActor` code, on the actor in an actor's method, otherwise on `conf.Q.map`.
    @inlinable
    public func map<U>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T) throws -> U
    ) -> Promise<U> {
        map(via: PlacedHandler(transform, else: .map), madeAt: RecordedSite("map", fileID: file, line: line))
    }

    /// Transforms the fulfilled value on `on`, or inline when `on` is `nil`.
    ///
    /// `transform` is nonisolated: it may not touch the state of the actor that wrote it.
    ///
    /// ```swift
    /// fetchData().map(on: .global()) { data in
    ///     try JSONDecoder().decode(User.self, from: data)
    /// }
    /// ```
    @inlinable
    public func map<U>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T) throws -> U
    ) -> Promise<U> {
        map(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("map", fileID: file, line: line))
    }

    /// Transforms the fulfilled value through `dispatcher`.
    ///
    /// `transform` is nonisolated, as with a queue.
    ///
    /// ```swift
    /// fetchData().map(on: decodingOperations) { data in
    ///     try JSONDecoder().decode(User.self, from: data)
    /// }
    /// ```
    @inlinable
    public func map<U>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T) throws -> U
    ) -> Promise<U> {
        map(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("map", fileID: file, line: line))
    }

    @inlinable
    func map<U>(
        via handler: PlacedHandler<@Sendable (T) throws -> U>, madeAt site: RecordedSite
    ) -> Promise<U> {
        Promise(chain(on: handler.queue, MapStep(handler.body), madeAt: site))
    }

    /// Transforms the fulfilled value, rejecting when the transform returns `nil`.
    ///
    /// A `nil` rejects with ``PromiseError/compactMap(_:_:)``, which names the input and the
    /// expected type. `transform` runs in the isolation of the code that wrote it, as with
    /// ``map(file:line:_:)``.
    ///
    /// ```swift
    /// fetchText().compactMap { Int($0) }
    /// ```
    @inlinable
    public func compactMap<U>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T) throws -> U?
    ) -> Promise<U> {
        compactMap(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("compactMap", fileID: file, line: line))
    }

    /// Transforms the fulfilled value on `on`, rejecting when the transform returns `nil`.
    ///
    /// ```swift
    /// fetchText().compactMap(on: nil) { Int($0) }
    /// ```
    @inlinable
    public func compactMap<U>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T) throws -> U?
    ) -> Promise<U> {
        compactMap(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("compactMap", fileID: file, line: line))
    }

    /// Transforms the fulfilled value through `dispatcher`, rejecting when the transform returns
    /// `nil`.
    ///
    /// ```swift
    /// fetchText().compactMap(on: .inline) { Int($0) }
    /// ```
    @inlinable
    public func compactMap<U>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T) throws -> U?
    ) -> Promise<U> {
        compactMap(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("compactMap", fileID: file, line: line))
    }

    @inlinable
    func compactMap<U>(
        via handler: PlacedHandler<@Sendable (T) throws -> U?>, madeAt site: RecordedSite
    ) -> Promise<U> {
        Promise(chain(on: handler.queue, CompactMapStep(handler.body), madeAt: site))
    }

    /// Discards the fulfilled value, keeping only whether the work succeeded.
    ///
    /// ```swift
    /// func save() -> Promise<Void> { upload(record).asVoid() }
    /// ```
    @inlinable
    public func asVoid(file: StaticString = #fileID, line: UInt = #line) -> Promise<Void> {
        map(
            via: PlacedHandler(on: nil) { @Sendable _ in },
            madeAt: RecordedSite("asVoid", fileID: file, line: line))
    }
}

extension Guarantee {
    /// Transforms the value, keeping the result a ``Guarantee``.
    ///
    /// `transform` runs in the isolation of the code that wrote it, as with
    /// ``Thenable/map(file:line:_:)``.
    ///
    /// ```swift
    /// Guarantee.value(21).map { $0 * 2 }
    /// ```
    @inlinable
    public func map<U>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T) -> U
    ) -> Guarantee<U> {
        map(via: PlacedHandler(transform, else: .map), madeAt: RecordedSite("map", fileID: file, line: line))
    }

    /// Transforms the value on `on`, or inline when `on` is `nil`, keeping the result a
    /// ``Guarantee``.
    ///
    /// ```swift
    /// Guarantee.value(21).map(on: nil) { $0 * 2 }
    /// ```
    @inlinable
    public func map<U>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T) -> U
    ) -> Guarantee<U> {
        map(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("map", fileID: file, line: line))
    }

    /// Transforms the value through `dispatcher`, keeping the result a ``Guarantee``.
    ///
    /// ```swift
    /// Guarantee.value(21).map(on: .inline) { $0 * 2 }
    /// ```
    @inlinable
    public func map<U>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T) -> U
    ) -> Guarantee<U> {
        map(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("map", fileID: file, line: line))
    }

    @inlinable
    func map<U>(
        via handler: PlacedHandler<@Sendable (T) -> U>, madeAt site: RecordedSite
    ) -> Guarantee<U> {
        Guarantee<U>(chain(on: handler.queue, GuaranteeMapStep(handler.body), madeAt: site))
    }

    /// Discards the value.
    @inlinable
    public func asVoid(file: StaticString = #fileID, line: UInt = #line) -> Guarantee<Void> {
        map(
            via: PlacedHandler(on: nil) { @Sendable _ in },
            madeAt: RecordedSite("asVoid", fileID: file, line: line))
    }
}

/// The step of a promise's `map` and `done`: the value, transformed.
@usableFromInline
struct MapStep<Admitted: Sendable, Value: Sendable>: ValueStep {
    @usableFromInline
    let transform: @Sendable (Admitted) throws -> Value

    @inlinable
    init(_ transform: @escaping @Sendable (Admitted) throws -> Value) {
        self.transform = transform
    }

    @inlinable
    func run(_ value: Admitted, settling box: EmptyBox<Result<Value, any Error>>) throws {
        box.seal(.success(try transform(value)))
    }
}

/// The step of `compactMap`: the value, transformed, or a rejection naming it if the transform
/// returns `nil`.
@usableFromInline
struct CompactMapStep<Admitted: Sendable, Value: Sendable>: ValueStep {
    @usableFromInline
    let transform: @Sendable (Admitted) throws -> Value?

    @inlinable
    init(_ transform: @escaping @Sendable (Admitted) throws -> Value?) {
        self.transform = transform
    }

    @inlinable
    func run(_ value: Admitted, settling box: EmptyBox<Result<Value, any Error>>) throws {
        guard let transformed = try transform(value) else {
            throw PromiseError.compactMap(value, Value.self)
        }
        box.seal(.success(transformed))
    }
}

/// The step of a guarantee's `map` and `done`: the value, transformed.
@usableFromInline
struct GuaranteeMapStep<Input: Sendable, Output: Sendable>: GuaranteeValueStep {
    @usableFromInline
    let transform: @Sendable (Input) -> Output

    @inlinable
    init(_ transform: @escaping @Sendable (Input) -> Output) {
        self.transform = transform
    }

    @inlinable
    func run(_ value: Input, settling box: EmptyBox<Output>) {
        box.seal(transform(value))
    }
}
