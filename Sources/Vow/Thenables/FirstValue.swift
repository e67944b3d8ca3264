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
        firstValue(via: PlacedHandler(test, else: .map))
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
        firstValue(via: PlacedHandler(on: on, flags: flags, test))
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
        firstValue(via: PlacedHandler(on: dispatcher, test))
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func firstValue(via handler: PlacedHandler<@Sendable (T.Element) -> Bool>) -> Promise<T.Element> {
        map(
            via: handler.map { test in
                { elements in
                    guard let match = elements.first(where: test) else { throw PromiseError.emptySequence }
                    return match
                }
            })
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
