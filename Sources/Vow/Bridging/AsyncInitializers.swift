extension Promise {
    /// Starts `operation` in a new unstructured task and returns a promise of its outcome: the
    /// value it returns fulfils the promise, an error it throws rejects it.
    ///
    /// The task is made exactly as `Task { … }` makes one, so the closure keeps the actor
    /// isolation of the code that writes it, the task-local values in scope are copied into it,
    /// and `priority` (by default that of the current task) is its priority.
    ///
    /// Cancelling the promise cancels the task, and so does cancellation that reaches the
    /// promise from below (see ``cancel()``). The promise rejects at once with
    /// ``PromiseError/cancelled``; the task notices as any task does, through
    /// `Task.isCancelled`, `Task.checkCancellation()` or an await that stops early, and what it
    /// returns after that is ignored.
    ///
    /// ```swift incomplete
    /// @MainActor func reloadProfile() -> Promise<Profile> {
    ///     Promise {
    ///         // On the main actor, as in a `Task { … }` written here.
    ///         self.spinner.start()
    ///         defer { self.spinner.stop() }
    ///         return try await self.api.profile(for: self.userID)
    ///     }
    /// }
    /// ```
    ///
    /// A closure that takes a ``Resolver`` still selects ``init(file:line:resolver:)``, which
    /// runs it at once on this thread: `Promise { resolver in … }`.
    @inlinable
    public convenience init(
        priority: TaskPriority? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> T
    ) {
        let box = EmptyBox<Result<T, any Error>>(
            madeAt: RecordedSite("Promise(operation:)", fileID: file, line: line))
        self.init(box)
        // `operation` is handed to `Task.init` itself, not called from a closure of ours: only
        // then does the task start on the operation's executor, enqueued in creation order like
        // any `Task { … }`, instead of starting elsewhere and hopping over. A closure written
        // here cannot take on the operation's isolation, so a second task waits for the first.
        let task = Task(priority: priority, operation: operation)
        box.onCancel { task.cancel() }
        Task(priority: priority) { box.sealOwnResult(await task.result) }
    }
}

extension Guarantee {
    /// Starts `operation` in a new unstructured task and returns a guarantee of the value it
    /// returns.
    ///
    /// The task is made exactly as `Task { … }` makes one, so the closure keeps the actor
    /// isolation of the code that writes it, the task-local values in scope are copied into it,
    /// and `priority` (by default that of the current task) is its priority.
    ///
    /// A guarantee cannot be cancelled, but once every consumer has cancelled and no handle to
    /// it is left, its task is cancelled: nobody can see its value any longer.
    ///
    /// ```swift
    /// Guarantee {
    ///     await makeThumbnail(for: photo)
    /// }.done { thumbnail in
    ///     cache.store(thumbnail, for: photo.id)
    /// }
    /// ```
    ///
    /// A closure that takes the resolve function still selects
    /// ``init(file:line:resolver:)``, which runs it at once on this thread:
    /// `Guarantee { resolve in … }`.
    @inlinable
    public convenience init(
        priority: TaskPriority? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext operation: sending @escaping @isolated(any) () async -> T
    ) {
        self.init(
            priority: priority, madeAt: RecordedSite("Guarantee(operation:)", fileID: file, line: line),
            operation: operation)
    }

    /// ``init(priority:file:line:operation:)``, its box made by the operation that `site` names.
    @inlinable
    convenience init(
        priority: TaskPriority?, madeAt site: RecordedSite,
        operation: sending @escaping @isolated(any) () async -> T
    ) {
        let box = EmptyBox<T>(madeAt: site)
        self.init(box)
        // Handed to `Task.init` itself so the task starts on the operation's executor; see the
        // promise's initializer.
        let task = Task(priority: priority, operation: operation)
        box.onCancel { task.cancel() }
        Task(priority: priority) { box.seal(await task.value) }
    }
}
