public import Dispatch

extension Thenable where T: Sequence, T.Element: Sendable {
    /// The first element; rejects with ``PromiseError/emptySequence`` if there is none.
    ///
    /// ```swift
    /// search(query).firstValue.done(show)
    /// ```
    @inlinable
    public var firstValue: Promise<T.Element> {
        firstValue(on: nil) { _ in true }
    }

    /// Transforms each element of a fulfilled sequence.
    ///
    /// `transform` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchUsers().mapValues { $0.name }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U
    ) -> Promise<[U]> {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return map(via: queue) { try $0.map(transform) }
    }

    /// Like ``mapValues(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchUsers().mapValues(on: nil) { $0.name }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U]> {
        map(via: HandlerQueue(on, flags)) { try $0.map(transform) }
    }

    /// Like ``mapValues(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchUsers().mapValues(on: .inline) { $0.name }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U]> {
        map(via: HandlerQueue(dispatcher)) { try $0.map(transform) }
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
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return map(via: queue) { try $0.flatMap(transform) }
    }

    /// Like ``flatMapValues(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchAlbums().flatMapValues(on: nil) { $0.tracks }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        map(via: HandlerQueue(on, flags)) { try $0.flatMap(transform) }
    }

    /// Like ``flatMapValues(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchAlbums().flatMapValues(on: .inline) { $0.tracks }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        map(via: HandlerQueue(dispatcher)) { try $0.flatMap(transform) }
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
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U?
    ) -> Promise<[U]> {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return map(via: queue) { try $0.compactMap(transform) }
    }

    /// Like ``compactMapValues(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchLines().compactMapValues(on: nil) { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U?
    ) -> Promise<[U]> {
        map(via: HandlerQueue(on, flags)) { try $0.compactMap(transform) }
    }

    /// Like ``compactMapValues(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchLines().compactMapValues(on: .inline) { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) throws -> U?
    ) -> Promise<[U]> {
        map(via: HandlerQueue(dispatcher)) { try $0.compactMap(transform) }
    }

    /// Starts a thenable for each element and fulfils with all their values, in order.
    ///
    /// The first rejection rejects the whole, as with ``when(fulfilled:)->Promise<[U.T]>``.
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
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T]> {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return then(via: queue) { when(fulfilled: try $0.map(transform)) }
    }

    /// Like ``thenMap(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
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
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T]> {
        then(via: HandlerQueue(on, flags)) { when(fulfilled: try $0.map(transform)) }
    }

    /// Like ``thenMap(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchUserIDs().thenMap(on: eventLoopDispatcher) { id in
    ///     fetchUser(id: id)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Thenable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T]> {
        then(via: HandlerQueue(dispatcher)) { when(fulfilled: try $0.map(transform)) }
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
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return then(via: queue) { when(fulfilled: try $0.map(transform)) }.map(via: .inline) {
            $0.flatMap { $0 }
        }
    }

    /// Like ``thenFlatMap(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
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
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        then(via: HandlerQueue(on, flags)) { when(fulfilled: try $0.map(transform)) }.map(via: .inline) {
            $0.flatMap { $0 }
        }
    }

    /// Like ``thenFlatMap(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchFolders().thenFlatMap(on: eventLoopDispatcher) { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Thenable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        then(via: HandlerQueue(dispatcher)) { when(fulfilled: try $0.map(transform)) }.map(via: .inline) {
            $0.flatMap { $0 }
        }
    }

    /// Keeps the elements that satisfy `isIncluded`.
    ///
    /// `isIncluded` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchOrders().filterValues { $0.isOpen }
    /// ```
    @inlinable
    public func filterValues(
        @_inheritActorContext(always) _ isIncluded: @escaping @isolated(any) @Sendable (T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        let queue = HandlerQueue(isolation: isIncluded.isolation, else: conf.Q.map)
        let isIncluded = synchronous(isIncluded)
        return map(via: queue) { $0.filter(isIncluded) }
    }

    /// Like ``filterValues(_:)``, with `isIncluded` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchOrders().filterValues(on: nil) { $0.isOpen }
    /// ```
    @inlinable
    public func filterValues(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        map(via: HandlerQueue(on, flags)) { $0.filter(isIncluded) }
    }

    /// Like ``filterValues(_:)``, with `isIncluded` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchOrders().filterValues(on: .inline) { $0.isOpen }
    /// ```
    @inlinable
    public func filterValues(
        on dispatcher: some Dispatcher,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        map(via: HandlerQueue(dispatcher)) { $0.filter(isIncluded) }
    }

    /// The first element that satisfies `test`; rejects with ``PromiseError/emptySequence``
    /// if none does.
    ///
    /// `test` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchPrinters().firstValue { $0.isOnline }
    /// ```
    @inlinable
    public func firstValue(
        @_inheritActorContext(always) where test: @escaping @isolated(any) @Sendable (T.Element) -> Bool
    ) -> Promise<T.Element> {
        let queue = HandlerQueue(isolation: test.isolation, else: conf.Q.map)
        let test = synchronous(test)
        return map(via: queue) { elements in
            guard let match = elements.first(where: test) else { throw PromiseError.emptySequence }
            return match
        }
    }

    /// Like ``firstValue(where:)``, with `test` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchPrinters().firstValue(on: nil) { $0.isOnline }
    /// ```
    @inlinable
    public func firstValue(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        where test: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<T.Element> {
        map(via: HandlerQueue(on, flags)) { elements in
            guard let match = elements.first(where: test) else { throw PromiseError.emptySequence }
            return match
        }
    }

    /// Like ``firstValue(where:)``, with `test` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchPrinters().firstValue(on: .inline) { $0.isOnline }
    /// ```
    @inlinable
    public func firstValue(
        on dispatcher: some Dispatcher,
        where test: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<T.Element> {
        map(via: HandlerQueue(dispatcher)) { elements in
            guard let match = elements.first(where: test) else { throw PromiseError.emptySequence }
            return match
        }
    }

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
        @_inheritActorContext(always) _ areInIncreasingOrder:
            @escaping @isolated(any) @Sendable (T.Element, T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        let queue = HandlerQueue(isolation: areInIncreasingOrder.isolation, else: conf.Q.map)
        let areInIncreasingOrder = synchronous(areInIncreasingOrder)
        return map(via: queue) { $0.sorted(by: areInIncreasingOrder) }
    }

    /// Like ``sortedValues(_:)``, with `areInIncreasingOrder` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchPlayers().sortedValues(on: nil) { $0.score > $1.score }
    /// ```
    @inlinable
    public func sortedValues(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        map(via: HandlerQueue(on, flags)) { $0.sorted(by: areInIncreasingOrder) }
    }

    /// Like ``sortedValues(_:)``, with `areInIncreasingOrder` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchPlayers().sortedValues(on: sortingOperations) { $0.score > $1.score }
    /// ```
    @inlinable
    public func sortedValues(
        on dispatcher: some Dispatcher,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        map(via: HandlerQueue(dispatcher)) { $0.sorted(by: areInIncreasingOrder) }
    }
}

extension Thenable where T: Collection, T.Element: Sendable {
    /// The last element; rejects with ``PromiseError/emptySequence`` if there is none.
    ///
    /// Constant time on a bidirectional collection such as an array; a forward-only
    /// collection is walked to its end.
    ///
    /// ```swift
    /// fetchMessages().lastValue.done(scrollTo)
    /// ```
    @inlinable
    public var lastValue: Promise<T.Element> {
        map(on: nil) { elements in
            guard !elements.isEmpty else { throw PromiseError.emptySequence }
            return elements[elements.index(elements.startIndex, offsetBy: elements.count - 1)]
        }
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
        flags: DispatchWorkItemFlags? = nil
    ) -> Promise<[T.Element]> {
        map(on: on, flags: flags) { $0.sorted() }
    }

    /// The elements in ascending order, sorted through `dispatcher`.
    ///
    /// ```swift
    /// fetchScores().sortedValues(on: sortingOperations)
    /// ```
    @inlinable
    public func sortedValues(
        on dispatcher: some Dispatcher
    ) -> Promise<[T.Element]> {
        map(on: dispatcher) { $0.sorted() }
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
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) -> U
    ) -> Guarantee<[U]> {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return map(via: queue) { $0.map(transform) }
    }

    /// Like ``mapValues(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).mapValues(on: nil) { $0 * 2 }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U]> {
        map(via: HandlerQueue(on, flags)) { $0.map(transform) }
    }

    /// Like ``mapValues(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).mapValues(on: .inline) { $0 * 2 }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U]> {
        map(via: HandlerQueue(dispatcher)) { $0.map(transform) }
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
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) -> U
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return map(via: queue) { $0.flatMap(transform) }
    }

    /// Like ``flatMapValues(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// Guarantee.value([[1], [2, 3]]).flatMapValues(on: nil) { $0 }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        map(via: HandlerQueue(on, flags)) { $0.flatMap(transform) }
    }

    /// Like ``flatMapValues(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value([[1], [2, 3]]).flatMapValues(on: .inline) { $0 }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        map(via: HandlerQueue(dispatcher)) { $0.flatMap(transform) }
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
        @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (T.Element) -> U?
    ) -> Guarantee<[U]> {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return map(via: queue) { $0.compactMap(transform) }
    }

    /// Like ``compactMapValues(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// Guarantee.value(["1", "x"]).compactMapValues(on: nil) { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U?
    ) -> Guarantee<[U]> {
        map(via: HandlerQueue(on, flags)) { $0.compactMap(transform) }
    }

    /// Like ``compactMapValues(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value(["1", "x"]).compactMapValues(on: .inline) { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) -> U?
    ) -> Guarantee<[U]> {
        map(via: HandlerQueue(dispatcher)) { $0.compactMap(transform) }
    }

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
        @_inheritActorContext(always) _ transform:
            @escaping @isolated(any) @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U]> {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return then(via: queue) { when(guarantees: $0.map(transform)) }
    }

    /// Like ``thenMap(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
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
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U]> {
        then(via: HandlerQueue(on, flags)) { when(guarantees: $0.map(transform)) }
    }

    /// Like ``thenMap(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenMap(on: eventLoopDispatcher) { name in
    ///     loadThumbnail(name)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Sendable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U]> {
        then(via: HandlerQueue(dispatcher)) { when(guarantees: $0.map(transform)) }
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
        @_inheritActorContext(always) _ transform:
            @escaping @isolated(any) @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        let queue = HandlerQueue(isolation: transform.isolation, else: conf.Q.map)
        let transform = synchronous(transform)
        return then(via: queue) { when(guarantees: $0.map(transform)) }.map(via: .inline) {
            $0.flatMap { $0 }
        }
    }

    /// Like ``thenFlatMap(_:)``, with `transform` run on `on`, or inline when `on` is `nil`.
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
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        then(via: HandlerQueue(on, flags)) { when(guarantees: $0.map(transform)) }.map(via: .inline) {
            $0.flatMap { $0 }
        }
    }

    /// Like ``thenFlatMap(_:)``, with `transform` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenFlatMap(on: eventLoopDispatcher) { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Sequence & Sendable>(
        on dispatcher: some Dispatcher,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        then(via: HandlerQueue(dispatcher)) { when(guarantees: $0.map(transform)) }.map(via: .inline) {
            $0.flatMap { $0 }
        }
    }

    /// Keeps the elements that satisfy `isIncluded`, as a ``Guarantee``.
    ///
    /// `isIncluded` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).filterValues { $0 > 1 }
    /// ```
    @inlinable
    public func filterValues(
        @_inheritActorContext(always) _ isIncluded: @escaping @isolated(any) @Sendable (T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        let queue = HandlerQueue(isolation: isIncluded.isolation, else: conf.Q.map)
        let isIncluded = synchronous(isIncluded)
        return map(via: queue) { $0.filter(isIncluded) }
    }

    /// Like ``filterValues(_:)``, with `isIncluded` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).filterValues(on: nil) { $0 > 1 }
    /// ```
    @inlinable
    public func filterValues(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        map(via: HandlerQueue(on, flags)) { $0.filter(isIncluded) }
    }

    /// Like ``filterValues(_:)``, with `isIncluded` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).filterValues(on: .inline) { $0 > 1 }
    /// ```
    @inlinable
    public func filterValues(
        on dispatcher: some Dispatcher,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        map(via: HandlerQueue(dispatcher)) { $0.filter(isIncluded) }
    }

    /// The elements ordered by `areInIncreasingOrder`, as a ``Guarantee``.
    ///
    /// `areInIncreasingOrder` runs in the isolation of the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(>)  // [5, 3, 2]
    /// ```
    @inlinable
    public func sortedValues(
        @_inheritActorContext(always) _ areInIncreasingOrder:
            @escaping @isolated(any) @Sendable (T.Element, T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        let queue = HandlerQueue(isolation: areInIncreasingOrder.isolation, else: conf.Q.map)
        let areInIncreasingOrder = synchronous(areInIncreasingOrder)
        return map(via: queue) { $0.sorted(by: areInIncreasingOrder) }
    }

    /// Like ``sortedValues(_:)``, with `areInIncreasingOrder` run on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(on: nil, >)  // [5, 3, 2]
    /// ```
    @inlinable
    public func sortedValues(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        map(via: HandlerQueue(on, flags)) { $0.sorted(by: areInIncreasingOrder) }
    }

    /// Like ``sortedValues(_:)``, with `areInIncreasingOrder` run through `dispatcher`.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(on: .inline, >)  // [5, 3, 2]
    /// ```
    @inlinable
    public func sortedValues(
        on dispatcher: some Dispatcher,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        map(via: HandlerQueue(dispatcher)) { $0.sorted(by: areInIncreasingOrder) }
    }
}

extension Guarantee where T: Sequence, T.Element: Comparable & Sendable {
    /// The elements in ascending order, as a ``Guarantee``.
    @inlinable
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil
    ) -> Guarantee<[T.Element]> {
        map(on: on, flags: flags) { $0.sorted() }
    }

    /// The elements in ascending order, sorted through `dispatcher`, as a ``Guarantee``.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(on: .inline)  // [2, 3, 5]
    /// ```
    @inlinable
    public func sortedValues(
        on dispatcher: some Dispatcher
    ) -> Guarantee<[T.Element]> {
        map(on: dispatcher) { $0.sorted() }
    }
}
