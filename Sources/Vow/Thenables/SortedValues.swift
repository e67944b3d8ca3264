public import Dispatch

extension Thenable where T: Sequence, T.Element: Sendable {
    /// The elements ordered by `areInIncreasingOrder`, which must be a strict weak ordering.
    ///
    /// The sort is not guaranteed to be stable.
    ///
    /// `areInIncreasingOrder` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchPlayers().sortedValues { $0.score > $1.score }
    /// ```
    @inlinable
    public func sortedValues(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ areInIncreasingOrder:
            @escaping @isolated(any) @Sendable (T.Element, T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        sortedValues(
            via: PlacedHandler(areInIncreasingOrder, else: .map),
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }

    /// Like ``sortedValues(file:line:_:)``, with `areInIncreasingOrder` run on `on`, or inline when
    /// `on` is `nil`.
    ///
    /// ```swift
    /// fetchPlayers().sortedValues(on: nil) { $0.score > $1.score }
    /// ```
    @inlinable
    public func sortedValues(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        sortedValues(
            via: PlacedHandler(on: on, flags: flags, areInIncreasingOrder),
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }

    /// Like ``sortedValues(file:line:_:)``, with `areInIncreasingOrder` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchPlayers().sortedValues(on: sortingOperations) { $0.score > $1.score }
    /// ```
    @inlinable
    public func sortedValues(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        sortedValues(
            via: PlacedHandler(on: dispatcher, areInIncreasingOrder),
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }
    @inlinable
    func mapValues<U: Sendable>(
        via handler: PlacedHandler<@Sendable (T.Element) throws -> U>, madeAt site: RecordedSite
    ) -> Promise<[U]> {
        map(via: handler.map { transform in { try $0.map(transform) } }, madeAt: site)
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func sortedValues(
        via handler: PlacedHandler<@Sendable (T.Element, T.Element) -> Bool>, madeAt site: RecordedSite
    ) -> Promise<[T.Element]> {
        map(
            via: handler.map { areInIncreasingOrder in { $0.sorted(by: areInIncreasingOrder) } },
            madeAt: site)
    }
}

extension Thenable where T: Sequence, T.Element: Comparable & Sendable {
    /// The elements in ascending order.
    ///
    /// ```swift
    /// fetchScores().sortedValues()
    /// ```
    @inlinable
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<[T.Element]> {
        map(
            via: PlacedHandler(on: on, flags: flags) { @Sendable in $0.sorted() },
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }

    /// The elements in ascending order, sorted through `dispatcher`.
    ///
    /// ```swift
    /// fetchScores().sortedValues(on: sortingOperations)
    /// ```
    @inlinable
    public func sortedValues(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<[T.Element]> {
        map(
            via: PlacedHandler(on: dispatcher) { @Sendable in $0.sorted() },
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }
}

extension Guarantee where T: Sequence, T.Element: Sendable {
    /// The elements ordered by `areInIncreasingOrder`, as a ``Guarantee``.
    ///
    /// `areInIncreasingOrder` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(>)  // [5, 3, 2]
    /// ```
    @inlinable
    public func sortedValues(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ areInIncreasingOrder:
            @escaping @isolated(any) @Sendable (T.Element, T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        sortedValues(
            via: PlacedHandler(areInIncreasingOrder, else: .map),
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }

    /// Like ``sortedValues(file:line:_:)``, with `areInIncreasingOrder` run on `on`, or inline when
    /// `on` is `nil`.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(on: nil, >)  // [5, 3, 2]
    /// ```
    @inlinable
    public func sortedValues(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        sortedValues(
            via: PlacedHandler(on: on, flags: flags, areInIncreasingOrder),
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }

    /// Like ``sortedValues(file:line:_:)``, with `areInIncreasingOrder` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(on: .inline, >)  // [5, 3, 2]
    /// ```
    @inlinable
    public func sortedValues(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        sortedValues(
            via: PlacedHandler(on: dispatcher, areInIncreasingOrder),
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }
    @inlinable
    func mapValues<U: Sendable>(
        via handler: PlacedHandler<@Sendable (T.Element) -> U>, madeAt site: RecordedSite
    ) -> Guarantee<[U]> {
        map(via: handler.map { transform in { @Sendable in $0.map(transform) } }, madeAt: site)
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func sortedValues(
        via handler: PlacedHandler<@Sendable (T.Element, T.Element) -> Bool>, madeAt site: RecordedSite
    ) -> Guarantee<[T.Element]> {
        map(
            via: handler.map { areInIncreasingOrder in { @Sendable in $0.sorted(by: areInIncreasingOrder) } },
            madeAt: site)
    }
}

extension Guarantee where T: Sequence, T.Element: Comparable & Sendable {
    /// The elements in ascending order, as a ``Guarantee``.
    @inlinable
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Guarantee<[T.Element]> {
        map(
            via: PlacedHandler(on: on, flags: flags) { @Sendable in $0.sorted() },
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }

    /// The elements in ascending order, sorted through `dispatcher`, as a ``Guarantee``.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(on: .inline)  // [2, 3, 5]
    /// ```
    @inlinable
    public func sortedValues(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Guarantee<[T.Element]> {
        map(
            via: PlacedHandler(on: dispatcher) { @Sendable in $0.sorted() },
            madeAt: RecordedSite("sortedValues", fileID: file, line: line))
    }
}
