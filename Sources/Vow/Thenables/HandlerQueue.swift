public import Dispatch

/// Where a handler runs: inline, on a queue with optional work-item flags, on the actor it
/// was written in, or through a ``Dispatcher`` of the user's.
///
/// Every pending handler captures one, so it is a single word: flags, actors and dispatchers,
/// which are rare, live in small objects of their own. Flags are kept as raw bits there, because
/// `DispatchWorkItemFlags` is not `Sendable` on every platform.
@usableFromInline
enum HandlerQueue: Sendable {
    case inline
    case queue(DispatchQueue)
    case flagged(FlaggedQueue)
    case actor(IsolatedTarget)
    case dispatched(DispatcherTarget)

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
        case .actor(let target):
            target.run { next.settle { try step(input, payload, next) } }
        case .dispatched(let target):
            target.dispatcher.dispatch { next.settle { try step(input, payload, next) } }
        }
    }

    /// Runs `step` as ``run(_:_:settling:_:)`` does, for a step that cannot fail.
    @inlinable
    func run<Input: Sendable, Payload: Sendable, U>(
        _ input: Input,
        _ payload: Payload,
        resolving next: EmptyBox<U>,
        _ step: @escaping @Sendable (Input, Payload, EmptyBox<U>) -> Void
    ) {
        switch self {
        case .inline:
            next.resolve { step(input, payload, next) }
        case .queue(let queue):
            queue.async { next.resolve { step(input, payload, next) } }
        case .flagged(let flagged):
            flagged.queue.async(flags: flagged.flags) { next.resolve { step(input, payload, next) } }
        case .actor(let target):
            target.run { next.resolve { step(input, payload, next) } }
        case .dispatched(let target):
            target.dispatcher.dispatch { next.resolve { step(input, payload, next) } }
        }
    }
}
