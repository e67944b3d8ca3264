// The value operators of a main-actor promise. Each is the shared promise's operator, given the
// handler as a main-actor one (`PlacedHandler(mainActor:)`, on the main queue, as any handler
// written on the main actor runs) and wrapped to unwrap the input and wrap the output, both on
// the main actor; see MainActorValue.swift. Each chains the shared operator's step itself, so
// that its box records the caller's site.
//
// Of the three `then`s, the two whose closure returns a main-actor kind are disfavoured. No
// closure fits two of the three, since `MainActorPromise` and `MainActorGuarantee` are not
// thenables, so the mark cannot change which one a call takes: it only makes the solver try
// the form for shared work first, the one most steps take, and so stop carrying the other two
// through the steps after it (Performance.md, "The overloads' redesign in the library").
@MainActor
extension MainActorPromise {
    /// Starts the next step with the fulfilled value; it settles as the promise `body` returns.
    ///
    /// ```swift
    /// fetchNote().then { note in save(note) }
    /// ```
    @inlinable
    @_disfavoredOverload
    public func then<U>(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (T) throws -> MainActorPromise<U>
    ) -> MainActorPromise<U> {
        then(madeAt: RecordedSite("then", fileID: file, line: line), body)
    }

    /// `then` with a main-actor promise, in a box that records `site`.
    @inlinable
    func then<U>(
        madeAt site: RecordedSite, _ body: @escaping @MainActor (T) throws -> MainActorPromise<U>
    ) -> MainActorPromise<U> {
        let handler: PlacedHandler<@Sendable (MainActorValue<T>) throws -> Promise<MainActorValue<U>>> =
            PlacedHandler(mainActor: body).map { body in
                { @Sendable in try body($0.value).shared }
            }
        return MainActorPromise<U>(
            Promise(shared.chain(on: handler.queue, ThenStep(handler.body), madeAt: site)))
    }

    /// Starts the next step with the fulfilled value; it settles as the guarantee `body`
    /// returns.
    ///
    /// ```swift
    /// fetchNote().then { note in confirm(deleting: note) }
    /// ```
    @inlinable
    @_disfavoredOverload
    public func then<U>(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (T) throws -> MainActorGuarantee<U>
    ) -> MainActorPromise<U> {
        let handler: PlacedHandler<@Sendable (MainActorValue<T>) throws -> Guarantee<MainActorValue<U>>> =
            PlacedHandler(mainActor: body).map { body in
                { @Sendable in try body($0.value).shared }
            }
        return MainActorPromise<U>(
            Promise(
                shared.chain(
                    on: handler.queue, ThenStep(handler.body),
                    madeAt: RecordedSite("then", fileID: file, line: line)))
        )
    }

