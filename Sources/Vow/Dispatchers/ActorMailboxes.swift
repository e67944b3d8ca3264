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
// chain, say) goes to a list that task keeps for itself, found through a thread-local slot: no
// lock, and no other thread involved. The task runs its handlers from a queue of its own and,
// once a handler returns, adds what it sent here to the back, as a serial queue would. Before it
// does, if `foldInterval` handlers have run since it last read the mailbox, it moves what other
// threads put there meanwhile to the back first, under the lock, leaving the mailbox open. Both
// halves are needed. Were the next step put at the front, a chain that keeps sending itself its
// next step (a promise loop) would always run ahead of the mailbox; were the mailbox read only
// once the queue is empty, such a loop would never let it be read. Either way a handler another
// thread sent would wait for the loop to end. A handler that sends many here at once, fanning
// out, is the third case: after every `foldInterval` of those, the mailbox's content joins its
// list, before the rest. Now a handler another thread sends waits behind at most `foldInterval`
// handlers sent here after it, besides those already queued when it was sent, however they
// were sent.
//
// Every order the mailbox promises holds. Handlers sent from one thread run in the order sent:
// the mailbox is read in the order it was filled and goes to the back of the queue, behind
// everything taken before, and what is sent here goes to the back too, in the order sent. The
// thread running the task may itself have filled the mailbox before it began to (the task's
// start, or its return from a yield, after which it may go on on another thread), so the first
// handlers sent here in each such run wait until the mailbox has been read. And a step runs
// after the step that sent it, which was running when it sent it.
//
// The actor is not held for longer than other work on it should wait: after `batchLimit`
// handlers the task yields, which puts it at the back of the actor's queue, and continues.
//
// The mailboxes live in tables keyed by the actor's identity, since an actor has no room for
// Vow's state: 16 of them, the actor's address picking one, each behind its own lock. With one
// table, every hop to any actor took the same lock: eight threads sending to 64 actors found it
// held at 2.6% of its acquisitions and spent 18% more per hop than with 16, where a chain on one
// actor costs the same either way (actor-contended and actor-chain-3, Performance.md). An entry
// exists exactly while its task is scheduled or running; the task holds the actor, so its
// identity cannot be reused meanwhile, and the table never keeps an actor alive once its
// handlers have run. A mailbox is a list linked through its handlers, so that a burst of
// handlers never grows, copies or frees a large buffer. Handlers are released, and so may run
// `deinit`s of what they captured, only after the lock is left.

/// The mailboxes of every actor with handlers waiting or running.
@usableFromInline
enum ActorMailboxes {
    /// The handlers sent to each actor while its task runs, in 16 tables (a power of two), each
    /// behind a lock of its own. An entry exists exactly while that task is scheduled or
    /// running, so an empty mailbox means "running, nothing more yet".
    @usableFromInline
    static let stripes = (0..<16).map { _ in Locked<[ObjectIdentifier: Mailbox]>([:]) }

    /// The table holding the mailbox of the actor behind `key`, picked by its address: the bits
    /// above the lowest four, which an object's alignment leaves the same for every actor.
    @inlinable
    static func mailboxes(_ key: ObjectIdentifier) -> Locked<[ObjectIdentifier: Mailbox]> {
        stripes[Int(truncatingIfNeeded: UInt(bitPattern: key) >> 4) & (stripes.count - 1)]
    }

    /// How many handlers the task runs before it lets other work on the actor go first.
    @usableFromInline
    static let batchLimit = 256

    /// How many handlers the task runs, or its handlers send here, at most, between two
    /// readings of its mailbox while its handlers keep sending it more: the most handlers sent
    /// here after it that a handler from another thread can wait behind. A reading takes the
    /// lock that sending here avoids; every 16th handler keeps that to one lock per 16 steps of
    /// a chain, while a handler from elsewhere waits behind no more than 16 of the actor's own,
    /// a few microseconds of work.
    @usableFromInline
    static let foldInterval = 16

