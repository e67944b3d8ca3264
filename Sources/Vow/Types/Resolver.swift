/// Settles a pending ``Promise``: fulfils it with a value or rejects it with an error.
///
/// Only the first call takes effect; later ones are ignored. If the last reference to a
/// resolver goes away while its promise is pending, Vow reports
/// ``LogEvent/pendingPromiseDeallocated(createdAt:)``, with where
/// the promise was made in a debug build.
///
/// ```swift
/// Promise<String> { resolver in
///     legacyAPI.fetch { text, error in resolver.resolve(text, error) }
/// }
/// ```
public final class Resolver<T: Sendable>: Sendable {
    // The box keeps where the promise was made, for the report of a resolver released unsealed.
    @usableFromInline
    let box: EmptyBox<Result<T, any Error>>

    @inlinable
    init(_ box: EmptyBox<Result<T, any Error>>) {
        self.box = box
        #if DEBUG
        box.status.markHasResolver()
        #endif
    }

    deinit {
        // Only the phase is read here, on every resolver's release: the rest, never inlined,
        // would cost the common case a generic metadata lookup.
        if box.isUnsealed { abandon() }
    }

    /// Ends the promise of a resolver released while it is pending. Nothing can settle the
    /// promise any longer: cancelling it ends its chain instead of leaving it pending for good,
    /// and frees the chain, which holds itself through the links that let cancellation travel
    /// up it. A cancellation its work was to settle (see `onCancelLeavingPending`) can no longer
    /// be settled by it either, and is settled here.
    @inline(never)
    private func abandon() {
        box.status.markAbandoned()
        conf.log(.pendingPromiseDeallocated(createdAt: box.site.site))
        box.cancel()
        if box.isUnsealed { box.sealNow(.failure(PromiseError.cancelled)) }
    }

    /// Whether the promise was cancelled, for work that checks now and then whether to go on.
    ///
    /// ```swift
    /// Promise<Int> { resolver in
    ///     DispatchQueue.global().async {
    ///         var count = 0
    ///         for line in lines {
    ///             if resolver.isCancelled { return }
    ///             count += line.split(separator: " ").count
    ///         }
    ///         resolver.fulfill(count)
    ///     }
    /// }
    /// ```
    @inlinable
    public var isCancelled: Bool {
        box.isCancelled
    }

    /// Registers how to stop the work that will settle the promise, should the promise be
    /// cancelled before it settles.
    ///
    /// `hook` runs at most once, on the thread that cancels, outside any lock Vow holds; at
    /// once if the promise was cancelled already; and never if the promise settles otherwise.
    /// The promise has already rejected with ``PromiseError/cancelled`` when it runs, so the
    /// work's own result, should it still arrive, is ignored.
    ///
    /// ```swift
    /// Promise<Data> { resolver in
    ///     let task = session.dataTask(with: url) { data, _, error in resolver.resolve(data, error) }
    ///     resolver.onCancel { task.cancel() }
    ///     task.resume()
    /// }
    /// ```
    @inlinable
    public func onCancel(_ hook: @escaping @Sendable () -> Void) {
        box.onCancel(hook)
    }

    /// Registers how to stop work that must have stopped before the promise settles, such as
    /// a process to end or a file to close, and leaves settling to that work.
    ///
    /// `hook` runs as ``onCancel(_:)``'s does. But the cancellation leaves the promise pending,
    /// marked cancelled: ``isCancelled`` is `true`, a `wait()` or a handler attached meanwhile
    /// waits, and the promise settles when the work settles it, usually with
    /// ``PromiseError/cancelled`` once it has stopped. So a handler that sees the cancellation
    /// knows the work is over. A resolver released before it settled the promise rejects it
    /// with ``PromiseError/cancelled``. A promise chained after this one that is cancelled
    /// itself rejects at once, as always: only this promise, and what waits for it, waits for
    /// the work.
    ///
    /// ```swift
    /// let counted = Promise<Int> { resolver in
    ///     // Nothing to call: the loop below checks `isCancelled`.
    ///     resolver.onCancelLeavingPending {}
    ///     DispatchQueue.global().async {
    ///         var count = 0
    ///         for line in lines {
    ///             // The loop has stopped: only now does `counted` reject.
    ///             if resolver.isCancelled { return resolver.reject(PromiseError.cancelled) }
    ///             count += line.split(separator: " ").count
    ///         }
    ///         resolver.fulfill(count)
    ///     }
    /// }
    /// ```
    @inlinable
    public func onCancelLeavingPending(_ hook: @escaping @Sendable () -> Void) {
        box.onCancel(leavingPending: true, hook)
    }

