internal import CVowCore

/// How a handler reaches the main queue: as one ``MailboxJob``, handed to libdispatch's
/// `dispatch_async_f` from `CVowCore`.
///
/// The main queue is where every main-actor handler runs, and where the default `conf.Q` sends
/// the rest, so this is the hop that app code takes at almost every step. The Swift overlay's
/// `DispatchQueue.async` takes a closure, which it copies into a block on the heap and calls
/// through generic thunks; a job is the step's box and its input in the one object that the
/// hop allocates, passed as the context pointer of a function that captures nothing. The queue
/// is libdispatch's own main queue, the one `DispatchQueue.main` and the main actor's executor
/// use, so a handler keeps its place among the other blocks sent there.
@usableFromInline
enum MainQueueJobs {
    /// Runs `job` on the main queue, after the blocks already there, and tells the watch over
    /// the main queue that a handler is waiting.
    @usableFromInline
    static func send(_ job: MailboxJob) {
        vow_main_queue_async(Unmanaged.passRetained(job).toOpaque(), runJob)
        MainQueueWatch.handlerSentToMainQueue()
    }
}

/// Runs, on the main queue, the job whose retain ``MainQueueJobs/send(_:)`` passed in `context`,
/// and releases it.
private func runJob(_ context: UnsafeMutableRawPointer?) {
    guard let context else { preconditionFailure("a main-queue job came without its context") }
    let job = Unmanaged<MailboxJob>.fromOpaque(context).takeRetainedValue()
    job.perform(job)
}
