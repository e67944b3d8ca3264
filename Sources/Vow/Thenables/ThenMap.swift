public import Dispatch

extension Thenable where T: Sequence, T.Element: Sendable {
    /// Starts a thenable for each element and fulfils with all their values, in order.
    ///
    /// The first rejection rejects the whole, as with ``when(fulfilled:file:line:)->Promise<[U.T]>``.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchUserIDs().thenMap { id in
    ///     fetchUser(id: id)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Thenable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T]> {
        thenMap(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("thenMap", fileID: file, line: line))
    }

    /// Like ``thenMap(file:line:_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchUserIDs().thenMap(on: nil) { id in
    ///     fetchUser(id: id)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Thenable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T]> {
        thenMap(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("thenMap", fileID: file, line: line))
    }

    /// Like ``thenMap(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchUserIDs().thenMap(on: eventLoopDispatcher) { id in
    ///     fetchUser(id: id)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Thenable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T]> {
        thenMap(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("thenMap", fileID: file, line: line))
    }

    /// Starts a thenable of a sequence for each element and concatenates their values.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchFolders().thenFlatMap { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Thenable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        thenFlatMap(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("thenFlatMap", fileID: file, line: line))
    }

    /// Like ``thenFlatMap(file:line:_:)``, with `transform` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// fetchFolders().thenFlatMap(on: nil) { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Thenable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        thenFlatMap(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("thenFlatMap", fileID: file, line: line))
    }

    /// Like ``thenFlatMap(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchFolders().thenFlatMap(on: eventLoopDispatcher) { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Thenable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        thenFlatMap(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("thenFlatMap", fileID: file, line: line))
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func thenMap<U: Thenable>(
        via handler: PlacedHandler<@Sendable (T.Element) throws -> U>, madeAt site: RecordedSite
    ) -> Promise<[U.T]> {
        let each: PlacedHandler<@Sendable (T) throws -> Promise<[U.T]>> = handler.map { transform in
            { gather(try $0.map(transform), madeAt: site) }
        }
        // The step of `then`, in a box that records the caller's site.
        return Promise(chain(on: each.queue, ThenStep(each.body), madeAt: site))
    }

    @inlinable
    func thenFlatMap<U: Thenable>(
        via handler: PlacedHandler<@Sendable (T.Element) throws -> U>, madeAt site: RecordedSite
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        thenMap(via: handler, madeAt: site).map(
            via: PlacedHandler(on: nil) { @Sendable in $0.flatMap { $0 } }, madeAt: site)
    }
}

extension Guarantee where T: Sequence, T.Element: Sendable {
    /// Starts a guarantee for each element and resolves with all their values, in order.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenMap { name in
    ///     loadThumbnail(name)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform:
            @escaping @isolated(any) @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U]> {
        thenMap(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("thenMap", fileID: file, line: line))
    }

    /// Like ``thenMap(file:line:_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenMap(on: nil) { name in
    ///     loadThumbnail(name)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U]> {
        thenMap(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("thenMap", fileID: file, line: line))
    }

    /// Like ``thenMap(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenMap(on: eventLoopDispatcher) { name in
    ///     loadThumbnail(name)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Sendable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U]> {
        thenMap(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("thenMap", fileID: file, line: line))
    }

    /// Starts a guarantee of a sequence for each element and concatenates their values.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenFlatMap { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Sequence & Sendable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ transform:
            @escaping @isolated(any) @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        thenFlatMap(
            via: PlacedHandler(transform, else: .map),
            madeAt: RecordedSite("thenFlatMap", fileID: file, line: line))
    }

    /// Like ``thenFlatMap(file:line:_:)``, with `transform` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenFlatMap(on: nil) { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Sequence & Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        thenFlatMap(
            via: PlacedHandler(on: on, flags: flags, transform),
            madeAt: RecordedSite("thenFlatMap", fileID: file, line: line))
    }

    /// Like ``thenFlatMap(file:line:_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenFlatMap(on: eventLoopDispatcher) { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Sequence & Sendable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        thenFlatMap(
            via: PlacedHandler(on: dispatcher, transform),
            madeAt: RecordedSite("thenFlatMap", fileID: file, line: line))
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func thenMap<U: Sendable>(
        via handler: PlacedHandler<@Sendable (T.Element) -> Guarantee<U>>, madeAt site: RecordedSite
    ) -> Guarantee<[U]> {
        let each: PlacedHandler<@Sendable (T) -> Guarantee<[U]>> = handler.map { transform in
            { @Sendable in when(guarantees: $0.map(transform), madeAt: site) }
        }
        // The step of `then`, in a box that records the caller's site.
        return Guarantee<[U]>(chain(on: each.queue, GuaranteeThenStep(each.body), madeAt: site))
    }

    @inlinable
    func thenFlatMap<U: Sequence & Sendable>(
        via handler: PlacedHandler<@Sendable (T.Element) -> Guarantee<U>>, madeAt site: RecordedSite
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        thenMap(via: handler, madeAt: site).map(
            via: PlacedHandler(on: nil) { @Sendable in $0.flatMap { $0 } }, madeAt: site)
    }
}
