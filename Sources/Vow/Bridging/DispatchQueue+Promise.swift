public import Dispatch

/// The marker that selects Vow's `DispatchQueue.async(.promise)` overloads.
///
/// ```swift
/// let sum = DispatchQueue.global().async(.promise) { (1...100).reduce(0, +) }  // a Guarantee<Int>
/// ```
public enum Namespacer: Sendable {
    /// Selects the overload that returns a promise or guarantee.
    case promise
}

extension DispatchQueue {
    /// Runs a throwing `body` on this queue and returns a promise of its outcome.
    ///
    /// ```swift
    /// DispatchQueue.global().async(.promise) {
    ///     try Data(contentsOf: fileURL)
    /// }.map { data in
    ///     try parse(data)
    /// }.done(show).catch(report)
    /// ```
    @inlinable
    public func async<T>(
        _: Namespacer,
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [],
        file: StaticString = #fileID, line: UInt = #line,
        execute body: @escaping @Sendable () throws -> T
    ) -> Promise<T> {
        let next = EmptyBox<Result<T, any Error>>(
            madeAt: RecordedSite("DispatchQueue.async(.promise)", fileID: file, line: line))
        async(group: group, qos: qos, flags: flags) {
            next.resolve { next.sealOwnResult(Result { try body() }) }
        }
        return Promise(next)
    }

    /// Runs a throwing `body` on this queue and returns a promise of its outcome, handing
    /// `body` a token that tells whether the promise has been cancelled meanwhile.
    ///
    /// A promise cancelled before `body` starts never runs it. One cancelled while it runs has
    /// already rejected with ``PromiseError/cancelled``: `body` may check the token now and
    /// then and stop early, and whatever it returns or throws is ignored.
    ///
    /// ```swift
    /// let counting = DispatchQueue.global().async(.promise) { cancellation in
    ///     var words = 0
    ///     for line in lines {
    ///         if cancellation.isCancelled { throw PromiseError.cancelled }
    ///         words += line.split(separator: " ").count
    ///     }
    ///     return words
    /// }
    /// ```
    @inlinable
    public func async<T>(
        _: Namespacer,
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [],
        file: StaticString = #fileID, line: UInt = #line,
        execute body: @escaping @Sendable (CancellationToken) throws -> T
    ) -> Promise<T> {
        let next = EmptyBox<Result<T, any Error>>(
            madeAt: RecordedSite("DispatchQueue.async(.promise)", fileID: file, line: line))
        async(group: group, qos: qos, flags: flags) {
            next.resolve { next.sealOwnResult(Result { try body(CancellationToken(next)) }) }
        }
        return Promise(next)
    }

    /// Runs a `body` that cannot fail on this queue and returns a guarantee of its value.
    ///
    /// ```swift
    /// DispatchQueue.global().async(.promise) {
    ///     primes(below: 10_000)
    /// }.done { primes in
    ///     print(primes.count)
    /// }
    /// ```
    @inlinable
    public func async<T>(
        _: Namespacer,
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [],
        file: StaticString = #fileID, line: UInt = #line,
        execute body: @escaping @Sendable () -> T
    ) -> Guarantee<T> {
        let next = EmptyBox<T>(
            madeAt: RecordedSite("DispatchQueue.async(.promise)", fileID: file, line: line))
        async(group: group, qos: qos, flags: flags) {
            next.resolve { next.seal(body()) }
        }
        return Guarantee(next)
    }
}
