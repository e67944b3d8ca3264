public import Dispatch

extension Thenable where T: Sequence, T.Element: Sendable {
    /// Transforms each element of a fulfilled sequence.
    ///
    /// ```swift
    /// fetchUsers().mapValues { $0.name }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U]> {
        map(on: on, flags: flags) { try $0.map(transform) }
    }

    /// Transforms each element into a sequence and concatenates the results.
    ///
    /// ```swift
    /// fetchAlbums().flatMapValues { $0.tracks }
    /// ```
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.Element]> where U.Element: Sendable {
        map(on: on, flags: flags) { try $0.flatMap(transform) }
    }

    /// Transforms each element, dropping those the transform maps to `nil`.
    ///
    /// ```swift
    /// fetchLines().compactMapValues { Int($0) }
    /// ```
    @inlinable
    public func compactMapValues<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U?
    ) -> Promise<[U]> {
        map(on: on, flags: flags) { try $0.compactMap(transform) }
    }

    /// Starts a thenable for each element and fulfils with all their values, in order.
    ///
    /// The first rejection rejects the whole, as with ``when(fulfilled:)-(Array<U>)``.
    ///
    /// ```swift
    /// fetchUserIDs().thenMap { id in
    ///     fetchUser(id)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T]> {
        then(on: on, flags: flags) { when(fulfilled: try $0.map(transform)) }
    }

    /// Starts a thenable of a sequence for each element and concatenates their values.
    ///
    /// ```swift
    /// fetchFolders().thenFlatMap { folder in
    ///     listFiles(in: folder)
    /// }
    /// ```
    @inlinable
    public func thenFlatMap<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) throws -> U
    ) -> Promise<[U.T.Element]> where U.T: Sequence, U.T.Element: Sendable {
        thenMap(on: on, flags: flags, transform).map(on: nil) { $0.flatMap { $0 } }
    }

    /// Keeps the elements that satisfy `isIncluded`.
    ///
    /// ```swift
    /// fetchOrders().filterValues { $0.isOpen }
    /// ```
    @inlinable
    public func filterValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        map(on: on, flags: flags) { $0.filter(isIncluded) }
    }

    /// The first element; rejects with ``PromiseError/emptySequence`` if there is none.
    ///
    /// ```swift
    /// search(query).firstValue.done(open)
    /// ```
    @inlinable
    public var firstValue: Promise<T.Element> {
        firstValue(on: nil) { _ in true }
    }

    /// The first element that satisfies `test`; rejects with ``PromiseError/emptySequence``
    /// if none does.
    ///
    /// ```swift
    /// fetchPrinters().firstValue { $0.isOnline }
    /// ```
    @inlinable
    public func firstValue(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        where test: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<T.Element> {
        map(on: on, flags: flags) { elements in
            guard let match = elements.first(where: test) else { throw PromiseError.emptySequence }
            return match
        }
    }

    /// The elements ordered by `areInIncreasingOrder`, which must be a strict weak ordering.
    ///
    /// The sort is not guaranteed to be stable.
    ///
    /// ```swift
    /// fetchPlayers().sortedValues { $0.score > $1.score }
    /// ```
    @inlinable
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Promise<[T.Element]> {
        map(on: on, flags: flags) { $0.sorted(by: areInIncreasingOrder) }
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
}

extension Guarantee where T: Sequence, T.Element: Sendable {
    /// Transforms each element, keeping the result a ``Guarantee``.
    ///
    /// ```swift
    /// Guarantee.value([1, 2, 3]).mapValues { $0 * 2 }
    /// ```
    @inlinable
    public func mapValues<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U]> {
        map(on: on, flags: flags) { $0.map(transform) }
    }

    /// Transforms each element into a sequence and concatenates them, keeping a ``Guarantee``.
    @inlinable
    public func flatMapValues<U: Sequence & Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        map(on: on, flags: flags) { $0.flatMap(transform) }
    }

    /// Transforms each element and drops the `nil`s, keeping a ``Guarantee``.
    @inlinable
    public func compactMapValues<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> U?
    ) -> Guarantee<[U]> {
        map(on: on, flags: flags) { $0.compactMap(transform) }
    }

    /// Starts a guarantee for each element and resolves with all their values, in order.
    ///
    /// ```swift
    /// Guarantee.value(["a", "b"]).thenMap { name in
    ///     loadThumbnail(name)
    /// }
    /// ```
    @inlinable
    public func thenMap<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U]> {
        then(on: on, flags: flags) { when(guarantees: $0.map(transform)) }
    }

    /// Starts a guarantee of a sequence for each element and concatenates their values.
    @inlinable
    public func thenFlatMap<U: Sequence & Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T.Element) -> Guarantee<U>
    ) -> Guarantee<[U.Element]> where U.Element: Sendable {
        thenMap(on: on, flags: flags, transform).map(on: nil) { $0.flatMap { $0 } }
    }

    /// Keeps the elements that satisfy `isIncluded`, as a ``Guarantee``.
    @inlinable
    public func filterValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ isIncluded: @escaping @Sendable (T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        map(on: on, flags: flags) { $0.filter(isIncluded) }
    }

    /// The elements ordered by `areInIncreasingOrder`, as a ``Guarantee``.
    ///
    /// ```swift
    /// Guarantee.value([5, 2, 3]).sortedValues(>)  // [5, 3, 2]
    /// ```
    @inlinable
    public func sortedValues(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ areInIncreasingOrder: @escaping @Sendable (T.Element, T.Element) -> Bool
    ) -> Guarantee<[T.Element]> {
        map(on: on, flags: flags) { $0.sorted(by: areInIncreasingOrder) }
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
}
