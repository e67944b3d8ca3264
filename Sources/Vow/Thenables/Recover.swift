public import Dispatch

extension CatchMixin {
    /// Replaces an error with the result of another thenable.
    ///
    /// Values pass through unchanged, and so do errors the `policy` excludes. A throw from
    /// `body` rejects the returned promise with that error. `body` runs in the isolation of the
    /// code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchFromNetwork().recover { error -> Promise<Data> in
    ///     guard error is URLError else { throw error }
    ///     return fetchFromCache()
    /// }
    /// ```
    @inlinable
    public func recover<U: Thenable>(
        policy: CatchPolicy = conf.catchPolicy,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        recover(
            via: HandlerQueue(isolation: body.isolation, else: conf.Q.map), policy: policy, synchronous(body))
    }

    /// Replaces an error with the result of another thenable, running `body` on `on`, or
    /// inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchFromNetwork().recover(on: cacheQueue) { _ in fetchFromCache() }
    /// ```
    @inlinable
    public func recover<U: Thenable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        recover(via: HandlerQueue(on, flags), policy: policy, body)
    }

    /// Replaces an error with the result of another thenable, running `body` through
    /// `dispatcher`.
    ///
    /// ```swift
    /// fetchFromNetwork().recover(on: cacheOperations) { _ in fetchFromCache() }
    /// ```
    @inlinable
    public func recover<U: Thenable>(
        on dispatcher: some Dispatcher,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        recover(via: HandlerQueue(dispatcher), policy: policy, body)
    }

    @inlinable
    func recover<U: Thenable>(
        via queue: HandlerQueue,
        policy: CatchPolicy,
        _ body: @escaping @Sendable (any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        Promise(chain(on: queue, RecoverStep(body, policy: policy)))
    }

    /// Replaces every error, cancellation included, with a guarantee, so the chain can no
    /// longer fail. `body` runs in the isolation of the code that wrote it, otherwise on
    /// `conf.Q.map`.
    ///
    /// ```swift
    /// fetchAvatar().recover { _ in
    ///     Guarantee.value(placeholder)
    /// }.done { image in
    ///     imageView.image = image
    /// }
    /// ```
    @inlinable
    @discardableResult
    public func recover(
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) -> Guarantee<T>
    ) -> Guarantee<T> {
        recover(via: HandlerQueue(isolation: body.isolation, else: conf.Q.map), synchronous(body))
    }

    /// Replaces every error with a guarantee, running `body` on `on`, or inline when `on` is
    /// `nil`.
    ///
    /// ```swift
    /// fetchAvatar().recover(on: nil) { _ in .value(placeholder) }
    /// ```
    @inlinable
    @discardableResult
    public func recover(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (any Error) -> Guarantee<T>
    ) -> Guarantee<T> {
        recover(via: HandlerQueue(on, flags), body)
    }

    /// Replaces every error with a guarantee, running `body` through `dispatcher`.
    ///
    /// ```swift
    /// fetchAvatar().recover(on: .inline) { _ in .value(placeholder) }
    /// ```
    @inlinable
    @discardableResult
    public func recover(
        on dispatcher: some Dispatcher,
        _ body: @escaping @Sendable (any Error) -> Guarantee<T>
    ) -> Guarantee<T> {
        recover(via: HandlerQueue(dispatcher), body)
    }

    @inlinable
    func recover(via queue: HandlerQueue, _ body: @escaping @Sendable (any Error) -> Guarantee<T>)
        -> Guarantee<T>
    {
        Guarantee(chain(on: queue, RecoverAllStep(body)))
    }

    /// Ensures `body` runs after this promise resolves, whatever the outcome, and passes the
    /// result on unchanged. `body` runs in the isolation of the code that wrote it, otherwise
    /// on `conf.Q.return`.
    ///
    /// ```swift
    /// spinner.start()
    /// fetchFeed().ensure {
    ///     spinner.stop()
    /// }.done(render).catch(report)
    /// ```
    @inlinable
    public func ensure(@_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () -> Void)
        -> Promise<T>
    {
        ensure(via: HandlerQueue(isolation: body.isolation, else: conf.Q.return), synchronous(body))
    }

    /// Ensures `body` runs on `on`, or inline when `on` is `nil`, after this promise resolves.
    ///
    /// ```swift
    /// fetchFeed().ensure(on: nil) { connections.release() }
    /// ```
    @inlinable
    public func ensure(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<T> {
        ensure(via: HandlerQueue(on, flags), body)
    }

    /// Ensures `body` runs through `dispatcher` after this promise resolves.
    ///
    /// ```swift
    /// fetchFeed().ensure(on: .inline) { connections.release() }
    /// ```
    @inlinable
    public func ensure(
        on dispatcher: some Dispatcher,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<T> {
        ensure(via: HandlerQueue(dispatcher), body)
    }

    @inlinable
    func ensure(via queue: HandlerQueue, _ body: @escaping @Sendable () -> Void) -> Promise<T> {
        Promise(chain(on: queue, EnsureStep(body)))
    }

    /// Like ``ensure(_:)``, but waits for the guarantee `body` returns before passing the
    /// result on.
    ///
    /// ```swift
    /// openSession().then(upload).ensureThen {
    ///     closeSession()
    /// }
    /// ```
    @inlinable
    public func ensureThen(
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () -> Guarantee<Void>
    ) -> Promise<T> {
        ensureThen(via: HandlerQueue(isolation: body.isolation, else: conf.Q.return), synchronous(body))
    }

    /// Like ``ensure(on:flags:_:)``, but waits for the guarantee `body` returns.
    ///
    /// ```swift
    /// openSession().then(upload).ensureThen(on: nil) { closeSession() }
    /// ```
    @inlinable
    public func ensureThen(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Guarantee<Void>
    ) -> Promise<T> {
        ensureThen(via: HandlerQueue(on, flags), body)
    }

    /// Like ``ensure(on:_:)``, but waits for the guarantee `body` returns.
    ///
    /// ```swift
    /// openSession().then(upload).ensureThen(on: eventLoopDispatcher) { closeSession() }
    /// ```
    @inlinable
    public func ensureThen(
        on dispatcher: some Dispatcher,
        _ body: @escaping @Sendable () -> Guarantee<Void>
    ) -> Promise<T> {
        ensureThen(via: HandlerQueue(dispatcher), body)
    }

    @inlinable
    func ensureThen(via queue: HandlerQueue, _ body: @escaping @Sendable () -> Guarantee<Void>) -> Promise<T>
    {
        Promise(chain(on: queue, EnsureThenStep(body)))
    }
}

extension CatchMixin where T == Void {
    /// Handles every error, cancellation included, of a `Promise<Void>`, so the chain can no
    /// longer fail.
    ///
    /// ```swift
    /// deleteDraft().recover { error in
    ///     print("could not delete the draft:", error)
    /// }.done {
    ///     close()
    /// }
    /// ```
    @inlinable
    @discardableResult
    public func recover(
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) -> Void
    ) -> Guarantee<Void> {
        let queue = HandlerQueue(isolation: body.isolation, else: conf.Q.map)
        let body = synchronous(body)
        return recover(via: queue) { error -> Guarantee<Void> in
            body(error)
            return Guarantee()
        }
    }

    /// Handles every error of a `Promise<Void>` on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// deleteDraft().recover(on: nil) { print("not deleted:", $0) }
    /// ```
    @inlinable
    @discardableResult
    public func recover(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Guarantee<Void> {
        recover(via: HandlerQueue(on, flags)) { error -> Guarantee<Void> in
            body(error)
            return Guarantee()
        }
    }

    /// Handles every error of a `Promise<Void>` through `dispatcher`.
    ///
    /// ```swift
    /// deleteDraft().recover(on: .inline) { print("not deleted:", $0) }
    /// ```
    @inlinable
    @discardableResult
    public func recover(
        on dispatcher: some Dispatcher,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Guarantee<Void> {
        recover(via: HandlerQueue(dispatcher)) { error -> Guarantee<Void> in
            body(error)
            return Guarantee()
        }
    }

    /// Handles the errors of a `Promise<Void>` that `policy` covers; `body` may rethrow.
    ///
    /// ```swift
    /// writeDraft().recover { error in
    ///     guard error is DiskFullError else { throw error }
    ///     purgeCaches()
    /// }
    /// ```
    @inlinable
    public func recover(
        policy: CatchPolicy = conf.catchPolicy,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        recover(
            via: HandlerQueue(isolation: body.isolation, else: conf.Q.map), policy: policy, synchronous(body))
    }

    /// Handles the errors of a `Promise<Void>` that `policy` covers on `on`, or inline when
    /// `on` is `nil`; `body` may rethrow.
    ///
    /// ```swift
    /// writeDraft().recover(on: nil) { error in
    ///     guard error is DiskFullError else { throw error }
    /// }
    /// ```
    @inlinable
    public func recover(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        recover(via: HandlerQueue(on, flags), policy: policy, body)
    }

    /// Handles the errors of a `Promise<Void>` that `policy` covers through `dispatcher`; `body`
    /// may rethrow.
    ///
    /// ```swift
    /// writeDraft().recover(on: .inline) { error in
    ///     guard error is DiskFullError else { throw error }
    /// }
    /// ```
    @inlinable
    public func recover(
        on dispatcher: some Dispatcher,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        recover(via: HandlerQueue(dispatcher), policy: policy, body)
    }

    @inlinable
    func recover(
        via queue: HandlerQueue,
        policy: CatchPolicy,
        _ body: @escaping @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        Promise(chain(on: queue, RecoverVoidStep(body, policy: policy)))
    }
}

/// The step of a promise's `recover`: the thenable the body makes of an error the policy hands
/// it, followed.
@usableFromInline
struct RecoverStep<Value: Sendable, Next: Thenable>: RecoveryStep where Next.T == Value {
    @usableFromInline
    let body: @Sendable (any Error) throws -> Next
    @usableFromInline
    let policy: CatchPolicy

    @inlinable
    init(_ body: @escaping @Sendable (any Error) throws -> Next, policy: CatchPolicy) {
        self.body = body
        self.policy = policy
    }

    @inlinable
    func run(_ error: any Error, settling box: EmptyBox<Result<Value, any Error>>) throws {
        try box.follow(body(error))
    }
}

/// The step of the `recover` that makes a guarantee: the value, or the guarantee the body makes
/// of any error, followed.
@usableFromInline
struct RecoverAllStep<Output: Sendable>: GuaranteeStep {
    @usableFromInline
    let body: @Sendable (any Error) -> Guarantee<Output>

    @inlinable
    init(_ body: @escaping @Sendable (any Error) -> Guarantee<Output>) {
        self.body = body
    }

    @inlinable
    func route(_ input: Result<Output, any Error>) -> StepRoute<any Error, Output> {
        switch input {
        case .success(let value): .settle(value)
        case .failure(let error): .run(error)
        }
    }

    @inlinable
    func run(_ error: any Error, settling box: EmptyBox<Output>) {
        box.follow(body(error))
    }
}

/// The step of `ensure`: the result, passed on once the body has run.
@usableFromInline
struct EnsureStep<Value: Sendable>: ResultStep {
    @usableFromInline
    let body: @Sendable () -> Void

    @inlinable
    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    @inlinable
    func run(_ result: Result<Value, any Error>, settling box: EmptyBox<Result<Value, any Error>>) {
        body()
        box.seal(result)
    }
}

/// The step of `ensureThen`: the result, passed on once the guarantee the body makes resolves.
@usableFromInline
struct EnsureThenStep<Value: Sendable>: ResultStep {
    @usableFromInline
    let body: @Sendable () -> Guarantee<Void>

    @inlinable
    init(_ body: @escaping @Sendable () -> Guarantee<Void>) {
        self.body = body
    }

    @inlinable
    func run(_ result: Result<Value, any Error>, settling box: EmptyBox<Result<Value, any Error>>) {
        body().box.observe { _ in box.seal(result) }
    }
}

/// The step of the `recover` of a `Promise<Void>` whose body returns nothing: fulfilled once the
/// body has handled an error the policy hands it.
@usableFromInline
struct RecoverVoidStep: RecoveryStep {
    @usableFromInline
    typealias Value = Void

    @usableFromInline
    let body: @Sendable (any Error) throws -> Void
    @usableFromInline
    let policy: CatchPolicy

    @inlinable
    init(_ body: @escaping @Sendable (any Error) throws -> Void, policy: CatchPolicy) {
        self.body = body
        self.policy = policy
    }

    @inlinable
    func run(_ error: any Error, settling box: EmptyBox<Result<Void, any Error>>) throws {
        try body(error)
        box.seal(.success(()))
    }
}
