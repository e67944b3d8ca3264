public import Dispatch

extension CatchMixin {
    /// Replaces an error with the result of another thenable: a guarantee that handles every
    /// error, or a promise that handles those `conf.catchPolicy` covers.
    ///
    /// Values pass through unchanged. If `body` returns a ``Guarantee``, the chain can no longer
    /// fail: `body` is given every error, cancellation included, and `recover` returns a
    /// guarantee. If it returns a ``Promise`` (or any other thenable), `recover` returns a
    /// promise, and errors the policy excludes pass by `body`. `body` runs in the isolation of
    /// the code that wrote it, otherwise on `conf.Q.map`.
    ///
    /// ```swift
    /// fetchAvatar().recover { _ in
    ///     Guarantee.value(placeholder)
    /// }.done { image in
    ///     imageView.image = image
    /// }
    ///
    /// fetchFromNetwork().recover { _ in
    ///     fetchFromCache()
    /// }
    /// ```
    ///
    /// A `body` that throws, or a call that names a `policy`, gets the form below, which always
    /// returns a promise.
    @inlinable
    public func recover<U: Thenable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) -> U
    ) -> U.Chained where U.T == T {
        recover(
            via: PlacedHandler(body, else: .map), madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Replaces an error with the result of another thenable, in a `body` that may throw.
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
    @_disfavoredOverload
    public func recover<U: Thenable>(
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        recover(
            via: PlacedHandler(body, else: .map), policy: policy,
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Replaces an error with the result of another thenable, running `body` on `on`, or
    /// inline when `on` is `nil`: a guarantee for a `body` that returns one, otherwise a
    /// promise, as without `on:`.
    ///
    /// ```swift
    /// fetchFromNetwork().recover(on: cacheQueue) { _ in fetchFromCache() }
    /// ```
    @inlinable
    public func recover<U: Thenable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) -> U
    ) -> U.Chained where U.T == T {
        recover(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Replaces an error with the result of another thenable, running a `body` that may throw
    /// on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// fetchFromNetwork().recover(on: cacheQueue) { error -> Promise<Data> in
    ///     guard error is URLError else { throw error }
    ///     return fetchFromCache()
    /// }
    /// ```
    @inlinable
    @_disfavoredOverload
    public func recover<U: Thenable>(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        recover(
            via: PlacedHandler(on: on, flags: flags, body), policy: policy,
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Replaces an error with the result of another thenable, running `body` through
    /// `dispatcher`: a guarantee for a `body` that returns one, otherwise a promise.
    ///
    /// ```swift
    /// fetchFromNetwork().recover(on: cacheOperations) { _ in fetchFromCache() }
    /// ```
    @inlinable
    public func recover<U: Thenable>(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) -> U
    ) -> U.Chained where U.T == T {
        recover(
            via: PlacedHandler(on: dispatcher, body),
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Replaces an error with the result of another thenable, running a `body` that may throw
    /// through `dispatcher`.
    ///
    /// ```swift
    /// fetchFromNetwork().recover(on: cacheOperations) { error -> Promise<Data> in
    ///     guard error is URLError else { throw error }
    ///     return fetchFromCache()
    /// }
    /// ```
    @inlinable
    @_disfavoredOverload
    public func recover<U: Thenable>(
        on dispatcher: some Dispatcher,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        recover(
            via: PlacedHandler(on: dispatcher, body), policy: policy,
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// The one `recover` of a `body` that cannot throw: a guarantee's step if `body` returns a
    /// guarantee, otherwise a promise's, under `conf.catchPolicy`.
    @inlinable
    func recover<U: Thenable>(
        via handler: PlacedHandler<@Sendable (any Error) -> U>, madeAt site: RecordedSite
    ) -> U.Chained where U.T == T {
        if let guarantees = handler.returningGuarantee() {
            return Guarantee(chain(on: guarantees.queue, RecoverAllStep(guarantees.body), madeAt: site))
                .chained(as: U.self)
        }
        return recover(via: handler.throwing(), policy: conf.catchPolicy, madeAt: site).chained(as: U.self)
    }

    @inlinable
    func recover<U: Thenable>(
        via handler: PlacedHandler<@Sendable (any Error) throws -> U>, policy: CatchPolicy,
        madeAt site: RecordedSite
    ) -> Promise<T> where U.T == T {
        Promise(chain(on: handler.queue, RecoverStep(handler.body, policy: policy), madeAt: site))
    }
}

// The forms for a closure that returns nothing are disfavoured. A closure of one expression
// may drop its value, so `{ _ in fetch() }` also fits them whenever the chain's value might be
// `Void`, and a chain that kept them level with the form above gave the solver two readings of
// every `recover` to carry through the steps after it: twice the work for each. Disfavoured,
// they still serve every closure that returns nothing, which the form above cannot take.
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
    @_disfavoredOverload
    @discardableResult
    public func recover(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) -> Void
    ) -> Guarantee<Void> {
        recover(
            via: PlacedHandler(body, else: .map),
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Handles every error of a `Promise<Void>` on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// deleteDraft().recover(on: nil) { print("not deleted:", $0) }
    /// ```
    @inlinable
    @_disfavoredOverload
    @discardableResult
    public func recover(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Guarantee<Void> {
        recover(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    /// Handles every error of a `Promise<Void>` through `dispatcher`.
    ///
    /// ```swift
    /// deleteDraft().recover(on: .inline) { print("not deleted:", $0) }
    /// ```
    @inlinable
    @_disfavoredOverload
    @discardableResult
    public func recover(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Guarantee<Void> {
        recover(
            via: PlacedHandler(on: dispatcher, body),
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    @inlinable
    func recover(
        via handler: PlacedHandler<@Sendable (any Error) -> Void>, madeAt site: RecordedSite
    ) -> Guarantee<Void> {
        recover(
            via: handler.map { body in
                { @Sendable error in
                    body(error)
                    return Guarantee()
                }
            }, madeAt: site)
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
    @_disfavoredOverload
    public func recover(
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        recover(
            via: PlacedHandler(body, else: .map), policy: policy,
            madeAt: RecordedSite("recover", fileID: file, line: line))
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
    @_disfavoredOverload
    public func recover(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        recover(
            via: PlacedHandler(on: on, flags: flags, body), policy: policy,
            madeAt: RecordedSite("recover", fileID: file, line: line))
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
    @_disfavoredOverload
    public func recover(
        on dispatcher: some Dispatcher,
        policy: CatchPolicy = conf.catchPolicy,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        recover(
            via: PlacedHandler(on: dispatcher, body), policy: policy,
            madeAt: RecordedSite("recover", fileID: file, line: line))
    }

    @inlinable
    func recover(
        via handler: PlacedHandler<@Sendable (any Error) throws -> Void>, policy: CatchPolicy,
        madeAt site: RecordedSite
    ) -> Promise<Void> {
        Promise(chain(on: handler.queue, RecoverVoidStep(handler.body, policy: policy), madeAt: site))
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
