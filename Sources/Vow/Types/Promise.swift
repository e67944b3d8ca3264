/// A value that arrives later, or the error that prevented it.
///
/// A promise resolves exactly once, with a `Result<T, any Error>`. Chain work on it with the
/// ``Thenable`` operators and handle failure with the ``CatchMixin`` ones:
///
/// ```swift
/// firstly {
///     fetchUser(id: 42)
/// }.map { user in
///     user.name
/// }.done { name in
///     print("Hello, \(name)")
/// }.catch { error in
///     print("Failed: \(error)")
/// }
/// ```
public final class Promise<T: Sendable>: Thenable, CatchMixin {
    @usableFromInline
    let box: Box<Result<T, any Error>>

    @inlinable
    init(box: Box<Result<T, any Error>>) {
        self.box = box
    }

    /// A pending promise that resolves as `box` is sealed: the one handle `box` was born for.
    @inlinable
    convenience init(_ box: EmptyBox<Result<T, any Error>>) {
        self.init(box: .empty(box))
    }

    deinit {
        // Matched here rather than through a method of `Box`: a `deinit` is never specialized,
        // and calling a generic method would look the result type's metadata up every time.
        if case .empty(let box) = box {
            box.releaseHandle()
        }
    }

    /// Creates a pending promise and hands its resolver to `body` at once, on this thread.
    ///
    /// If `body` throws, the promise is rejected with the error.
    ///
    /// ```swift
    /// let data = Promise<Data> { resolver in
    ///     session.dataTask(with: url) { data, _, error in resolver.resolve(data, error) }.resume()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where the promise is made, reported if its resolver is released unsettled
    ///     (debug builds only; see ``CreationSite``). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    ///   - body: The work that settles the promise through the resolver it is given.
    @inlinable
    public convenience init(
        file: StaticString = #fileID, line: UInt = #line, resolver body: (Resolver<T>) throws -> Void
    ) {
        let box = EmptyBox<Result<T, any Error>>(
            madeAt: RecordedSite("Promise(resolver:)", fileID: file, line: line))
        self.init(box)
        let resolver = Resolver(box)
        do {
            try body(resolver)
        } catch {
            resolver.reject(error)
        }
    }

    /// A promise already fulfilled with `value`.
    ///
    /// ```swift
    /// func cachedAvatar() -> Promise<Data> { .value(placeholder) }
    /// ```
    @inlinable
    public static func value(_ value: T) -> Promise<T> {
        Promise(box: .sealed(SealedBox(.success(value))))
    }

    /// A promise already rejected with `error`.
    ///
    /// In a debug build the failure's origin is this call's line: a chain that fails because a
    /// step returned `Promise(error: …)` names it (see ``FailureOrigin``).
    ///
    /// ```swift incomplete
    /// guard let url else { return Promise(error: URLError(.badURL)) }
    /// ```
    ///
    /// - Parameters:
    ///   - error: The error the promise rejects with.
    ///   - file: Where the promise is made, the failure's origin (debug builds only; see
    ///     ``CreationSite``). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    @inlinable
    public convenience init(error: any Error, file: StaticString = #fileID, line: UInt = #line) {
        self.init(error: error, madeAt: RecordedSite("Promise(error:)", fileID: file, line: line))
    }

    /// A promise already rejected with `error`, a failure that began at `site`: in a debug
    /// build, a box that records it; in a release build, which records nothing, a sealed one.
    @inlinable
    convenience init(error: any Error, madeAt site: RecordedSite) {
        #if DEBUG
        let box = EmptyBox<Result<T, any Error>>(madeAt: site)
        box.sealNow(.failure(error))
        self.init(box)
        #else
        self.init(box: .sealed(SealedBox(.failure(error))))
        #endif
    }

