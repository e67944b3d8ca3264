public import Dispatch

extension Thenable {
    /// Consumes the fulfilled value at the end of a chain.
    ///
    /// The returned promise fulfils once `body` has run, or rejects with this thenable's error
    /// or the one `body` throws. End the chain with `catch`.
    ///
    /// `body` runs in the isolation of the code that wrote it: on the main actor in
    /// `@MainActor` code, on the actor in an actor's method, otherwise on `conf.Q.return`.
    ///
    /// ```swift
    /// @MainActor final class ScoreModel {
    ///     var text = ""
    ///     func refresh() {
    ///         fetchScore().done { score in
    ///             self.text = "\(score)"
    ///         }.catch { error in
    ///             self.text = "unavailable"
    ///         }
    ///     }
    /// }
    /// ```
    @inlinable
    public func done(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (T) throws -> Void
    ) -> Promise<Void> {
        done(via: PlacedHandler(body, else: .return), madeAt: RecordedSite("done", fileID: file, line: line))
    }

    /// Consumes the fulfilled value on `on`, or inline when `on` is `nil`.
    ///
    /// `body` is nonisolated: it may not touch the state of the actor that wrote it.
    ///
    /// ```swift
    /// fetchScore().done(on: logQueue) { score in
    ///     log("score: \(score)")
    /// }.cauterize()
    /// ```
    @inlinable
    public func done(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<Void> {
        done(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("done", fileID: file, line: line))
    }

    /// Consumes the fulfilled value through `dispatcher`.
    ///
    /// `body` is nonisolated, as with a queue.
    ///
    /// ```swift
    /// fetchScore().done(on: .mainActor) { score in
    ///     print("score: \(score)")
    /// }.cauterize()
    /// ```
    @inlinable
    public func done(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<Void> {
        done(via: PlacedHandler(on: dispatcher, body), madeAt: RecordedSite("done", fileID: file, line: line))
    }

    @inlinable
    func done(
        via handler: PlacedHandler<@Sendable (T) throws -> Void>, madeAt site: RecordedSite
    ) -> Promise<Void> {
        map(via: handler, madeAt: site)
    }
}

extension Guarantee {
    /// Consumes the value at the end of a chain that cannot fail.
    ///
    /// `body` runs in the isolation of the code that wrote it, as with
    /// ``Thenable/done(file:line:_:)``.
    ///
    /// ```swift
    /// after(seconds: 1).done { print("tick") }
    /// ```
    @inlinable
    @discardableResult
    public func done(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (T) -> Void
    ) -> Guarantee<Void> {
        done(via: PlacedHandler(body, else: .return), madeAt: RecordedSite("done", fileID: file, line: line))
    }

    /// Consumes the value on `on`, or inline when `on` is `nil`.
    ///
    /// ```swift
    /// after(seconds: 1).done(on: nil) { print("tick") }
    /// ```
    @inlinable
    @discardableResult
    public func done(
        on: DispatchQueue?,
        flags: DispatchWorkItemFlags? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<Void> {
        done(
            via: PlacedHandler(on: on, flags: flags, body),
            madeAt: RecordedSite("done", fileID: file, line: line))
    }

    /// Consumes the value through `dispatcher`.
    ///
    /// ```swift
    /// after(seconds: 1).done(on: .inline) { print("tick") }
    /// ```
    @inlinable
    @discardableResult
    public func done(
        on dispatcher: some Dispatcher,
        file: StaticString = #fileID, line: UInt = #line,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<Void> {
        done(via: PlacedHandler(on: dispatcher, body), madeAt: RecordedSite("done", fileID: file, line: line))
    }

    @inlinable
    func done(
        via handler: PlacedHandler<@Sendable (T) -> Void>, madeAt site: RecordedSite
    ) -> Guarantee<Void> {
        map(via: handler, madeAt: site)
    }
}
