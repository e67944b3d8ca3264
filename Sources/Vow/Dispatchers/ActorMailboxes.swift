internal import CVowCore

// Handlers bound for an actor other than the main actor (one written in an actor's method, or
// given `owner:` an actor) wait in that actor's mailbox, and one task per actor runs them, in
// the order they were sent.
//
// A task per handler, as before, let two handlers attached in order to one promise run in
// either order: each task started on the global executor and then hopped to the actor, and the
// two hops raced. It also cost every step of a chain on an actor a task and two enqueues. With a
// mailbox, the first handler starts a task that enters the actor; every handler sent while that
// task runs joins the mailbox and runs in the same task, in order. A chain of steps on one actor
// therefore runs in one task: each step, finishing on the actor, sends the next into the mailbox
// the running task is draining.
//
// A handler that the running task's own handlers send to the same actor (the next step of a
// chain, say) joins a list that task keeps for itself, found through a thread-local slot, and
// runs right after the handler that sent it: no lock, and no other thread involved. That keeps
// every order the mailbox promises: handlers sent from one thread run in the order sent, and a
// step runs after the step that sent it.
//
// The actor is not held for longer than other work on it should wait: after `batchLimit`
// handlers the task yields, which puts it at the back of the actor's queue, and continues.
//
// The mailboxes live in one table keyed by the actor's identity, since an actor has no room
// for Vow's state. An entry exists exactly while its task is scheduled or running; the task
// holds the actor, so its identity cannot be reused meanwhile, and the table never keeps an
// actor alive once its handlers have run. A mailbox is a list linked through its handlers, so
// that a burst of handlers never grows, copies or frees a large buffer. Handlers are released,
// and so may run `deinit`s of what they captured, only after the lock is left.

/// The mailboxes of every actor with handlers waiting or running.
@usableFromInline
enum ActorMailboxes {
    /// The handlers sent to each actor while its task runs. An entry exists exactly while that
    /// task is scheduled or running, so an empty mailbox means "running, nothing more yet".
    @usableFromInline
    static let mailboxes = Locked<[ObjectIdentifier: Mailbox]>([:])

    /// How many handlers the task runs before it lets other work on the actor go first.
    @usableFromInline
    static let batchLimit = 256

    /// Runs `job` on `actor` after every handler sent to it before, never inside this call.
    @usableFromInline
    static func send(_ job: MailboxJob, to actor: any Actor) {
        let key = ObjectIdentifier(actor)
        if let running = vow_thread_running_mailbox() {
            let running = Unmanaged<RunningMailbox>.fromOpaque(running).takeUnretainedValue()
            if running.key == key {
                running.sentHere.append(job)
                return
            }
        }
        let joined = mailboxes.withLock { mailboxes -> Bool in
            guard mailboxes[key]?.append(job) != nil else {
                mailboxes[key] = Mailbox()
                return false
            }
            return true
        }
        if !joined {
            Task { await drain(startingWith: job, on: actor) }
        }
    }

    /// The handlers sent to the actor behind `key` since the last call, oldest first, or `nil`,
    /// having closed its mailbox, once there are none: the task's one transition.
    @usableFromInline
    static func take(_ key: ObjectIdentifier) -> MailboxJob? {
        mailboxes.withLock { mailboxes in
            guard let first = mailboxes[key]?.takeAll() else {
                mailboxes[key] = nil
                return nil
            }
            return first
        }
    }

    /// The actor's task: `first`, then every handler sent meanwhile, in order, until the
    /// mailbox is empty.
    @usableFromInline
    static func drain(startingWith first: MailboxJob, on actor: isolated any Actor) async {
        let running = RunningMailbox(ObjectIdentifier(actor))
        let slot = Unmanaged.passUnretained(running).toOpaque()
        var next: MailboxJob? = first
        var ranSinceYield = 0
        repeat {
            while let job = next {
                if ranSinceYield == batchLimit {
                    // The slot is ours only while a handler runs, so the task may go on elsewhere.
                    await Task.yield()
                    ranSinceYield = 0
                }
                // Unlinked before it runs, so that each handler is let go as it finishes.
                next = job.next
                job.next = nil
                // Restored rather than cleared: a handler that turns a run loop in `wait()` may
                // run another actor's task inside its own, on this thread.
                let outer = vow_thread_running_mailbox()
                vow_set_thread_running_mailbox(slot)
                job.perform(job)
                vow_set_thread_running_mailbox(outer)
                ranSinceYield += 1
                // What the handler sent to this actor runs next, in the order it was sent.
                if let sent = running.sentHere.takeAll(prepending: next) {
                    next = sent
                }
            }
            next = take(running.key)
        } while next != nil
    }
}

