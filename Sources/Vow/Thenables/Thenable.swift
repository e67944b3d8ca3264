/// A value that arrives later: the protocol both ``Promise`` and ``Guarantee`` conform to.
///
/// A conforming type supplies two members, ``pipe(to:)`` and ``result``; every operator
/// (`then`, `map`, `done`, `get`, `tap`, the sequence operators…) is built on them.
///
/// ```swift
/// func describe<P: Thenable>(_ thenable: P) -> String where P.T == Int {
///     thenable.value.map { "got \($0)" } ?? (thenable.isPending ? "waiting" : "failed")
/// }
/// print(describe(Promise.value(3)))  // got 3
/// print(describe(Guarantee.value(4)))  // got 4
/// ```
public protocol Thenable<T>: AnyObject, Sendable {
    /// The type of the value this thenable delivers.
    associatedtype T: Sendable

    /// What a chain continues as when a step's closure returns this type: a ``Guarantee`` for a
    /// guarantee, a ``Promise`` for anything else.
    ///
    /// It is how one form of `recover`, and of a guarantee's `then`, gives a guarantee for a
    /// closure that returns one and a promise for a closure that returns anything else, so the
    /// compiler never has to try both forms against the rest of a chain. A type of yours keeps
    /// the default, `Promise<T>`: a `recover` whose closure returns it gives a promise.
    ///
    /// ```swift
    /// let placeholder: Guarantee<Data> = fetchFromNetwork().recover { _ in Guarantee.value(Data()) }
    /// let cached: Promise<Data> = fetchFromNetwork().recover { _ in fetchFromCache() }
    /// ```
    associatedtype Chained: AnyObject = Promise<T>

    /// Runs `handler` with the result: at once if it exists, otherwise on the thread that
    /// resolves this thenable.
    ///
    /// Handlers run in the order they were attached.
    ///
    /// ```swift
    /// fetchUser(id: 1).pipe { result in
    ///     if case .success(let user) = result { print(user.name) }
    /// }
    /// ```
    func pipe(to handler: @escaping @Sendable (Result<T, any Error>) -> Void)

    /// The result, or `nil` while pending.
    ///
    /// ```swift
    /// switch fetchUser(id: 1).result {
    /// case nil: print("still loading")
    /// case .success(let user)?: print(user.name)
    /// case .failure(let error)?: print("failed:", error)
    /// }
    /// ```
    var result: Result<T, any Error>? { get }

    /// Attaches `handler`, as ``pipe(to:)`` does, on behalf of a consumer that may withdraw it:
    /// a step of a chain, a combinator or a waiting task, so that cancelling the consumer can
    /// reach this thenable and take the handler back.
    ///
    /// Vow's operators call it; ``Promise`` and ``Guarantee`` fill `link` with the attachment,
    /// which the consumer hands back when it withdraws. A type of yours keeps the default
    /// implementation, which calls ``pipe(to:)`` and leaves `link` empty.
    func _pipe(
        _ handler: @escaping @Sendable (Result<T, any Error>) -> Void, linking link: inout ConsumerLink)
}

extension Thenable {
    /// The fulfilled value, or `nil` while pending or when rejected.
    ///
    /// ```swift
    /// let avatar = fetchAvatar(for: user)
    /// if let cached = avatar.value { imageView.image = cached }
    /// ```
    @inlinable
    public var value: T? {
        try? result?.get()
    }

    /// The error this thenable was rejected with, or `nil` while pending or when fulfilled.
    ///
    /// ```swift
    /// let sending = upload(photo)
    /// if let error = sending.error { print("the upload failed:", error) }
    /// ```
    @inlinable
    public var error: (any Error)? {
        guard case .failure(let error)? = result else { return nil }
        return error
    }

    /// Whether no result has arrived yet.
    ///
    /// ```swift
    /// let file = download(url)
    /// if file.isPending { print("still downloading") }
    /// ```
    @inlinable
    public var isPending: Bool {
        result == nil
    }

    /// Whether a result has arrived, a value or an error.
    @inlinable
    public var isResolved: Bool {
        !isPending
    }

    /// Whether this thenable resolved with a value.
    @inlinable
    public var isFulfilled: Bool {
        value != nil
    }

    /// Whether this thenable resolved with an error.
    @inlinable
    public var isRejected: Bool {
        error != nil
    }
}
