public import CVowCore
public import Dispatch

// A script or a server whose main thread never returns to the main queue (it sits in a
// server's accept loop, or top-level code ends without `hang` or `dispatchMain()`) leaves every
// handler bound for the main queue waiting forever: a main-actor handler, or a nonisolated one
// on the default `conf.Q`. Nothing fails; the program just never answers. This watch turns that
// silence into one line of the log.
//
// When a handler is sent to the main queue and the watch is idle, it arms: it sends a probe
// block to the main queue, behind the handler, and checks after the threshold whether the probe
// has run. If it has, the watch goes back to idle and the next handler arms it again; if not,
// the handler has waited at least that long, and the watch reports a `MainQueueStall` and stays
// quiet for the rest of the process. So an app whose main run loop runs pays one probe block and
// one timer per threshold, and only while handlers go to the main queue; every other hop to the
// main queue pays one relaxed load of a C global, and a hop to any other queue nothing (one
// with work-item flags, a comparison too). The handlers watched are those sent to `mainQueue`:
// every main-actor handler, and every nonisolated one on the default `conf.Q`.
//
// The states, held in `vow_main_queue_watch`:
//
// | state    | means                                   | moves to                              |
// | -------- | --------------------------------------- | ------------------------------------- |
// | idle     | no probe out                            | armed, by a handler sent to main      |
// | armed    | a probe is out, its check pending       | idle (probe ran), reported (it did not) |
// | reported | said once; says nothing more            | nothing                               |
// | off      | `conf.mainQueueStallThreshold` is `nil` | idle, when a threshold is set again   |

/// Notices handlers waiting on a main queue that is not serviced, and reports it once.
@usableFromInline
enum MainQueueWatch {
    /// The main queue as Vow sends handlers to it: for a main-actor handler, and in the default
    /// `conf.Q`. One object, compared by identity: on Linux, every read of
    /// `DispatchQueue.main` makes a new object for the same queue. A queue given as `on: .main`
    /// is therefore watched, and hopped to through ``MainQueueJobs``, on Apple platforms only,
    /// where `DispatchQueue.main` is one object.
    @usableFromInline
    static let mainQueue: DispatchQueue = {
        let queue = DispatchQueue.main
        vow_main_queue_object_store(Unmanaged.passUnretained(queue).toOpaque())
        return queue
    }()

    /// Whether `queue` is ``mainQueue``: one load of a C global, where reading `mainQueue`
    /// itself would go through its one-time initialization on every hop.
    @inlinable
    static func isMainQueue(_ queue: DispatchQueue) -> Bool {
        vow_main_queue_object_load() == Unmanaged.passUnretained(queue).toOpaque()
    }

    @usableFromInline
    static let idle: UInt32 = 0
    static let armed: UInt32 = 1
    static let reported: UInt32 = 2
    static let off: UInt32 = 3

    /// Arms the watch if `queue`, which a handler with work-item flags was just sent to, is the
    /// main queue and no probe is out.
    @inlinable
    static func handlerSent(to queue: DispatchQueue) {
        guard isMainQueue(queue) else { return }
        handlerSentToMainQueue()
    }

    /// Arms the watch if no probe is out, for a handler just sent to the main queue.
    @inlinable
    static func handlerSentToMainQueue() {
        guard vow_main_queue_watch_state() == idle else { return }
        arm()
    }

    /// Sends a probe behind the handler, and checks it after the threshold.
    @usableFromInline
    static func arm() {
        guard let threshold = conf.mainQueueStallThreshold, vow_main_queue_watch_move(idle, armed) else {
            return
        }
        let probe = Locked(false)
        DispatchQueue.main.async { probe.withLock { $0 = true } }
        DispatchQueue.global().asyncAfter(deadline: .now() + threshold) {
            if probe.withLock({ $0 }) {
                _ = vow_main_queue_watch_move(armed, idle)
            } else if vow_main_queue_watch_move(armed, reported) {
                // Outside any lock: the log handler is the user's code.
                conf.log(.report(MainQueueStall(threshold: threshold)))
            }
        }
    }

    /// Turns the watch off for a `nil` threshold, or back on for a threshold.
    static func setEnabled(_ enabled: Bool) {
        if enabled {
            _ = vow_main_queue_watch_move(off, idle)
        } else {
            // An armed watch turned off lets its pending check find nothing to do; a watch that
            // has reported stays quiet.
            while true {
                let state = vow_main_queue_watch_state()
                if state == off || state == reported || vow_main_queue_watch_move(state, off) { return }
            }
        }
    }
}