    /// Starts shared work with the fulfilled value, such as a request, whose `Sendable` value
    /// comes back to the main actor.
    ///
    /// ```swift
    /// fetchNote().then { note in fetchMarkdown(id: note.tags.count) }
    /// ```
    @inlinable
    public func then<U: Thenable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor (T) throws -> U
    ) -> MainActorPromise<U.T> {
        then(madeAt: RecordedSite("then", fileID: file, line: line), body)
    }

    /// `then` with shared work, in a box that records `site`.
    @inlinable
    func then<U: Thenable>(
        madeAt site: RecordedSite, _ body: @escaping @MainActor (T) throws -> U
    ) -> MainActorPromise<U.T> {
        let handler: PlacedHandler<@Sendable (MainActorValue<T>) throws -> Promise<MainActorValue<U.T>>> =
            PlacedHandler(mainActor: body).map { body in
                // The thenable `body` returns, brought to the main actor in a box of its own.
                { @Sendable in
                    try body($0.value).map(
                        via: PlacedHandler(on: nil) { @Sendable in MainActorValue($0) },
                        madeAt: site)
                }
            }
        return MainActorPromise<U.T>(
            Promise(shared.chain(on: handler.queue, ThenStep(handler.body), madeAt: site)))
    }

    /// Transforms the fulfilled value; a throw rejects.
    ///
    /// ```swift
    /// MainActorPromise(fetchMarkdown(id: id)).map { Note(text: $0) }
    /// ```
    @inlinable
    public func map<U>(
        file: StaticString = #fileID, line: UInt = #line, _ transform: @escaping @MainActor (T) throws -> U
    ) -> MainActorPromise<U> {
        map(madeAt: RecordedSite("map", fileID: file, line: line), transform)
    }

    /// Transforms the fulfilled value in a box that records `site`: `map`, `compactMap` and
    /// `done`.
    @inlinable
    func map<U>(
        madeAt site: RecordedSite, _ transform: @escaping @MainActor (T) throws -> U
    ) -> MainActorPromise<U> {
        MainActorPromise<U>(
            shared.map(
                via: PlacedHandler(mainActor: transform).map { transform in
                    { @Sendable in MainActorValue(try transform($0.value)) }
                },
                madeAt: site)
        )
    }

    /// Transforms the fulfilled value, rejecting with ``PromiseError/compactMap(_:_:)`` when the
    /// transform returns `nil`.
    ///
    /// The error names the input as `String(describing:)` writes it on the main actor, since
    /// the input itself may not leave it.
    ///
    /// ```swift
    /// fetchNote().compactMap { $0.tags.first }
    /// ```
    @inlinable
    public func compactMap<U>(
        file: StaticString = #fileID, line: UInt = #line, _ transform: @escaping @MainActor (T) throws -> U?
    ) -> MainActorPromise<U> {
        map(madeAt: RecordedSite("compactMap", fileID: file, line: line)) { value in
            guard let transformed = try transform(value) else {
                throw PromiseError.compactMap(String(describing: value), U.self)
            }
            return transformed
        }
    }

    /// Handles the fulfilled value at the end of a chain.
    ///
    /// ```swift
    /// fetchNote().done { textView.note = $0 }.catch { report($0) }
    /// ```
    @inlinable
    public func done(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor (T) throws -> Void
    ) -> MainActorPromise<Void> {
        map(madeAt: RecordedSite("done", fileID: file, line: line), body)
    }

    /// Looks at the fulfilled value and passes it on; a throw rejects.
    ///
    /// ```swift
    /// fetchNote().get { $0.tags.append("seen") }.done { textView.note = $0 }.catch { report($0) }
    /// ```
    @inlinable
    public func get(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor (T) throws -> Void
    ) -> MainActorPromise<T> {
        let handler: PlacedHandler<@Sendable (MainActorValue<T>) throws -> Void> =
            PlacedHandler(mainActor: body).map { body in
                { @Sendable in try body($0.value) }
            }
        return MainActorPromise(
            Promise(
                shared.chain(
                    on: handler.queue, GetStep(handler.body),
                    madeAt: RecordedSite("get", fileID: file, line: line)))
        )
    }

    /// Looks at the result, value or error, and passes it on.
    ///
    /// ```swift
    /// fetchNote().tap { print("note:", $0) }
    /// ```
    @inlinable
    public func tap(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (Result<T, any Error>) -> Void
    ) -> MainActorPromise<T> {
        let handler: PlacedHandler<@Sendable (Result<MainActorValue<T>, any Error>) -> Void> =
            PlacedHandler(mainActor: body).map { body in
                { @Sendable in body($0.map(\.value)) }
            }
        return MainActorPromise(
            Promise(
                shared.chain(
                    on: handler.queue, TapStep(handler.body),
                    madeAt: RecordedSite("tap", fileID: file, line: line)))
        )
    }

    /// Discards the fulfilled value, keeping whether the work succeeded.
    ///
    /// ```swift
    /// fetchNote().asVoid()
    /// ```
    @inlinable
    public func asVoid(file: StaticString = #fileID, line: UInt = #line) -> MainActorPromise<Void> {
        MainActorPromise<Void>(
            shared.map(
                via: PlacedHandler(on: nil) { @Sendable _ in MainActorValue(()) },
                madeAt: RecordedSite("asVoid", fileID: file, line: line)))
    }
}
