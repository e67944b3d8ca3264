extension Promise {
    /// Suspends until the promise resolves, then returns its value or throws its error.
    ///
    /// Cancelling the awaiting task does not cancel the promise: the task resumes when the
    /// promise resolves.
    ///
    /// ```swift
    /// let user = try await fetchUser(id: 1).async()
    /// ```
    @inlinable
    public func async() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            pipe { continuation.resume(with: $0) }
        }
    }
}

extension Guarantee {
    /// Suspends until the guarantee resolves, then returns its value.
    ///
    /// ```swift
    /// await after(seconds: 1).async()
    /// ```
    @inlinable
    public func async() async -> T {
        await withCheckedContinuation { continuation in
            box.observe { continuation.resume(returning: $0) }
        }
    }
}
