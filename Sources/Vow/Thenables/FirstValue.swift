public import Dispatch

extension Thenable where T: Sequence, T.Element: Sendable {
    /// The first element; rejects with ``PromiseError/emptySequence`` if there is none.
    ///
    /// ```swift
    /// search(query).firstValue.done(show)
    /// ```
    @inlinable
    public var firstValue: Promise<T.Element> {
        // A property cannot take its caller's line: the box records its name alone.
        firstValue(via: PlacedHandler(on: nil) { @Sendable _ in true }, madeAt: RecordedSite("firstValue"))
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
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) where test: @escaping @isolated(any) @Sendable (T.Element) -> Bool
    ) -> Promise<T.Element> {
        firstValue(
            via: PlacedHandler(test, else: .map),
            madeAt: RecordedSite("firstValue", fileID: file, line: line))
    }

    /// Like ``firstValue(file:line:where:)``, with `test` run on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// fetchPrinters().firstValue(on: nil) { $0.isOnline }
    /// ```
    @inlinable
    public func firstValue(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        where test: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<T.Element> {
        firstValue(
            via: PlacedHandler(on: on, flags: flags, test),
            madeAt: RecordedSite("firstValue", fileID: file, line: line))
    }

    /// Like ``firstValue(file:line:where:)``, with `test` run through `dispatcher`.
    ///
    /// ```swift
    /// fetchPrinters().firstValue(on: .inline) { $0.isOnline }
    /// ```
    @inlinable
    public func firstValue(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        where test: @escaping @Sendable (T.Element) -> Bool
    ) -> Promise<T.Element> {
        firstValue(
            via: PlacedHandler(on: dispatcher, test),
            madeAt: RecordedSite("firstValue", fileID: file, line: line))
    }

    // Each operator's work, written once for its three overloads.

    @inlinable
    func firstValue(
        via handler: PlacedHandler<@Sendable (T.Element) -> Bool>, madeAt site: RecordedSite
    ) -> Promise<T.Element> {
        map(
            via: handler.map { test in
                { elements in
                    guard let match = elements.first(where: test) else { throw PromiseError.emptySequence }
                    return match
                }
            },
            madeAt: site)
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
        // A property cannot take its caller's line: the box records its name alone.
        map(
            via: PlacedHandler(on: nil) { @Sendable elements in
                guard !elements.isEmpty else { throw PromiseError.emptySequence }
                return elements[elements.index(elements.startIndex, offsetBy: elements.count - 1)]
            },
            madeAt: RecordedSite("lastValue"))
    }
}
