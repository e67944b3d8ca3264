public import Dispatch

extension Thenable {
    /// Chains asynchronous work: when this thenable fulfils, `body` starts the next step.
    ///
    /// The returned promise resolves as the thenable `body` returns. A rejection skips `body`;
    /// a throw from `body` rejects. Returning the promise `then` itself returned rejects with
    /// ``PromiseError/returnedSelf``.
    ///
    /// `body` runs in the isolation of the code that wrote it: on the main actor in
    /// `@MainActor` code, on the actor in an actor's method, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// logIn(name, password).then { token in
    ///     fetchProfile(with: token)
    /// }.done { profile in
    ///     show(profile)
    /// }.catch { error in
    ///     report(error)
    /// }
    /// ```
    @inlinable
    public func then<U: Thenable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (T) throws -> U
    ) -> Promise<U.T> {
        then(via: PlacedHandler(body, else: .map), madeAt: RecordedSite("then", fileID: file, line: line))
    }

    /// Chains asynchronous work, starting it on `on`, or inline when `on` is `nil`.
    ///
    /// `body` is nonisolated: it may not touch the state of the actor that wrote it.
    ///
    /// ```swift
    /// logIn(name, password).then(on: .global()) { token in
    ///     fetchProfile(with: token)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - on: The queue `body` runs on; `nil` runs it inline.
    ///   - flags: Work-item flags for the dispatch onto `on`.
    ///   - file: Where the call is written, recorded in debug builds for the chain's description
    ///     (see ``CreationSite``). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    ///   - body: Starts the next step from the fulfilled value.
    @inlinable
    public func then<U: Thenable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) throws -> U
    ) -> Promise<U.T> {
        then(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("then", fileID: file, line: line))
    }

    /// Chains asynchronous work, starting it through `dispatcher`.
    ///
    /// `body` is nonisolated, as with a queue.
    ///
    /// ```swift
    /// logIn(name, password).then(on: eventLoopDispatcher) { token in
    ///     fetchProfile(with: token)
    /// }
    /// ```
    @inlinable
    public func then<U: Thenable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) throws -> U
    ) -> Promise<U.T> {
        then(via: PlacedHandler(on: dispatcher, body), madeAt: RecordedSite("then", fileID: file, line: line))
    }

    @inlinable
    func then<U: Thenable>(
        via handler: PlacedHandler<@Sendable (T) throws -> U>, madeAt site: RecordedSite
    ) -> Promise<U.T> {
        Promise(chain(on: handler.queue, ThenStep(handler.body), madeAt: site))
    }
}

extension Guarantee {
    /// Chains asynchronous work: a guarantee while `body` returns guarantees, a promise once it
    /// returns a promise.
    ///
    /// `body` runs in the isolation of the code that wrote it, as with
    /// ``Thenable/then(file:line:_:)``.
    ///
    /// ```swift
    /// after(seconds: 1).then {
    ///     after(seconds: 1)
    /// }.done {
    ///     print("two seconds later")
    /// }
    /// ```
    ///
    /// Returning the guarantee `then` itself returned is a programming error that stops the
    /// process with a message, since that guarantee could never resolve. A `body` that throws
    /// gets ``Thenable/then(file:line:_:)``, which returns a promise.
    @inlinable
    public func then<U: Thenable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (T) -> U
    ) -> U.Chained {
        then(via: PlacedHandler(body, else: .map), madeAt: RecordedSite("then", fileID: file, line: line))
    }

    /// Chains asynchronous work on `on`, or inline when `on` is `nil`: a guarantee while `body`
    /// returns guarantees, a promise once it returns a promise.
    ///
    /// ```swift
    /// after(seconds: 1).then(on: nil) { after(seconds: 1) }
    /// ```
    @inlinable
    public func then<U: Thenable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) -> U
    ) -> U.Chained {
        then(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("then", fileID: file, line: line))
    }

    /// Chains asynchronous work through `dispatcher`: a guarantee while `body` returns
    /// guarantees, a promise once it returns a promise.
    ///
    /// ```swift
    /// after(seconds: 1).then(on: .inline) { after(seconds: 1) }
    /// ```
    @inlinable
    public func then<U: Thenable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) -> U
    ) -> U.Chained {
        then(via: PlacedHandler(on: dispatcher, body), madeAt: RecordedSite("then", fileID: file, line: line))
    }

    /// The one `then` of a `body` that cannot throw: a guarantee's step if `body` returns a
    /// guarantee, otherwise a promise's.
    @inlinable
    func then<U: Thenable>(
        via handler: PlacedHandler<@Sendable (T) -> U>, madeAt site: RecordedSite
    ) -> U.Chained {
        if let guarantees = handler.returningGuarantee() {
            return Guarantee<U.T>(
                chain(on: guarantees.queue, GuaranteeThenStep(guarantees.body), madeAt: site)
            )
            .chained(as: U.self)
        }
        return then(via: handler.throwing(), madeAt: site).chained(as: U.self)
    }
}

/// The step of a promise's `then`: the thenable the body makes of the value, followed.
@usableFromInline
struct ThenStep<Admitted: Sendable, Next: Thenable>: ValueStep {
    @usableFromInline
    typealias Value = Next.T

    @usableFromInline
    let body: @Sendable (Admitted) throws -> Next

    @inlinable
    init(_ body: @escaping @Sendable (Admitted) throws -> Next) {
        self.body = body
    }

    @inlinable
    func run(_ value: Admitted, settling box: EmptyBox<Result<Next.T, any Error>>) throws {
        try box.follow(body(value))
    }
}

/// The step of a guarantee's `then`: the guarantee the body makes of the value, followed.
@usableFromInline
struct GuaranteeThenStep<Input: Sendable, Output: Sendable>: GuaranteeValueStep {
    @usableFromInline
    let body: @Sendable (Input) -> Guarantee<Output>

    @inlinable
    init(_ body: @escaping @Sendable (Input) -> Guarantee<Output>) {
        self.body = body
    }

    @inlinable
    func run(_ value: Input, settling box: EmptyBox<Output>) {
        box.follow(body(value))
    }
}
