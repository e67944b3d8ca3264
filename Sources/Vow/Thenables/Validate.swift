public import Dispatch

extension Thenable {
    /// Passes the fulfilled value on if `predicate` accepts it; rejects with `error` if not,
    /// or, without one, with ``PromiseError/validationFailed(_:)``, which carries the value.
    ///
    /// A rejection skips `predicate`; a throw from it rejects. `predicate` runs in the
    /// isolation of the code that wrote it, as with ``map(file:line:_:)``.
    ///
    /// ```swift
    /// fetchOrders().validate { !$0.isEmpty }.done { orders in
    ///     show(orders)
    /// }
    ///
    /// struct NoOpenOrders: Error {}
    /// fetchOrders().validate(rejecting: NoOpenOrders()) { orders in
    ///     orders.contains { $0.isOpen }
    /// }
    /// ```
    @inlinable
    public func validate(
        rejecting error: (any Error)? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ predicate: @escaping @isolated(any) @Sendable (T) throws -> Bool
    ) -> Promise<T> {
        validate(
            via: PlacedHandler(predicate, else: .map), rejecting: error,
            madeAt: RecordedSite("validate", fileID: file, line: line))
    }

    /// Passes the fulfilled value on if `predicate`, run on `on` or inline when `on` is `nil`,
    /// accepts it; rejects with `error`, or ``PromiseError/validationFailed(_:)`` when `error`
    /// is `nil`, if not.
    ///
    /// `predicate` is nonisolated: it may not touch the state of the actor that wrote it.
    ///
    /// ```swift
    /// fetchImage().validate(on: .global()) { $0.width * $0.height < 40_000_000 }
    /// ```
    @inlinable
    public func validate(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        rejecting error: (any Error)? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ predicate: @escaping @Sendable (T) throws -> Bool
    ) -> Promise<T> {
        validate(
            via: PlacedHandler(on: on, flags: flags, predicate), rejecting: error,
            madeAt: RecordedSite("validate", fileID: file, line: line))
    }

    /// Passes the fulfilled value on if `predicate`, run through `dispatcher`, accepts it;
    /// rejects with `error`, or ``PromiseError/validationFailed(_:)`` when `error` is `nil`, if
    /// not.
    ///
    /// `predicate` is nonisolated, as with a queue.
    ///
    /// ```swift
    /// fetchImage().validate(on: imageOperations) { $0.width * $0.height < 40_000_000 }
    /// ```
    @inlinable
    public func validate(
        on dispatcher: some Dispatcher,
        rejecting error: (any Error)? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ predicate: @escaping @Sendable (T) throws -> Bool
    ) -> Promise<T> {
        validate(
            via: PlacedHandler(on: dispatcher, predicate), rejecting: error,
            madeAt: RecordedSite("validate", fileID: file, line: line))
    }

    @inlinable
    func validate(
        via handler: PlacedHandler<@Sendable (T) throws -> Bool>, rejecting error: (any Error)?,
        madeAt site: RecordedSite
    ) -> Promise<T> {
        Promise(chain(on: handler.queue, ValidateStep(handler.body, rejecting: error), madeAt: site))
    }
}

/// The step of `validate`: the value, passed on if the predicate holds, otherwise the given
/// error or one naming the value.
@usableFromInline
struct ValidateStep<Value: Sendable>: ValueStep {
    @usableFromInline
    let predicate: @Sendable (Value) throws -> Bool
    @usableFromInline
    let error: (any Error)?

    @inlinable
    init(_ predicate: @escaping @Sendable (Value) throws -> Bool, rejecting error: (any Error)?) {
        self.predicate = predicate
        self.error = error
    }

    @inlinable
    func run(_ value: Value, settling box: EmptyBox<Result<Value, any Error>>) throws {
        guard try predicate(value) else {
            throw error ?? PromiseError.validationFailed(value)
        }
        box.seal(.success(value))
    }
}