    /// A pending promise and the resolver that settles it.
    ///
    /// If the resolver is released while the promise is still pending, Vow reports
    /// ``LogEvent/pendingPromiseDeallocated(createdAt:)`` through ``Configuration/logHandler``.
    ///
    /// ```swift incomplete
    /// let (promise, resolver) = Promise<Int>.pending()
    /// worker.onFinish = { resolver.fulfill($0) }
    /// return promise
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where the promise is made, reported if its resolver is released unsettled
    ///     (debug builds only; see ``CreationSite``). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    @inlinable
    public static func pending(
        file: StaticString = #fileID, line: UInt = #line
    ) -> (promise: Promise<T>, resolver: Resolver<T>) {
        let box = EmptyBox<Result<T, any Error>>(
            madeAt: RecordedSite("Promise.pending()", fileID: file, line: line))
        return (Promise(box), Resolver(box))
    }

    /// A promise that resolves as `thenable` does, such as a promise from a ``Guarantee``.
    ///
    /// ```swift
    /// let promise = Promise(after(seconds: 1).map { 7 })
    /// ```
    @inlinable
    public convenience init<U: Thenable>(_ thenable: U) where U.T == T {
        let box = thenable.consume(into: EmptyBox<Result<T, any Error>>()) { box in
            { box.seal($0) }
        }
        self.init(box)
    }

    /// Runs `handler` with the result: at once if the promise is resolved, otherwise on the
    /// thread that resolves it.
    ///
    /// This is the primitive beneath every operator; prefer `done`, `catch` or `tap` in app code.
    ///
    /// A handler attached with `pipe` is a consumer that never cancels: while the promise is
    /// pending, it keeps cancellation from travelling up to it from its other consumers.
    @inlinable
    public func pipe(to handler: @escaping @Sendable (Result<T, any Error>) -> Void) {
        box.observe(handler)
    }

    /// Attaches a consumer's handler and fills `link` with the attachment; see
    /// `_pipe(_:linking:)`.
    @inlinable
    public func _pipe(
        _ handler: @escaping @Sendable (Result<T, any Error>) -> Void, linking link: inout ConsumerLink
    ) {
        link = box.attach(handler, recordingIn: link.consumer)
    }

    /// Cancels the promise: if it is still pending, it rejects at once with
    /// ``PromiseError/cancelled``, which `catch` skips under the default policy, and the work
    /// behind it hears it.
    ///
    /// The work is each step this promise waits on, up the chain, and whatever their creators
    /// registered with ``Resolver/onCancel(_:)``, such as a network request or a timer. Each
    /// one is cancelled only if nothing else waits for it: a promise is cancelled from below
    /// when every consumer attached to it has cancelled and no handle to it is left from
    /// which a new one could attach. Handlers that have not started do not run; one that is
    /// running finishes, and its result is dropped.
    ///
    /// Cancelling a promise that has resolved does nothing.
    ///
    /// ```swift
    /// let search = api.search(query).map { $0.sorted() }
    /// // The user typed another letter:
    /// search.cancel()
    /// ```
    @inlinable
    public func cancel() {
        if case .empty(let box) = box {
            box.cancel()
        }
    }

    /// The result, or `nil` while the promise is pending.
    @inlinable
    public var result: Result<T, any Error>? {
        box.resolution
    }
}

extension Promise where T == Void {
    /// A promise already fulfilled with `()`.
    ///
    /// ```swift
    /// func flush() -> Promise<Void> { buffer.isEmpty ? Promise() : write(buffer) }
    /// ```
    @inlinable
    public convenience init() {
        self.init(box: .sealed(SealedBox(.success(()))))
    }
}

extension Promise: CustomStringConvertible, CustomDebugStringConvertible {
    /// The promise's type and state, such as `Promise<Int>(fulfilled: 3)`.
    public var description: String {
        switch result {
        case nil: "Promise<\(T.self)>(pending)"
        case .success(let value)?: "Promise<\(T.self)>(fulfilled: \(value))"
        case .failure(let error)?: "Promise<\(T.self)>(rejected: \(error))"
        }
    }

    /// The description with the promise's identity, to tell promises of one type apart.
    public var debugDescription: String {
        "\(description) at \(ObjectIdentifier(self))"
    }
}
