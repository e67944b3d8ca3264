public import Dispatch

extension Thenable {
    /// Chains asynchronous work: when this thenable fulfils, `body` starts the next step.
    ///
    /// The returned promise resolves as the thenable `body` returns. A rejection skips `body`;
    /// a throw from `body` rejects. Returning the promise `then` itself returned rejects with
    /// ``PromiseError/returnedSelf``.
    ///
    /// ```swift
    /// login(user).then { token in
    ///     fetchProfile(token)
    /// }.done { profile in
    ///     show(profile)
    /// }.catch { error in
    ///     report(error)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - on: The queue `body` runs on; `nil` runs it inline. Defaults to `conf.Q.map`.
    ///   - flags: Work-item flags for the dispatch onto `on`.
    ///   - body: Starts the next step from the fulfilled value.
    @inlinable
    public func then<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) throws -> U
    ) -> Promise<U.T> {
        chainValue(on: HandlerQueue(on, flags), with: body) { value, body, next in
            try next.follow(body(value))
        }
    }
}

extension Guarantee {
    /// Chains asynchronous work that cannot fail, keeping the result a ``Guarantee``.
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
    /// process with a message, since that guarantee could never resolve.
    @inlinable
    @discardableResult
    public func then<U>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) -> Guarantee<U>
    ) -> Guarantee<U> {
        chainGuarantee(on: HandlerQueue(on, flags), with: body) { value, body, next in
            next.follow(body(value))
        }
    }
}
