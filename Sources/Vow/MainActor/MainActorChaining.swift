// The value operators of a main-actor promise. Each is the shared promise's operator, given the
// handler as a main-actor one (`PlacedHandler(mainActor:)`, on the main queue, as any handler
// written on the main actor runs) and wrapped to unwrap the input and wrap the output, both on
// the main actor; see MainActorValue.swift.

@MainActor
extension MainActorPromise {
    /// Starts the next step with the fulfilled value; it settles as the promise `body` returns.
    ///
    /// ```swift
    /// fetchNote().then { note in save(note) }
    /// ```
    @inlinable
    public func then<U>(_ body: @escaping @MainActor (T) throws -> MainActorPromise<U>) -> MainActorPromise<U>
    {
        MainActorPromise<U>(
            shared.then(
                via: PlacedHandler(mainActor: body).map { body in { @Sendable in try body($0.value).shared } }
            )
        )
    }

    /// Starts the next step with the fulfilled value; it settles as the guarantee `body`
    /// returns.
    ///
    /// ```swift
    /// fetchNote().then { note in confirm(deleting: note) }
    /// ```
    @inlinable
    public func then<U>(_ body: @escaping @MainActor (T) throws -> MainActorGuarantee<U>) -> MainActorPromise<
        U
    > {
        MainActorPromise<U>(
            shared.then(
                via: PlacedHandler(mainActor: body).map { body in { @Sendable in try body($0.value).shared } }
            )
        )
    }

    /// Starts shared work with the fulfilled value, such as a request, whose `Sendable` value
    /// comes back to the main actor.
    ///
    /// ```swift
    /// fetchNote().then { note in fetchMarkdown(id: note.tags.count) }
    /// ```
    @inlinable
    public func then<U: Thenable>(_ body: @escaping @MainActor (T) throws -> U) -> MainActorPromise<U.T> {
        MainActorPromise<U.T>(
            shared.then(
                via: PlacedHandler(mainActor: body).map { body in
                    { @Sendable in try body($0.value).map(on: nil) { MainActorValue($0) } }
                })
        )
    }

    /// Transforms the fulfilled value; a throw rejects.
    ///
    /// ```swift
    /// MainActorPromise(fetchMarkdown(id: id)).map { Note(text: $0) }
    /// ```
    @inlinable
    public func map<U>(_ transform: @escaping @MainActor (T) throws -> U) -> MainActorPromise<U> {
        MainActorPromise<U>(
            shared.map(
                via: PlacedHandler(mainActor: transform).map { transform in
                    { @Sendable in MainActorValue(try transform($0.value)) }
                })
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
    public func compactMap<U>(_ transform: @escaping @MainActor (T) throws -> U?) -> MainActorPromise<U> {
        map { value in
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
    public func done(_ body: @escaping @MainActor (T) throws -> Void) -> MainActorPromise<Void> {
        map(body)
    }

    /// Looks at the fulfilled value and passes it on; a throw rejects.
    ///
    /// ```swift
    /// fetchNote().get { $0.tags.append("seen") }.done { textView.note = $0 }.catch { report($0) }
    /// ```
    @inlinable
    public func get(_ body: @escaping @MainActor (T) throws -> Void) -> MainActorPromise<T> {
        MainActorPromise(
            shared.get(
                via: PlacedHandler(mainActor: body).map { body in { @Sendable in try body($0.value) } })
        )
    }

    /// Looks at the result, value or error, and passes it on.
    ///
    /// ```swift
    /// fetchNote().tap { print("note:", $0) }
    /// ```
    @inlinable
    public func tap(_ body: @escaping @MainActor (Result<T, any Error>) -> Void) -> MainActorPromise<T> {
        MainActorPromise(
            shared.tap(
                via: PlacedHandler(mainActor: body).map { body in { @Sendable in body($0.map(\.value)) } })
        )
    }

    /// Discards the fulfilled value, keeping whether the work succeeded.
    ///
    /// ```swift
    /// fetchNote().asVoid()
    /// ```
    @inlinable
    public func asVoid() -> MainActorPromise<Void> {
        MainActorPromise<Void>(shared.map(on: nil) { _ in MainActorValue(()) })
    }
}
