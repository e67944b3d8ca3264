public import Dispatch

/// Where a handler runs: inline, or on a queue with optional work-item flags.
///
/// Every pending handler captures one, so it is a single word: flags, which are rare, live in
/// a small object of their own. They are kept as raw bits because `DispatchWorkItemFlags` is
/// not `Sendable` on every platform.
@usableFromInline
enum HandlerQueue: Sendable {
    case inline
    case queue(DispatchQueue)
    case flagged(FlaggedQueue)

    @inlinable
    init(_ queue: DispatchQueue?, _ flags: DispatchWorkItemFlags?) {
        guard let queue else {
            self = .inline
            return
        }
        if let flags, !flags.isEmpty {
            self = .flagged(FlaggedQueue(queue, flags))
        } else {
            self = .queue(queue)
        }
    }

    /// Runs `step` with `input` and `payload` on the queue, or at once when inline; a throw
    /// from `step` rejects `next`.
    ///
    /// A handler given a queue therefore never runs inside the call that attached it, even when
    /// the thenable is already resolved. `on: nil` runs it at once if the thenable is resolved,
    /// otherwise on the thread that resolves it.
    ///
    /// The step's inputs are passed separately rather than captured by a closure, so that the
    /// inline path allocates nothing.
    @inlinable
    func run<Input: Sendable, Payload: Sendable, U>(
        _ input: Input,
        _ payload: Payload,
        settling next: EmptyBox<Result<U, any Error>>,
        _ step: @escaping @Sendable (Input, Payload, EmptyBox<Result<U, any Error>>) throws -> Void
    ) {
        switch self {
        case .inline:
            next.settle { try step(input, payload, next) }
        case .queue(let queue):
            queue.async { next.settle { try step(input, payload, next) } }
        case .flagged(let flagged):
            flagged.queue.async(flags: flagged.flags) { next.settle { try step(input, payload, next) } }
        }
    }

    /// Runs `step` as ``run(_:_:settling:_:)`` does, for a step that cannot fail.
    @inlinable
    func run<Input: Sendable, Payload: Sendable, Next: Sendable>(
        _ input: Input,
        _ payload: Payload,
        resolving next: Next,
        _ step: @escaping @Sendable (Input, Payload, Next) -> Void
    ) {
        switch self {
        case .inline:
            step(input, payload, next)
        case .queue(let queue):
            queue.async { step(input, payload, next) }
        case .flagged(let flagged):
            flagged.queue.async(flags: flagged.flags) { step(input, payload, next) }
        }
    }
}

/// A queue with work-item flags, for the rare handler that asks for flags.
@usableFromInline
final class FlaggedQueue: Sendable {
    @usableFromInline
    let queue: DispatchQueue
    @usableFromInline
    let flagBits: DispatchWorkItemFlags.RawValue

    @inlinable
    init(_ queue: DispatchQueue, _ flags: DispatchWorkItemFlags) {
        self.queue = queue
        self.flagBits = flags.rawValue
    }

    @inlinable
    var flags: DispatchWorkItemFlags { DispatchWorkItemFlags(rawValue: flagBits) }
}

/// Which results of a thenable reach an operator's handler; the others settle the next promise
/// as they are, at once and without a hop to the handler's queue.
@usableFromInline
enum Route: Sendable {
    /// Every result, value or error.
    case results
    /// Errors that the policy hands to a recovery handler.
    case errors(CatchPolicy)

    @inlinable
    func admits<T>(_ result: Result<T, any Error>) -> Bool {
        switch (self, result) {
        case (.results, _): true
        case (.errors(let policy), .failure(let error)): policy.handles(error)
        case (.errors, .success): false
        }
    }
}

// Each operator passes its closure as the payload and describes its step as a closure that
// captures nothing. A step capturing the operator's closure would cost one more allocation per
// chained step, and a pending handler would hold two objects instead of one.

extension Thenable {
    /// The skeleton of the operators that handle fulfilled values and return a ``Promise``:
    /// a rejection settles the new promise at once; a value goes to `step` on `queue`, which
    /// must settle `next` or throw, and a throw rejects it.
    @inlinable
    func chainValue<U, Payload: Sendable>(
        on queue: HandlerQueue,
        with payload: Payload,
        _ step: @escaping @Sendable (T, Payload, EmptyBox<Result<U, any Error>>) throws -> Void
    ) -> Promise<U> {
        let next = EmptyBox<Result<U, any Error>>()
        pipe { result in
            switch result {
            case .success(let value):
                queue.run(value, payload, settling: next, step)
            case .failure(let error):
                next.seal(.failure(error))
            }
        }
        return Promise(next)
    }

    /// The skeleton of the operators that handle whole results and return a ``Promise``: results
    /// that `route` admits go to `step` on `queue`; the others settle the new promise at once.
    @inlinable
    func chainResult<Payload: Sendable>(
        on queue: HandlerQueue,
        route: Route = .results,
        with payload: Payload,
        _ step:
            @escaping @Sendable (Result<T, any Error>, Payload, EmptyBox<Result<T, any Error>>) throws -> Void
    ) -> Promise<T> {
        let next = EmptyBox<Result<T, any Error>>()
        pipe { result in
            guard route.admits(result) else {
                next.seal(result)
                return
            }
            queue.run(result, payload, settling: next, step)
        }
        return Promise(next)
    }
}

extension Guarantee {
    /// The skeleton of every operator that returns a ``Guarantee``: `step` runs on `queue` with
    /// the value and must seal `next`.
    @inlinable
    func chainGuarantee<U, Payload: Sendable>(
        on queue: HandlerQueue,
        with payload: Payload,
        _ step: @escaping @Sendable (T, Payload, EmptyBox<U>) -> Void
    ) -> Guarantee<U> {
        let next = EmptyBox<U>()
        box.observe { value in
            queue.run(value, payload, resolving: next, step)
        }
        return Guarantee<U>(next)
    }
}

extension EmptyBox {
    /// Runs `step`, which settles this box; a throw from it rejects the box instead.
    @inlinable
    func settle<U>(by step: () throws -> Void) where T == Result<U, any Error> {
        do {
            try step()
        } catch {
            seal(.failure(error))
        }
    }

    /// Settles this box as `source` does.
    ///
    /// - Throws: ``PromiseError/returnedSelf`` if `source` is the promise this box resolves,
    ///   which could then never settle.
    @inlinable
    func follow<Source: Thenable>(_ source: Source) throws where T == Result<Source.T, any Error> {
        if let promise = source as? Promise<Source.T>, promise.box.isBacked(by: self) {
            throw PromiseError.returnedSelf
        }
        source.pipe { self.seal($0) }
    }

    /// Resolves this box as `source` does.
    @inlinable
    func follow(_ source: Guarantee<T>) {
        precondition(
            !source.box.isBacked(by: self),
            "A handler returned the guarantee its own operator returned, so it could never resolve.")
        source.box.observe { self.seal($0) }
    }
}

extension Box {
    /// Whether `box` is this box's storage.
    @inlinable
    func isBacked(by box: EmptyBox<T>) -> Bool {
        if case .empty(let storage) = self { storage === box } else { false }
    }
}
