/// A guarantee that lives on the main actor, so that its value need not be `Sendable`: the
/// ``Guarantee`` of ``MainActorPromise``.
///
/// It cannot fail. Its handlers run on the main actor, and everything that reads or supplies its
/// value is `@MainActor`; the guarantee itself is not `Sendable`.
///
/// ```swift
/// @MainActor func ask(_ question: String) -> MainActorGuarantee<Bool> {
///     let (answer, resolve) = MainActorGuarantee<Bool>.pending()
///     alert.message = question
///     alert.onChoice = { resolve($0) }
///     return answer
/// }
/// ```
public struct MainActorGuarantee<T> {
    /// The shared guarantee beneath; see ``MainActorPromise/shared``.
    @usableFromInline
    let shared: Guarantee<MainActorValue<T>>

    @inlinable
    init(_ shared: Guarantee<MainActorValue<T>>) {
        self.shared = shared
    }
}

/// A main-actor guarantee stays where its value lives; see ``MainActorPromise``.
@available(
    *, unavailable,
    message: "a MainActorGuarantee stays on the main actor; share a Guarantee of a Sendable value instead"
)
extension MainActorGuarantee: Sendable {}

extension MainActorGuarantee {
    /// A guarantee already resolved with `value`.
    ///
    /// ```swift
    /// MainActorGuarantee.value(Note(text: "draft"))
    /// ```
    @MainActor
    @inlinable
    public static func value(_ value: T) -> MainActorGuarantee<T> {
        MainActorGuarantee(Guarantee.value(MainActorValue(value)))
    }

    /// A pending guarantee and the function that resolves it, on the main actor.
    ///
    /// Only the first call takes effect. If the function goes away uncalled, Vow reports
    /// ``LogEvent/pendingGuaranteeDeallocated(createdAt:)``, as for
    /// ``Guarantee/pending(file:line:)``.
    ///
    /// ```swift
    /// let (answer, resolve) = MainActorGuarantee<Bool>.pending()
    /// alert.onChoice = { resolve($0) }
    /// ```
    @inlinable
    public static func pending(
        file: StaticString = #fileID, line: UInt = #line
    ) -> (guarantee: MainActorGuarantee<T>, resolve: @MainActor @Sendable (T) -> Void) {
        let box = EmptyBox<MainActorValue<T>>(
            madeAt: RecordedSite("MainActorGuarantee.pending()", fileID: file, line: line))
        let sealer = GuaranteeSealer(box)
        return (MainActorGuarantee(Guarantee(box)), { sealer.resolve(MainActorValue($0)) })
    }

    /// A main-actor guarantee that resolves as `guarantee` does, without a hop.
    ///
    /// ```swift
    /// MainActorGuarantee(after(seconds: 1).map { "tick" })
    /// ```
    @inlinable
    public init(_ guarantee: Guarantee<T>, file: StaticString = #fileID, line: UInt = #line)
    where T: Sendable {
        self.init(
            guarantee.map(
                via: PlacedHandler(on: nil) { @Sendable in MainActorValue($0) },
                madeAt: RecordedSite("MainActorGuarantee(_:)", fileID: file, line: line)))
    }
}

extension Guarantee {
    /// A shared guarantee of the value of `guarantee`, once it is `Sendable`, without a hop.
    ///
    /// ```swift
    /// let title: Guarantee<String> = Guarantee(MainActorGuarantee.value(Note(text: "draft")).map { $0.text })
    /// ```
    @inlinable
    public convenience init(
        _ guarantee: MainActorGuarantee<T>, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(guarantee, madeAt: RecordedSite("Guarantee(_:)", fileID: file, line: line))
    }

    /// A shared guarantee of the value of `guarantee`, in a box that records `site`.
    @inlinable
    convenience init(_ guarantee: MainActorGuarantee<T>, madeAt site: RecordedSite) {
        let box = guarantee.shared.consume(into: EmptyBox<T>(madeAt: site)) { box in
            // A guarantee's result is always a success, so `get()` cannot throw here.
            { box.seal(try! $0.get().value) }
        }
        self.init(box)
    }
}

@MainActor
extension MainActorGuarantee {
    /// Starts the next step with the value; it resolves as the guarantee `body` returns.
    ///
    /// ```swift
    /// confirm(deleting: Note(text: "draft")).then { yes in MainActorGuarantee.value(yes ? "Deleted" : "Kept") }
    /// ```
    @inlinable
    public func then<U>(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (T) -> MainActorGuarantee<U>
    ) -> MainActorGuarantee<U> {
        let handler: PlacedHandler<@Sendable (MainActorValue<T>) -> Guarantee<MainActorValue<U>>> =
            PlacedHandler(mainActor: body).map { body in { @Sendable in body($0.value).shared } }
        return MainActorGuarantee<U>(
            Guarantee(
                shared.chain(
                    on: handler.queue, GuaranteeThenStep(handler.body),
                    madeAt: RecordedSite("then", fileID: file, line: line)))
        )
    }

    /// Starts the next step with the value; it settles as the promise `body` returns.
    ///
    /// ```swift
    /// let note = Note(text: "draft")
    /// confirm(deleting: note).then { _ in save(note) }
    /// ```
    @inlinable
    public func then<U>(
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @MainActor (T) throws -> MainActorPromise<U>
    ) -> MainActorPromise<U> {
        let site = RecordedSite("then", fileID: file, line: line)
        return asPromise(madeAt: site).then(madeAt: site, body)
    }

