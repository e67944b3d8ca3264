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

    /// Runs the step of `box` with `admitted` on the queue, or at once when inline.
    ///
    /// A handler given a queue therefore never runs inside the call that attached it, even when
    /// the thenable is already resolved. `on: nil` runs it at once if the thenable is resolved,
    /// otherwise on the thread that resolves it.
    ///
    /// The inline path is apart so that it allocates nothing: the closure a hop dispatches,
    /// which captures the box and the input, is made only for a hop. A hop to an actor sends
    /// one object, the job, which is both that closure and its place in the actor's mailbox.
    @inlinable
    func run<Step: ChainStep, Slot: StepSlot>(_ admitted: Step.Admitted, in box: StepSlotBox<Step, Slot>) {
        switch self {
        case .inline:
            box.execute(admitted)
        case .actor(let target):
            target.run(StepJob(box, admitted))
        default:
            dispatch { box.execute(admitted) }
        }
    }

    /// Runs `work` on the queue, or at once when inline.
    @inlinable
    func dispatch(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .inline:
            work()
        case .queue(let queue):
            queue.async(execute: work)
            MainQueueWatch.handlerSent(to: queue)
        case .flagged(let flagged):
            flagged.queue.async(flags: flagged.flags, execute: work)
            MainQueueWatch.handlerSent(to: flagged.queue)
        case .actor(let target):
            target.run(ClosureJob(work))
        case .dispatched(let target):
            target.dispatcher.dispatch(work)
        }
    }
}
