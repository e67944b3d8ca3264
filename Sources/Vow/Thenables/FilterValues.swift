public import Dispatch

extension Thenable where T: Sequence, T.Element: Sendable {
    /// Keeps the elements that satisfy `isIncluded`.
    ///
    /// `isIncluded` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchOrders().filterValues { $0.isOpen }
    /// ```
    @inlinable
    public func filterValues(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ isIncluded: @escaping @isolated(any) @Sendable (T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        filterValues(
            via: PlacedHandler(isIncluded, else: .map),
            madeAt: RecordedSite("filterValues", fileID: file, line: line))
    }

    /// Like ``filterValues(file:line:_:)``, with `isIncluded` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// fetchOrders().filterValues(on: nil) { $0.isOpen }
    /// ```
    @inlinable
    public func filterValues(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        filterValues(
            via: PlacedHandler(on: on, flags: flags, isIncluded),
            madeAt: RecordedSite("filterValues", fileID: file, line: line))
    }

    /// Like ``filterValues(file:line:_:)``, with `isIncluded` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchOrders().filterValues(on: .inline) { $0.isOpen }
    /// ```
    @inlinable
    public func filterValues(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        filterValues(
            via: PlacedHandler(on: dispatcher, isIncluded),
            madeAt: RecordedSite("filterValues", fileID: file, line: line))
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func filterValues(
        via handler: PlacedHandler<@Sendable (T.Element) -> Bool>, madeAt site: RecordedSite
    ) -> Promise<[T.Element]> {
        map(via: handler.map { isIncluded in { $0.filter(isIncluded) } }, madeAt: site)
    }
}

extension Guarantee where T: Sequence, T.Element: Sendable {
    /// Keeps the elements that satisfy `isIncluded`, as a ``Guarantee``.
    ///
    /// `isIncluded` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).filterValues { $0 > 1 }
    /// ```
    @inlinable
    public func filterValues(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ isIncluded: @escaping @isolated(any) @Sendable (T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        filterValues(
            via: PlacedHandler(isIncluded, else: .map),
            madeAt: RecordedSite("filterValues", fileID: file, line: line))
    }

    /// Like ``filterValues(file:line:_:)``, with `isIncluded` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).filterValues(on: nil) { $0 > 1 }
    /// ```
    @inlinable
    public func filterValues(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        filterValues(
            via: PlacedHandler(on: on, flags: flags, isIncluded),
            madeAt: RecordedSite("filterValues", fileID: file, line: line))
    }

    /// Like ``filterValues(file:line:_:)``, with `isIncluded` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).filterValues(on: .inline) { $0 > 1 }
    /// ```
    @inlinable
    public func filterValues(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        filterValues(
            via: PlacedHandler(on: dispatcher, isIncluded),
            madeAt: RecordedSite("filterValues", fileID: file, line: line))
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func filterValues(
        via handler: PlacedHandler<@Sendable (T.Element) -> Bool>, madeAt site: RecordedSite
    ) -> Guarantee<[T.Element]> {
        map(via: handler.map { isIncluded in { @Sendable in $0.filter(isIncluded) } }, madeAt: site)
    }
}
