/// Settles a pending ``MainActorPromise``, on the main actor.
///
/// The resolver holds no value, so it may be captured anywhere, for example by a completion
/// handler that some other thread calls; settling it takes the main actor, so the value is
/// made there or sent there, and the compiler checks that it may be.
///
/// Only the first settlement takes effect. If the last copy of a resolver goes away while its
/// promise is pending, Vow reports ``LogEvent/pendingPromiseDeallocated(createdAt:)`` and
/// cancels the promise, as for a ``Resolver``.
///
/// ```swift
/// let (choice, resolver) = MainActorPromise<Note>.pending()
/// picker.onPick = { note in resolver.fulfill(note) }  // the picker calls back on the main actor
/// ```
public struct MainActorResolver<T>: Sendable {
    @usableFromInline
    let resolver: Resolver<MainActorValue<T>>

    @inlinable
    init(_ resolver: Resolver<MainActorValue<T>>) {
        self.resolver = resolver
    }

    /// Fulfils the promise with `value`.
    ///
    /// ```swift
    /// let (draft, resolver) = MainActorPromise<Note>.pending()
    /// resolver.fulfill(Note(text: "draft"))
    /// ```
    @MainActor
    @inlinable
    public func fulfill(_ value: T) {
        resolver.fulfill(MainActorValue(value))
    }

    /// Rejects the promise with `error`.
    ///
    /// ```swift
    /// let (draft, resolver) = MainActorPromise<Note>.pending()
    /// resolver.reject(StoreError.notFound)
    /// ```
    @MainActor
    @inlinable
    public func reject(_ error: any Error) {
        resolver.reject(error)
    }

    /// Settles the promise with `result`.
    ///
    /// ```swift
    /// let (draft, resolver) = MainActorPromise<Note>.pending()
    /// resolver.resolve(Result { Note(text: try String(contentsOf: url, encoding: .utf8)) })
    /// ```
    @MainActor
    @inlinable
    public func resolve(_ result: Result<T, any Error>) {
        resolver.resolve(result.map(MainActorValue.init))
    }

    /// Whether the promise was cancelled, for work that checks now and then whether to go on.
    ///
    /// ```swift
    /// let (draft, resolver) = MainActorPromise<Note>.pending()
    /// if !resolver.isCancelled { resolver.fulfill(Note(text: "draft")) }
    /// ```
    public var isCancelled: Bool {
        resolver.isCancelled
    }

    /// Runs `hook` once if the promise is cancelled, and settles the promise with the
    /// cancellation; see ``Resolver/onCancel(_:)``.
    ///
    /// ```swift
    /// let (choice, resolver) = MainActorPromise<Note>.pending()
    /// resolver.onCancel { print("the choice was cancelled") }
    /// ```
    public func onCancel(_ hook: @escaping @Sendable () -> Void) {
        resolver.onCancel(hook)
    }
}

extension MainActorResolver where T == Void {
    /// Fulfils a `MainActorPromise<Void>`.
    ///
    /// ```swift
    /// let (saved, resolver) = MainActorPromise<Void>.pending()
    /// resolver.fulfill()
    /// ```
    @MainActor
    @inlinable
    public func fulfill() {
        fulfill(())
    }
}
