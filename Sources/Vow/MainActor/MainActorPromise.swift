/// A promise that lives on the main actor, so that its value need not be `Sendable`.
///
/// A ``Promise`` may be read from any thread, so its value must be `Sendable`. App code is full
/// of values that are not: managed objects, attributed strings, views, builders, delegates.
/// A `MainActorPromise` carries such a value from step to step without it ever leaving the main
/// actor: every handler runs there, and the compiler, not a run-time check, rejects a use from
/// anywhere else. The promise itself is not `Sendable`, and everything that reads or supplies
/// its value is `@MainActor`.
///
/// ```swift
/// @MainActor final class NoteViewController {
///     let textView = TextView()
///
///     func fetchNote(id: Int) -> MainActorPromise<Note> {
///         MainActorPromise(fetchMarkdown(id: id))  // a Promise<String>
///             .map { markdown in Note(text: markdown) }
///     }
///
///     func show(id: Int) {
///         fetchNote(id: id).done { self.textView.note = $0 }.catch { report($0) }
///     }
/// }
/// ```
///
/// The operators are ``Promise``'s, with the same names and meaning; each handler is
/// `@MainActor` and may capture what main-actor code may. `init(_:)` brings a shared promise of
/// a `Sendable` value in, without a hop, and `Promise(_:)` takes a
/// `Sendable` value back out. Documentation/IsolatedPromises.md says why the type is bound to
/// the main actor rather than to any actor.
public struct MainActorPromise<T> {
    /// The shared promise beneath, whose value only main-actor code wraps and unwraps; see
    /// ``MainActorValue``. It never leaves this type's extensions.
    @usableFromInline
    let shared: Promise<MainActorValue<T>>

    @inlinable
    init(_ shared: Promise<MainActorValue<T>>) {
        self.shared = shared
    }
}

/// A main-actor promise stays where its value lives: passing one to another isolation would let
/// code there attach handlers that race the main actor's.
@available(
    *, unavailable,
    message: "a MainActorPromise stays on the main actor; share a Promise of a Sendable value instead"
)
extension MainActorPromise: Sendable {}

extension MainActorPromise {
    /// A promise already fulfilled with `value`.
    ///
    /// ```swift
    /// MainActorPromise.value(Note(text: "draft"))
    /// ```
    @MainActor
    @inlinable
    public static func value(_ value: T) -> MainActorPromise<T> {
        MainActorPromise(Promise.value(MainActorValue(value)))
    }

    /// A promise already rejected with `error`; in a debug build the failure's origin is this
    /// call's line, as for ``Promise/init(error:file:line:)``.
    ///
    /// ```swift
    /// MainActorPromise<Note>(error: StoreError.notFound)
    /// ```
    @inlinable
    public init(error: any Error, file: StaticString = #fileID, line: UInt = #line) {
        self.init(
            Promise(error: error, madeAt: RecordedSite("MainActorPromise(error:)", fileID: file, line: line)))
    }

    /// A pending promise and the resolver that settles it, on the main actor.
    ///
    /// ```swift
    /// let (choice, resolver) = MainActorPromise<Note>.pending()
    /// picker.onPick = { resolver.fulfill($0) }
    /// ```
    @inlinable
    public static func pending(
        file: StaticString = #fileID, line: UInt = #line
    ) -> (promise: MainActorPromise<T>, resolver: MainActorResolver<T>) {
        pending(madeAt: RecordedSite("MainActorPromise.pending()", fileID: file, line: line))
    }

    /// A pending promise, whose box records `site`, and its resolver.
    @inlinable
    static func pending(
        madeAt site: RecordedSite
    ) -> (promise: MainActorPromise<T>, resolver: MainActorResolver<T>) {
        let box = EmptyBox<Result<MainActorValue<T>, any Error>>(madeAt: site)
        return (MainActorPromise(Promise(box)), MainActorResolver(Resolver(box)))
    }

    /// A promise that `body` settles through its resolver; `body` runs at once, on the main
    /// actor, and a throw from it rejects.
    ///
    /// ```swift
    /// MainActorPromise<Note> { resolver in
    ///     guard let text = String(data: buffer, encoding: .utf8) else { throw StoreError.notFound }
    ///     resolver.fulfill(Note(text: text))
    /// }
    /// ```
    @MainActor
    @inlinable
    public init(
        file: StaticString = #fileID, line: UInt = #line, _ body: (MainActorResolver<T>) throws -> Void
    ) {
        let (promise, resolver) = MainActorPromise.pending(
            madeAt: RecordedSite("MainActorPromise(resolver:)", fileID: file, line: line))
        do {
            try body(resolver)
        } catch {
            resolver.reject(error)
        }
        self = promise
    }

    /// A main-actor promise that resolves as `thenable` does, without a hop: the value is
    /// `Sendable`, so it may arrive on any thread.
    ///
    /// Cancelling the result cancels `thenable` if nothing else waits on it, as with any step.
    ///
    /// ```swift
    /// MainActorPromise(fetchMarkdown(id: id)).map { Note(text: $0) }
    /// ```
    @inlinable
    public init<U: Thenable>(_ thenable: U, file: StaticString = #fileID, line: UInt = #line) where U.T == T {
        self.init(
            thenable.map(
                via: PlacedHandler(on: nil) { @Sendable in MainActorValue($0) },
                madeAt: RecordedSite("MainActorPromise(_:)", fileID: file, line: line)))
    }
}

extension Promise {
    /// A shared promise of the value of `promise`, once it is `Sendable`, without a hop.
    ///
    /// ```swift
    /// let title: Promise<String> = Promise(fetchNote().map { $0.text })
    /// ```
    @inlinable
    public convenience init(
        _ promise: MainActorPromise<T>, file: StaticString = #fileID, line: UInt = #line
    ) {
        let site = RecordedSite("Promise(_:)", fileID: file, line: line)
        let box = promise.shared.consume(into: EmptyBox<Result<T, any Error>>(madeAt: site)) { box in
            { box.seal($0.map(\.value)) }
        }
        self.init(box)
    }
}
