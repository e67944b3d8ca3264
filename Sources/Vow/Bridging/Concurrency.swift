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
            attach { continuation.resume(with: $0) }
        }
    }

    /// The value, once the promise fulfils: suspends until it resolves, then returns its value
    /// or throws its error, as ``async()`` does.
    ///
    /// Not named `value`: ``Thenable/value`` already reads the value at once, as an optional,
    /// and the compiler would pick an awaiting `value` declared here even for reads that
    /// expect that optional.
    ///
    /// ```swift
    /// let user = try await fetchUser(id: 1).fulfilled
    /// ```
    @inlinable
    public var fulfilled: T {
        get async throws {
            try await async()
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

    /// The value, once the guarantee resolves: suspends until then, as ``async()`` does.
    ///
    /// ```swift
    /// let thumbnail = await render(photo).fulfilled
    /// ```
    @inlinable
    public var fulfilled: T {
        get async {
            await async()
        }
    }
}