    /// Runs `job` on `actor` after every handler sent to it before from this thread, never inside
    /// this call. Sent from a handler running on `actor`, it runs after every handler the
    /// actor's task has taken up; sent from elsewhere, it waits behind at most ``foldInterval``
    /// handlers that the actor's own handlers send it afterwards.
    @usableFromInline
    static func send(_ job: MailboxJob, to actor: any Actor) {
        let key = ObjectIdentifier(actor)
        if let running = vow_thread_running_mailbox() {
            let running = Unmanaged<RunningMailbox>.fromOpaque(running).takeUnretainedValue()
            if running.key == key {
                // A handler that sends many here at once, fanning out, lets what other threads
                // sent meanwhile in after each `foldInterval` of them, before the rest.
                if running.sentSinceFold == foldInterval {
                    var taken = fold(key)
                    running.sentHere.append(contentsOf: &taken)
                    running.sentSinceFold = 0
                    running.tookMailbox = true
                }
                running.sentHere.append(job)
                running.sentSinceFold += 1
                return
            }
        }
        let joined = mailboxes(key).withLock { mailboxes -> Bool in
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

    /// The handlers sent to the actor behind `key` since the last call, oldest first, leaving
    /// its mailbox open.
    @usableFromInline
    static func fold(_ key: ObjectIdentifier) -> Mailbox {
        mailboxes(key).withLock { mailboxes in mailboxes[key]?.takeAll() ?? Mailbox() }
    }

    /// The handlers sent to the actor behind `key` since the last call, oldest first, or `nil`,
    /// having closed its mailbox, once there are none: the task's one transition.
    @usableFromInline
    static func take(_ key: ObjectIdentifier) -> Mailbox? {
        mailboxes(key).withLock { mailboxes in
            guard let taken = mailboxes[key]?.takeAll(), taken.first != nil else {
                mailboxes[key] = nil
                return nil
            }
            return taken
        }
    }

    /// The actor's task: `first`, then every handler sent meanwhile, in order, until the
    /// mailbox is empty.
    @usableFromInline
    static func drain(startingWith first: MailboxJob, on actor: isolated any Actor) async {
        let running = RunningMailbox(ObjectIdentifier(actor))
        let slot = Unmanaged.passUnretained(running).toOpaque()
        var queue = Mailbox()
        queue.append(first)
        var ranSinceYield = 0
        // Due at once: this thread may have filled the mailbox before it began running the task.
        var ranSinceFold = foldInterval
        while true {
            while let job = queue.removeFirst() {
                if ranSinceYield == batchLimit {
                    // The slot is ours only while a handler runs, so the task may go on elsewhere.
                    await Task.yield()
                    ranSinceYield = 0
                    ranSinceFold = foldInterval
                }
                // Restored rather than cleared: a handler that turns a run loop in `wait()` may
                // run another actor's task inside its own, on this thread.
                let outer = vow_thread_running_mailbox()
                vow_set_thread_running_mailbox(slot)
                job.perform(job)
                vow_set_thread_running_mailbox(outer)
                ranSinceYield += 1
                ranSinceFold += 1
                // Only what a handler sends here can pass what waits in the mailbox, so the
                // mailbox is read just before that joins the queue, at most once per
                // `foldInterval` handlers.
                if running.sentHere.first != nil {
                    if running.tookMailbox {
                        // The handler's sends read the mailbox already; what came since stays
                        // there, behind what they took, until the next reading.
                        running.tookMailbox = false
                        ranSinceFold = 0
                    } else if ranSinceFold >= foldInterval {
                        var taken = fold(running.key)
                        queue.append(contentsOf: &taken)
                        ranSinceFold = 0
                        running.sentSinceFold = 0
                    }
                    queue.append(contentsOf: &running.sentHere)
                }
            }
            guard var taken = take(running.key) else { return }
            queue.append(contentsOf: &taken)
            ranSinceFold = 0
            running.sentSinceFold = 0
        }
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
    /// The handlers sent here since the task last read the mailbox, or since ``sentHere`` last
    /// took in what the mailbox held.
    @usableFromInline
    var sentSinceFold = 0
    /// Whether ``sentHere`` took in what the mailbox held, during the handler now running.
    @usableFromInline
    var tookMailbox = false

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

    /// Moves every handler of `other` to the end of this mailbox, in their order, leaving `other`
    /// empty.
    @inlinable
    mutating func append(contentsOf other: inout Mailbox) {
        guard let head = other.first else { return }
        if let last {
            last.next = head
        } else {
            first = head
        }
        last = other.last
        other = Mailbox()
    }

    /// Removes the oldest handler and returns it unlinked from the rest, so that each handler
    /// is let go as it finishes; `nil` if the mailbox is empty.
    @inlinable
    mutating func removeFirst() -> MailboxJob? {
        guard let job = first else { return nil }
        first = job.next
        if first == nil {
            last = nil
        }
        job.next = nil
        return job
    }

    /// Empties the mailbox, returning what it held.
    @inlinable
    mutating func takeAll() -> Mailbox {
        defer { self = Mailbox() }
        return self
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
// @unchecked: `next` is written under the lock of its mailbox's table while the job waits, and
// after that only by the actor's task, which took the job from the mailbox under the same lock
// or from its own queue.
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
