public import Dispatch

/// The marker that selects Vow's `DispatchQueue.async(.promise)` overloads.
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
    /// }.done { data in
    ///     parse(data)
    /// }
    /// ```
    @inlinable
    public func async<T>(
        _: Namespacer,
        group: DispatchGroup? = nil,
        qos: DispatchQoS = .default,
        flags: DispatchWorkItemFlags = [],
        execute body: @escaping @Sendable () throws -> T
    ) -> Promise<T> {
        let next = EmptyBox<Result<T, any Error>>()
        async(group: group, qos: qos, flags: flags) {
            next.seal(Result { try body() })
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
        execute body: @escaping @Sendable () -> T
    ) -> Guarantee<T> {
        let next = EmptyBox<T>()
        async(group: group, qos: qos, flags: flags) {
            next.seal(body())
        }
        return Guarantee(next)
    }
}
