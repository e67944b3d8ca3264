public import Dispatch

extension Thenable where T: Sequence, T.Element: Sendable {
    /// Transforms each element of a fulfilled sequence.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchUsers().mapValues { $0.name }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U
    ) -> Promise<[U]> {
        mapValues(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("mapValues", fileID: file, line: line))
    }

    /// Like ``mapValues(file:line:_:)``, with `transform` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// fetchUsers().mapValues(on: nil) { $0.name }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U]> {
        mapValues(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("mapValues", fileID: file, line: line))
    }

    /// Like ``mapValues(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchUsers().mapValues(on: .inline) { $0.name }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U]> {
        mapValues(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("mapValues", fileID: file, line: line))
    }

    /// Transforms each element into a sequence and concatenates the results.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchAlbums().flatMapValues { $0.tracks }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        flatMapValues(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("flatMapValues", fileID: file, line: line))
    }

    /// Like ``flatMapValues(file:line:_:)``, with `transform` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// fetchAlbums().flatMapValues(on: nil) { $0.tracks }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        flatMapValues(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("flatMapValues", fileID: file, line: line))
    }

    /// Like ``flatMapValues(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchAlbums().flatMapValues(on: .inline) { $0.tracks }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        flatMapValues(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("flatMapValues", fileID: file, line: line))
    }

    /// Transforms each element, dropping those the transform maps to `nil`.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchLines().compactMapValues { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U?
    ) -> Promise<[U]> {
        compactMapValues(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("compactMapValues", fileID: file, line: line))
    }

    /// Like ``compactMapValues(file:line:_:)``, with `transform` run on `on`, or inline when `on`
    /// is `nil`.
    ///
    /// ```swift
    /// fetchLines().compactMapValues(on: nil) { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U?
    ) -> Promise<[U]> {
        compactMapValues(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("compactMapValues", fileID: file, line: line))
    }

    /// Like ``compactMapValues(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchLines().compactMapValues(on: .inline) { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U?
    ) -> Promise<[U]> {
        compactMapValues(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("compactMapValues", fileID: file, line: line))
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func flatMapValues<U: Sequence & Sendable>(
        via handler: PlacedHandler<@Sendable (T.Element) throws -> U>, madeAt site: RecordedSite
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        map(via: handler.map { transform in { try $0.flatMap(transform) } }, madeAt: site)
    }

    @inlinable
    func compactMapValues<U: Sendable>(
        via handler: PlacedHandler<@Sendable (T.Element) throws -> U?>, madeAt site: RecordedSite
    ) -> Promise<[U]> {
        map(via: handler.map { transform in { try $0.compactMap(transform) } }, madeAt: site)
    }
}

extension Guarantee where T: Sequence, T.Element: Sendable {
    /// Transforms each element, keeping the result a ``Guarantee``.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).mapValues { $0 * 2 }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) -> U
    ) -> Guarantee<[U]> {
        mapValues(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("mapValues", fileID: file, line: line))
    }

    /// Like ``mapValues(file:line:_:)``, with `transform` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).mapValues(on: nil) { $0 * 2 }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U]> {
        mapValues(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("mapValues", fileID: file, line: line))
    }

    /// Like ``mapValues(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).mapValues(on: .inline) { $0 * 2 }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U]> {
        mapValues(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("mapValues", fileID: file, line: line))
    }

    /// Transforms each element into a sequence and concatenates them, keeping a ``Guarantee``.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value([[1], [2, 3]]).flatMapValues { $0 }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) -> U
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        flatMapValues(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("flatMapValues", fileID: file, line: line))
    }

    /// Like ``flatMapValues(file:line:_:)``, with `transform` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// Guarantee.value([[1], [2, 3]]).flatMapValues(on: nil) { $0 }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        flatMapValues(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("flatMapValues", fileID: file, line: line))
    }

    /// Like ``flatMapValues(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value([[1], [2, 3]]).flatMapValues(on: .inline) { $0 }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        flatMapValues(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("flatMapValues", fileID: file, line: line))
    }

    /// Transforms each element and drops the `nil`s, keeping a ``Guarantee``.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value(["1", "x"]).compactMapValues { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) -> U?
    ) -> Guarantee<[U]> {
        compactMapValues(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("compactMapValues", fileID: file, line: line))
    }

    /// Like ``compactMapValues(file:line:_:)``, with `transform` run on `on`, or inline when `on`
    /// is `nil`.
    ///
    /// ```swift
    /// Guarantee.value(["1", "x"]).compactMapValues(on: nil) { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> U?
    ) -> Guarantee<[U]> {
        compactMapValues(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("compactMapValues", fileID: file, line: line))
    }

    /// Like ``compactMapValues(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value(["1", "x"]).compactMapValues(on: .inline) { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> U?
    ) -> Guarantee<[U]> {
        compactMapValues(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("compactMapValues", fileID: file, line: line))
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func flatMapValues<U: Sequence & Sendable>(
        via handler: PlacedHandler<@Sendable (T.Element) -> U>, madeAt site: RecordedSite
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        map(via: handler.map { transform in { @Sendable in $0.flatMap(transform) } }, madeAt: site)
    }

    @inlinable
    func compactMapValues<U: Sendable>(
        via handler: PlacedHandler<@Sendable (T.Element) -> U?>, madeAt site: RecordedSite
    ) -> Guarantee<[U]> {
        map(via: handler.map { transform in { @Sendable in $0.compactMap(transform) } }, madeAt: site)
    }
}