/// The task of one actor's mailbox, as its handlers find it: the actor's identity, and the
/// handlers they sent to the same actor.
@usableFromInline
// @unchecked: only the thread running the actor's task touches it, between handlers or from
// inside one, through the thread-local slot that task sets around each handler.
final class RunningMailbox: @unchecked Sendable {
    @usableFromInline
    let key: ObjectIdentifier
    @usableFromInline
    var sentHere = Mailbox()

    @inlinable
    init(_ key: ObjectIdentifier) {
        self.key = key
    }
}

/// One actor's waiting handlers, oldest first.
@usableFromInline
struct Mailbox: Sendable {
    @usableFromInline
    var first: MailboxJob?
    @usableFromInline
    var last: MailboxJob?

    @inlinable
    init() {}

    @inlinable
    mutating func append(_ job: MailboxJob) {
        if let last {
            last.next = job
        } else {
            first = job
        }
        last = job
    }

    /// Empties the mailbox, returning its oldest handler, linked to the rest and then to
    /// `following`; `nil` if it was empty.
    @inlinable
    mutating func takeAll(prepending following: MailboxJob? = nil) -> MailboxJob? {
        defer { (first, last) = (nil, nil) }
        last?.next = following
        return first
    }
}

/// A handler in a mailbox, linked to the one sent after it: the work and its place in the list
/// in one object. A hop to the main queue sends the same object (``MainQueueJobs``), whose
/// `next` it leaves unused.
///
/// Its work is a function of the job that captures nothing, as ``TrampolineWork``'s is, rather
/// than a method overridden by each kind: formed in inlinable code, it is specialized for the
/// client's types, where an override of a generic class runs unspecialized.
@usableFromInline
// @unchecked: `next` is written under the mailboxes' lock while the job waits, and after that
// only by the actor's task, which took the job from the mailbox under the same lock or from its
// own list.
class MailboxJob: @unchecked Sendable {
    @usableFromInline
    final var next: MailboxJob?
    @usableFromInline
    final let perform: (MailboxJob) -> Void

    @inlinable
    init(perform: @escaping (MailboxJob) -> Void) {
        self.perform = perform
    }
}

/// A job that calls a closure: a dispatcher's work, a lazy promise's start, or other work sent to
/// the main queue.
@usableFromInline
// @unchecked: `work` is an immutable `@Sendable` closure, and what the class inherits is a
// `MailboxJob`'s, whose comment says why that is safe.
final class ClosureJob: MailboxJob, @unchecked Sendable {
    @usableFromInline
    let work: @Sendable () -> Void

    @inlinable
    init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
        super.init { unsafeDowncast($0, to: ClosureJob.self).work() }
    }
}

/// A job that runs a step of a chain with its input: one object where a closure capturing the
/// box and the input would be a second.
@usableFromInline
// @unchecked: `box` is `Sendable` and `admitted` is a value the step received once and hands
// to the actor's task alone.
final class StepJob<Step: ChainStep, Slot: StepSlot>: MailboxJob, @unchecked Sendable
where Slot.Step == Step {
    @usableFromInline
    let box: StepSlotBox<Step, Slot>
    @usableFromInline
    let admitted: Step.Admitted

    @inlinable
    init(_ box: StepSlotBox<Step, Slot>, _ admitted: Step.Admitted) {
        self.box = box
        self.admitted = admitted
        super.init {
            let job = unsafeDowncast($0, to: StepJob<Step, Slot>.self)
            job.box.execute(job.admitted)
        }
    }
}
