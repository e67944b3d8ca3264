import Dispatch

/// Where a handler runs: on a queue with optional work-item flags, or inline.
///
/// Carries the flags as their raw bits because `DispatchWorkItemFlags` is not `Sendable` on
/// every platform, and handlers capture their placement across threads.
struct HandlerQueue: Sendable {
    private let queue: DispatchQueue?
    private let flagBits: DispatchWorkItemFlags.RawValue?

    init(_ queue: DispatchQueue?, _ flags: DispatchWorkItemFlags?) {
        self.queue = queue
        self.flagBits = flags?.rawValue
    }

    /// Runs `body` asynchronously on the queue, or inline when there is no queue.
    ///
    /// A handler given a queue therefore never runs inside the call that attached it, even when
    /// the thenable is already resolved. `on: nil` runs it at once if the thenable is resolved,
    /// otherwise on the thread that resolves it.
    func run(_ body: @escaping @Sendable () -> Void) {
        guard let queue else {
            body()
            return
        }
        if let flagBits {
            queue.async(flags: DispatchWorkItemFlags(rawValue: flagBits), execute: body)
        } else {
            queue.async(execute: body)
        }
    }
}

extension Thenable {
    /// The skeleton of every operator that returns a ``Promise``.
    ///
    /// Results for which `passThrough` returns a result settle the new promise at once, without
    /// a hop to `queue`. The others go to `body` on `queue`, which must settle the promise or
    /// throw; a throw rejects it.
    func chain<U>(
        on queue: HandlerQueue,
        passThrough: @escaping @Sendable (Result<T, any Error>) -> Result<U, any Error>?,
        _ body: @escaping @Sendable (Result<T, any Error>, Promise<U>) throws -> Void
    ) -> Promise<U> {
        let promise = Promise<U>(box: EmptyBox())
        pipe { result in
            if let settled = passThrough(result) {
                promise.box.seal(settled)
                return
            }
            queue.run {
                do {
                    try body(result, promise)
                } catch {
                    promise.box.seal(.failure(error))
                }
            }
        }
        return promise
    }

    /// Runs `body` with each fulfilled value; a rejection skips it and passes straight through.
    func chainValue<U>(
        on queue: HandlerQueue,
        _ body: @escaping @Sendable (T, Promise<U>) throws -> Void
    ) -> Promise<U> {
        chain(on: queue, passThrough: { $0.rejection() }) { result, promise in
            try body(result.get(), promise)
        }
    }

    /// Runs `body` with every result, value or error.
    func chainResult<U>(
        on queue: HandlerQueue,
        _ body: @escaping @Sendable (Result<T, any Error>, Promise<U>) throws -> Void
    ) -> Promise<U> {
        chain(on: queue, passThrough: { _ in nil }, body)
    }
}

extension Guarantee {
    /// The skeleton of every operator that returns a ``Guarantee``: `body` runs on `queue` with
    /// the value and must resolve the new guarantee.
    func chainGuarantee<U>(
        on queue: HandlerQueue,
        _ body: @escaping @Sendable (T, Guarantee<U>) -> Void
    ) -> Guarantee<U> {
        let guarantee = Guarantee<U>(box: EmptyBox())
        box.observe { value in
            queue.run { body(value, guarantee) }
        }
        return guarantee
    }

    /// Resolves this guarantee as `next` does.
    func follow(_ next: Guarantee<T>) {
        precondition(
            next !== self,
            "A handler returned the guarantee its own operator returned, so it could never resolve.")
        next.box.observe { self.box.seal($0) }
    }
}

extension Promise {
    /// Settles this promise as `next` does, refusing to wait on itself.
    func follow<U: Thenable>(_ next: U) throws where U.T == T {
        guard next !== self else { throw PromiseError.returnedSelf }
        next.pipe { self.box.seal($0) }
    }
}

extension Result {
    /// The same failure retyped for another success type, or `nil` for a success.
    func rejection<U>() -> Result<U, Failure>? {
        guard case .failure(let error) = self else { return nil }
        return .failure(error)
    }
}
