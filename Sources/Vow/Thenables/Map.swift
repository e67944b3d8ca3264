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
    @inlinable
    public func map<U>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T) throws -> U
    ) -> Promise<U> {
        chainValue(on: HandlerQueue(on, flags), with: transform) { value, transform, next in
            next.seal(.success(try transform(value)))
        }
    }

    /// Transforms the fulfilled value, rejecting when the transform returns `nil`.
    ///
    /// A `nil` rejects with ``PromiseError/compactMap(_:_:)``, which names the input and the
    /// expected type.
    ///
    /// ```swift
    /// fetchText().compactMap { Int($0) }
    /// ```
    @inlinable
    public func compactMap<U>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T) throws -> U?
    ) -> Promise<U> {
        chainValue(on: HandlerQueue(on, flags), with: transform) { value, transform, next in
            guard let transformed = try transform(value) else {
                throw PromiseError.compactMap(value, U.self)
            }
            next.seal(.success(transformed))
        }
    }

    /// Discards the fulfilled value, keeping only whether the work succeeded.
    ///
    /// ```swift
    /// func save() -> Promise<Void> { upload(record).asVoid() }
    /// ```
    @inlinable
    public func asVoid() -> Promise<Void> {
        map(on: nil) { _ in }
    }
}

extension Guarantee {
    /// Transforms the value, keeping the result a ``Guarantee``.
    ///
    /// ```swift
    /// Guarantee.value(21).map { $0 * 2 }
    /// ```
    @inlinable
    public func map<U>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T) -> U
    ) -> Guarantee<U> {
        chainGuarantee(on: HandlerQueue(on, flags), with: transform) { value, transform, next in
            next.seal(transform(value))
        }
    }

    /// Discards the value.
    @inlinable
    public func asVoid() -> Guarantee<Void> {
        map(on: nil) { _ in }
    }
}
