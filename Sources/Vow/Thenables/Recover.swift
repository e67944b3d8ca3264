public import Dispatch

extension CatchMixin {
    /// Replaces an error with the result of another thenable.
    ///
    /// Values pass through unchanged, and so do errors the `policy` excludes. A throw from
    /// `body` rejects the returned promise with that error.
    ///
    /// ```swift
    /// fetchFromNetwork().recover { error -> Promise<Data> in
    ///     guard error is URLError else { throw error }
    ///     return fetchFromCache()
    /// }
    /// ```
    @inlinable
    public func recover<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (any Error) throws -> U
    ) -> Promise<T> where U.T == T {
        chainResult(on: HandlerQueue(on, flags), route: .errors(policy), with: body) { result, body, next in
            guard case .failure(let error) = result else { return }
            try next.follow(body(error))
        }
    }

    /// Replaces every error, cancellation included, with a guarantee, so the chain can no
    /// longer fail.
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
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (any Error) -> Guarantee<T>
    ) -> Guarantee<T> {
        let next = EmptyBox<T>()
        let queue = HandlerQueue(on, flags)
        pipe { result in
            switch result {
            case .success(let value):
                next.seal(value)
            case .failure(let error):
                queue.run(error, body, resolving: next) { error, body, next in next.follow(body(error)) }
            }
        }
        return Guarantee<T>(next)
    }

    /// Ensures `body` runs after this promise resolves, whatever the outcome, and passes the
    /// result on unchanged.
    ///
    /// ```swift
    /// spinner.start()
    /// fetchFeed().ensure {
    ///     spinner.stop()
    /// }.done(render).catch(report)
    /// ```
    @inlinable
    public func ensure(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<T> {
        chainResult(on: HandlerQueue(on, flags), with: body) { result, body, next in
            body()
            next.seal(result)
        }
    }

    /// Like ``ensure(on:flags:_:)``, but waits for the guarantee `body` returns before passing
    /// the result on.
    ///
    /// ```swift
    /// openSession().then(upload).ensureThen {
    ///     closeSession()
    /// }
    /// ```
    @inlinable
    public func ensureThen(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Guarantee<Void>
    ) -> Promise<T> {
        chainResult(on: HandlerQueue(on, flags), with: body) { result, body, next in
            body().box.observe { next.seal(result) }
        }
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
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Guarantee<Void> {
        recover(on: on, flags: flags) { error -> Guarantee<Void> in
            body(error)
            return Guarantee()
        }
    }

    /// Handles the errors of a `Promise<Void>` that `policy` covers; `body` may rethrow.
    ///
    /// ```swift
    /// saveDraft().recover { error in
    ///     guard error is DiskFullError else { throw error }
    ///     purgeCaches()
    /// }
    /// ```
    @inlinable
    public func recover(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (any Error) throws -> Void
    ) -> Promise<Void> {
        chainResult(on: HandlerQueue(on, flags), route: .errors(policy), with: body) { result, body, next in
            guard case .failure(let error) = result else { return }
            try body(error)
            next.seal(.success(()))
        }
    }
}
