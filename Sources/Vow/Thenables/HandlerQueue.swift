public import Dispatch

/// Where a handler runs: inline, on a queue with optional work-item flags, on the actor it
/// was written in, or through a ``Dispatcher`` of the user's.
///
/// Every pending handler captures one, so it is a single word: flags, actors and dispatchers,
/// which are rare, live in small objects of their own. Flags are kept as raw bits there, because
/// `DispatchWorkItemFlags` is not `Sendable` on every platform.
///
/// The main queue has a case of its own. It is the hop app code takes most (every main-actor
/// handler, and every other on the default `conf.Q`): ``MainQueueJobs`` takes it without the
/// Swift overlay's block, and a step bound for it holds no queue object to retain and release.
/// That saves some 60 instructions a hop, against some 12 that every other step pays: with a
/// second case that has no payload, the enum's release is no longer inlined.
@usableFromInline
enum HandlerQueue: Sendable {
    case inline
    case main
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
        } else if MainQueueWatch.isMainQueue(queue) {
            self = .main
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
    /// which captures the box and the input, is made only for a hop. A hop to the main queue
    /// or to an actor sends one object instead, the job, which holds the box and the input and
    /// is, for an actor, its place in the mailbox too.
    @inlinable
    func run<Step: ChainStep, Slot: StepSlot>(_ admitted: Step.Admitted, in box: StepSlotBox<Step, Slot>) {
        switch self {
        case .inline:
            box.execute(admitted)
        case .main:
            MainQueueJobs.send(StepJob(box, admitted))
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
        case .main:
            MainQueueJobs.send(ClosureJob(work))
        case .queue(let queue):
            queue.async(execute: work)
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
