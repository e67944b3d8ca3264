extension Promise {
    /// A promise whose work starts only when the first handler is attached, rather than at
    /// once as ``init(file:line:resolver:)``'s does.
    ///
    /// Reading ``result`` or ``Thenable/isPending`` does not start it; `then`, `done`, `catch`, `wait()`,
    /// `await` and every other consumer do, and later ones share what the first one started.
    /// A lazy promise cancelled before anyone consumed it never runs its body. Hydra's promises
    /// all behave so; in Vow it is a choice made where the promise is created.
    ///
    /// ```swift
    /// let settings = Promise<Settings>.lazy { resolver in
    ///     resolver.fulfill(try Settings(contentsOf: settingsFile))
    /// }
    /// // Nothing has been read yet.
    /// settings.done { apply($0) }  // Reads the file now, once.
    /// ```
    ///
    /// `body` runs in the isolation of the code that wrote it, as handlers do; a nonisolated
    /// `body` runs on the thread that attaches the first handler, before that attachment
    /// returns. A throw from `body` rejects the promise.
    @inlinable
    public static func lazy(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable (Resolver<T>) throws -> Void
    ) -> Promise<T> {
        let work = PlacedHandler(body, else: .inline)
        let site = RecordedSite("Promise.lazy", fileID: file, line: line)
        return Promise(
            dormant: { box in
                work.queue.dispatch {
                    box.settle {
                        // Kept until the throw is handled: a resolver released unsealed cancels
                        // its promise.
                        let resolver = Resolver(box)
                        do {
                            try work.body(resolver)
                        } catch {
                            resolver.reject(error)
                        }
                    }
                }
            },
            madeAt: site)
    }

    /// A promise that starts the thenable `body` returns only when the first handler is
    /// attached, and then settles as it does.
    ///
    /// Everything else is as in the resolver form of `lazy(_:)`; a lazy promise is cheap to make
    /// and to drop, so it suits work that may turn out not to be needed:
    ///
    /// ```swift
    /// let avatar = Promise.lazy { api.fetchAvatar(for: user) }
    /// if user.wantsAvatars {
    ///     avatar.done { show($0) }  // Only now is the avatar fetched.
    /// }
    /// ```
    @inlinable
    public static func lazy<U: Thenable>(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () throws -> U
    ) -> Promise<T> where U.T == T {
        let work = PlacedHandler(body, else: .inline)
        let site = RecordedSite("Promise.lazy", fileID: file, line: line)
        return Promise(
            dormant: { box in
                work.queue.dispatch { box.settle { try box.follow(work.body()) } }
            },
            madeAt: site)
    }
}

extension Guarantee {
    /// A guarantee whose work starts only when the first handler is attached; see
    /// the resolver form of `Promise.lazy(_:)`.
    ///
    /// ```swift
    /// let greeting = Guarantee<String>.lazy { resolve in
    ///     resolve(makeGreeting())
    /// }
    /// greeting.done { print($0) }  // Only now is the greeting made.
    /// ```
    @inlinable
    public static func lazy(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body:
            @escaping @isolated(any) @Sendable (@escaping @Sendable (T) -> Void) -> Void
    ) -> Guarantee<T> {
        let work = PlacedHandler(body, else: .inline)
        let site = RecordedSite("Guarantee.lazy", fileID: file, line: line)
        return Guarantee(
            dormant: { box in
                work.queue.dispatch {
                    box.resolve {
                        let sealer = GuaranteeSealer(box)
                        work.body { sealer.resolve($0) }
                    }
                }
            },
            madeAt: site)
    }

    /// A guarantee that starts the guarantee `body` returns only when the first handler is
    /// attached, and then resolves as it does.
    ///
    /// ```swift
    /// let pause = Guarantee.lazy { after(seconds: 1) }
    /// pause.done { print("a second after the first handler was attached") }
    /// ```
    @inlinable
    public static func lazy(
        file: StaticString = #fileID, line: UInt = #line,
        @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () -> Guarantee<T>
    ) -> Guarantee<T> {
        let work = PlacedHandler(body, else: .inline)
        let site = RecordedSite("Guarantee.lazy", fileID: file, line: line)
        return Guarantee(
            dormant: { box in
                work.queue.dispatch { box.resolve { box.follow(work.body()) } }
            },
            madeAt: site)
    }
}

extension Promise {
    /// A lazy promise, whose `start` runs when the first handler attaches.
    @inlinable
    convenience init(
        dormant start: @escaping @Sendable (EmptyBox<Result<T, any Error>>) -> Void,
        madeAt site: RecordedSite
    ) {
        self.init(EmptyBox(dormant: LazyStart(start), madeAt: site))
    }
}

extension Guarantee {
    /// A lazy guarantee, whose `start` runs when the first handler attaches.
    @inlinable
    convenience init(
        dormant start: @escaping @Sendable (EmptyBox<T>) -> Void, madeAt site: RecordedSite
    ) {
        self.init(EmptyBox(dormant: LazyStart(start), madeAt: site))
    }
}

extension SealantBox {
    /// Runs a lazy box's work, `step`, which settles it; a throw from it rejects the box instead.
    /// A box cancelled before the work could start skips it: nobody wants its result any longer.
    @inlinable
    func settle<U>(by step: () throws -> Void) where T == Result<U, any Error> {
        guard !status.isCancelledHint else { return }
        do {
            try step()
        } catch {
            seal(.failure(error))
        }
    }

    /// Runs a lazy box's work, `step`, which resolves it, unless the box was cancelled before
    /// the work could start.
    @inlinable
    func resolve(by step: () -> Void) {
        guard !status.isCancelledHint else { return }
        step()
    }
}