    /// Fulfils the promise with `value`.
    ///
    /// ```swift
    /// let (answer, resolver) = Promise<Int>.pending()
    /// resolver.fulfill(42)
    /// resolver.fulfill(7)  // ignored: the first settlement wins
    /// ```
    @inlinable
    public func fulfill(_ value: T) {
        box.sealNow(.success(value))
    }

    /// Rejects the promise with `error`.
    ///
    /// ```swift
    /// let data = Promise<Data> { resolver in
    ///     guard let url = URL(string: "http://127.0.0.1:8080/feed") else {
    ///         return resolver.reject(URLError(.badURL))
    ///     }
    ///     download(url).pipe(to: resolver.resolve)
    /// }
    /// ```
    @inlinable
    public func reject(_ error: any Error) {
        box.sealNow(.failure(error))
    }

    /// Settles the promise with `result`.
    ///
    /// ```swift
    /// Promise<User> { resolver in
    ///     resolver.resolve(Result { try JSONDecoder().decode(User.self, from: json) })
    /// }
    /// ```
    @inlinable
    public func resolve(_ result: Result<T, any Error>) {
        box.sealNow(result)
    }

    /// Settles the promise with a result whose error has a concrete type, such as the
    /// `Result<Data, ClientError>` a networking library passes to its completion handler.
    ///
    /// A `Result<T, any Error>` picks the overload above; both settle the promise the same way.
    ///
    /// ```swift
    /// Promise<Data> { resolver in
    ///     client.get(url) { (result: Result<Data, ClientError>) in resolver.resolve(result) }
    /// }
    /// ```
    @inlinable
    public func resolve<E: Error>(_ result: Result<T, E>) {
        box.sealNow(result.mapError { $0 })
    }

    /// Settles the promise from a completion handler's optional value and optional error.
    ///
    /// An error wins over a value. If both are `nil`, the promise is rejected with
    /// ``PromiseError/invalidCallingConvention``.
    @inlinable
    public func resolve(_ value: T?, _ error: (any Error)?) {
        if let error {
            reject(error)
        } else if let value {
            fulfill(value)
        } else {
            reject(PromiseError.invalidCallingConvention)
        }
    }

    /// Settles the promise from a completion handler whose value is always present.
    ///
    /// An error wins over the value.
    @inlinable
    public func resolve(_ value: T, _ error: (any Error)?) {
        resolve(.some(value), error)
    }

    /// Settles the promise from a completion handler that passes the error first.
    ///
    /// An error wins over a value. If both are `nil`, the promise is rejected with
    /// ``PromiseError/invalidCallingConvention``.
    @inlinable
    public func resolve(_ error: (any Error)?, _ value: T?) {
        resolve(value, error)
    }
}

extension Resolver where T == Void {
    /// Fulfils a `Promise<Void>`.
    ///
    /// ```swift
    /// Promise<Void> { resolver in timer.onFire = { resolver.fulfill() } }
    /// ```
    @inlinable
    public func fulfill() {
        fulfill(())
    }

    /// Settles a `Promise<Void>` from a completion handler that reports only an optional error.
    ///
    /// ```swift
    /// Promise<Void> { resolver in handle.close { error in resolver.resolve(error) } }
    /// ```
    @inlinable
    public func resolve(_ error: (any Error)?) {
        if let error {
            reject(error)
        } else {
            fulfill()
        }
    }
}