    /// Starts shared work with the value, such as a request, whose `Sendable` value comes back
    /// to the main actor.
    ///
    /// ```swift
    /// confirm(deleting: Note(text: "draft")).then { _ in fetchMarkdown(id: 1) }
    /// ```
    @inlinable
    public func then<U: Thenable>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor (T) throws -> U
    ) -> MainActorPromise<U.T> {
        let site = RecordedSite("then", fileID: file, line: line)
        return asPromise(madeAt: site).then(madeAt: site, body)
    }

    /// Starts a shared guarantee with the value, whose `Sendable` value comes back to the main
    /// actor, keeping the result a guarantee.
    ///
    /// ```swift
    /// confirm(deleting: Note(text: "draft")).then { _ in after(seconds: 1).map { "later" } }
    /// ```
    @inlinable
    public func then<U>(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor (T) -> Guarantee<U>
    ) -> MainActorGuarantee<U> {
        let handler: PlacedHandler<@Sendable (MainActorValue<T>) -> Guarantee<MainActorValue<U>>> =
            PlacedHandler(mainActor: body).map { body in
                // The guarantee `body` returns, brought to the main actor in a box of its own.
                { @Sendable in
                    body($0.value).map(
                        via: PlacedHandler(on: nil) { @Sendable in MainActorValue($0) },
                        madeAt: RecordedSite("then", fileID: file, line: line))
                }
            }
        return MainActorGuarantee<U>(
            Guarantee(
                shared.chain(
                    on: handler.queue, GuaranteeThenStep(handler.body),
                    madeAt: RecordedSite("then", fileID: file, line: line)))
        )
    }

    /// Transforms the value, keeping the result a guarantee.
    ///
    /// ```swift
    /// confirm(deleting: Note(text: "draft")).map { $0 ? "Deleted" : "Kept" }
    /// ```
    @inlinable
    public func map<U>(
        file: StaticString = #fileID, line: UInt = #line, _ transform: @escaping @MainActor (T) -> U
    ) -> MainActorGuarantee<U> {
        map(madeAt: RecordedSite("map", fileID: file, line: line), transform)
    }

    /// Transforms the value in a box that records `site`: `map` and `done`.
    @inlinable
    func map<U>(
        madeAt site: RecordedSite, _ transform: @escaping @MainActor (T) -> U
    ) -> MainActorGuarantee<U> {
        MainActorGuarantee<U>(
            shared.map(
                via: PlacedHandler(mainActor: transform).map { transform in
                    { @Sendable in MainActorValue(transform($0.value)) }
                },
                madeAt: site)
        )
    }

    /// Handles the value at the end of a chain.
    ///
    /// ```swift
    /// confirm(deleting: Note(text: "draft")).done { status.text = $0 ? "Deleted" : "Kept" }
    /// ```
    @discardableResult
    @inlinable
    public func done(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor (T) -> Void
    ) -> MainActorGuarantee<Void> {
        map(madeAt: RecordedSite("done", fileID: file, line: line), body)
    }

    /// Looks at the value and passes it on.
    ///
    /// ```swift
    /// confirm(deleting: Note(text: "draft")).get { print("chose", $0) }
    /// ```
    @inlinable
    public func get(
        file: StaticString = #fileID, line: UInt = #line, _ body: @escaping @MainActor (T) -> Void
    ) -> MainActorGuarantee<T> {
        let handler: PlacedHandler<@Sendable (MainActorValue<T>) -> Void> =
            PlacedHandler(mainActor: body).map { body in
                { @Sendable in body($0.value) }
            }
        return MainActorGuarantee(
            Guarantee(
                shared.chain(
                    on: handler.queue, GuaranteeGetStep(handler.body),
                    madeAt: RecordedSite("get", fileID: file, line: line)))
        )
    }

    /// Discards the value.
    @inlinable
    public func asVoid(file: StaticString = #fileID, line: UInt = #line) -> MainActorGuarantee<Void> {
        MainActorGuarantee<Void>(
            shared.map(
                via: PlacedHandler(on: nil) { @Sendable _ in MainActorValue(()) },
                madeAt: RecordedSite("asVoid", fileID: file, line: line)))
    }

    /// The guarantee as a promise that never rejects, for a chain that goes on with steps that
    /// may fail.
    ///
    /// ```swift
    /// confirm(deleting: Note(text: "draft")).asPromise().map { yes in
    ///     guard yes else { throw StoreError.notFound }
    /// }
    /// ```
    @inlinable
    public func asPromise(file: StaticString = #fileID, line: UInt = #line) -> MainActorPromise<T> {
        asPromise(madeAt: RecordedSite("asPromise", fileID: file, line: line))
    }

    /// The guarantee as a promise, in a box that records `site`.
    @inlinable
    func asPromise(madeAt site: RecordedSite) -> MainActorPromise<T> {
        let box = shared.consume(into: EmptyBox<Result<MainActorValue<T>, any Error>>(madeAt: site)) { box in
            { box.seal($0) }
        }
        return MainActorPromise(Promise(box))
    }
}
