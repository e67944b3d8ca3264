extension Promise {
    /// Suspends until the promise resolves, then returns its value or throws its error.
    ///
    /// If the awaiting task is cancelled, the wait ends at once with `CancellationError`, and
    /// the task no longer counts as a consumer of the promise: if it was the last, and no
    /// handle to the promise is left, the promise is cancelled, with the work behind it.
    ///
    /// It runs where it is awaited (`nonisolated(nonsending)`): awaited on the main actor or an
    /// actor, it stays there and resumes there, with no detour through the global executor, and
    /// a promise already resolved returns without suspending at all.
    ///
    /// ```swift
    /// let user = try await fetchUser(id: 1).async()
    /// ```
    @inlinable
    public nonisolated(nonsending) func async() async throws -> T {
        if let result {
            return try result.get()
        }
        // The waiter's handler is attached before the task can be cancelled, so that a
        // cancellation always withdraws an attachment that exists.
        let waiter = TaskWaiter<T>()
        waiter.keep(box.attach { waiter.finish(with: $0) })
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.start(continuation)
            }
        } onCancel: {
            waiter.cancel()
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
    public nonisolated(nonsending) var fulfilled: T {
        get async throws {
            try await async()
        }
    }
}

extension Guarantee {
    /// Suspends until the guarantee resolves, then returns its value.
    ///
    /// A guarantee cannot fail, so cancelling the awaiting task does not end the wait. Like
    /// ``Promise/async()``, it runs and resumes where it is awaited.
    ///
    /// ```swift
    /// await after(seconds: 1).async()
    /// ```
    @inlinable
    public nonisolated(nonsending) func async() async -> T {
        await withCheckedContinuation { continuation in
            box.observe { continuation.resume(returning: $0) }
        }
    }

    /// The value, once the guarantee resolves: suspends until then, as ``async()`` does.
    ///
    /// ```swift
    /// let thumbnail = await cachedAvatar().fulfilled
    /// ```
    @inlinable
    public nonisolated(nonsending) var fulfilled: T {
        get async {
            await async()
        }
    }
}
