// Reading, awaiting, waiting for and cancelling a main-actor promise: all on the main actor,
// where its value may be read.

@MainActor
extension MainActorPromise {
    /// The result, or `nil` while the promise is pending.
    ///
    /// ```swift
    /// if case .success(let note)? = fetchNote().result { textView.note = note }
    /// ```
    @inlinable
    public var result: Result<T, any Error>? {
        shared.result.map { $0.map(\.value) }
    }

    /// The value if the promise is fulfilled, otherwise `nil`.
    @inlinable
    public var value: T? {
        shared.value?.value
    }

    /// Whether the promise has not yet settled.
    @inlinable
    public var isPending: Bool {
        shared.isPending
    }

    /// Cancels the promise and the work beneath it that nothing else waits on; see
    /// ``Promise/cancel()``.
    ///
    /// ```swift
    /// let note = fetchNote()
    /// note.cancel()
    /// ```
    @inlinable
    public func cancel() {
        shared.cancel()
    }

    /// Suspends until the promise settles, then returns its value or throws its error; it
    /// resumes on the main actor without a hop when the promise is already settled.
    ///
    /// ```swift
    /// let note = try await fetchNote().async()
    /// ```
    @inlinable
    public func async() async throws -> T {
        try await shared.async().value
    }

    /// Blocks the main thread until the promise settles, running the main queue meanwhile, as
    /// ``Thenable/wait(file:line:)`` does: for tests and scripts.
    ///
    /// ```swift
    /// let note = try fetchNote().wait()
    /// ```
    @available(*, noasync, message: "wait() blocks the thread; use 'await promise.async()' in async code")
    public func wait(file: StaticString = #fileID, line: UInt = #line) throws -> T {
        let call = WaitingCall("wait()", file: file, line: line, describedAs: "\(MainActorPromise.self)")
        return try shared.blockUntilResolved(call).get().value
    }
}

@MainActor
extension MainActorGuarantee {
    /// The value, or `nil` while the guarantee is pending.
    @inlinable
    public var value: T? {
        shared.value?.value
    }

    /// Whether the guarantee has not yet resolved.
    @inlinable
    public var isPending: Bool {
        shared.isPending
    }

    /// Suspends until the guarantee resolves, then returns its value.
    ///
    /// ```swift
    /// let deleted = await confirm(deleting: Note(text: "draft")).async()
    /// ```
    @inlinable
    public func async() async -> T {
        await shared.async().value
    }

    /// Blocks the main thread until the guarantee resolves, running the main queue meanwhile:
    /// for tests and scripts.
    ///
    /// ```swift
    /// let deleted = confirm(deleting: Note(text: "draft")).wait()
    /// ```
    @available(*, noasync, message: "wait() blocks the thread; use 'await guarantee.async()' in async code")
    public func wait(file: StaticString = #fileID, line: UInt = #line) -> T {
        let call = WaitingCall("wait()", file: file, line: line, describedAs: "\(MainActorGuarantee.self)")
        // A guarantee's result is never a failure.
        return try! shared.blockUntilResolved(call).get().value
    }
}

/// Runs the main queue until `promise` settles, then returns its value or throws its error: the
/// end of a script whose last step is a main-actor promise.
///
/// ```swift
/// let note = try hang(fetchNote())
/// ```
@MainActor
@available(*, noasync, message: "hang() blocks the thread; use 'await promise.async()' in async code")
public func hang<T>(_ promise: MainActorPromise<T>) throws -> T {
    // This form takes no caller's line, so a report names none.
    try promise.shared.blockUntilResolved(WaitingCall("hang(_:)", describedAs: "\(MainActorPromise<T>.self)"))
        .get().value
}

/// Runs the main queue until `guarantee` resolves, then returns its value.
///
/// ```swift
/// let deleted = hang(confirm(deleting: Note(text: "draft")))
/// ```
@MainActor
@available(*, noasync, message: "hang() blocks the thread; use 'await guarantee.async()' in async code")
public func hang<T>(_ guarantee: MainActorGuarantee<T>) -> T {
    // This form takes no caller's line, so a report names none. A guarantee never fails.
    try! guarantee.shared.blockUntilResolved(
        WaitingCall("hang(_:)", describedAs: "\(MainActorGuarantee<T>.self)")
    )
    .get().value
}
