import Dispatch
import Foundation

/// The queues handlers run on, each marked so a closure can tell which one it runs on.
final class ModelQueues: Sendable {
    let serial0 = DispatchQueue(label: "vow.model.serial0")
    let serial1 = DispatchQueue(label: "vow.model.serial1")
    let concurrent = DispatchQueue(label: "vow.model.concurrent", attributes: .concurrent)
    private let key = DispatchSpecificKey<Int>()

    init() {
        serial0.setSpecific(key: key, value: QueueTag.serial0.rawValue)
        serial1.setSpecific(key: key, value: QueueTag.serial1.rawValue)
        concurrent.setSpecific(key: key, value: QueueTag.concurrent.rawValue)
    }

    func queue(for place: Place) -> DispatchQueue? {
        switch place {
        case .inline: nil
        case .serial0: serial0
        case .serial1: serial1
        case .concurrent: concurrent
        }
    }

    /// The test queue the caller runs on.
    var current: QueueTag {
        DispatchQueue.getSpecific(key: key).flatMap(QueueTag.init(rawValue:)) ?? .none
    }

    /// Waits until every block dispatched to the queues so far has finished: a marker block on
    /// each serial queue, and a barrier on the concurrent one, runs only after all of them.
    ///
    /// The barrier goes through `async(flags: .barrier)` without a group, which calls
    /// `dispatch_barrier_async`. With a group, or as a `DispatchWorkItem`, the barrier flag
    /// travels inside the block, and under Thread Sanitizer on Linux a block submitted from a
    /// `Thread` then ran alongside the blocks before it.
    func drain(within seconds: Double) -> Bool {
        let drained = DispatchSemaphore(value: 0)
        serial0.async { drained.signal() }
        serial1.async { drained.signal() }
        concurrent.async(flags: .barrier) { drained.signal() }
        let deadline = DispatchTime.now() + seconds
        return (0..<3).allSatisfy { _ in drained.wait(timeout: deadline) == .success }
    }
}

/// Holds back the threads of a step until all of them are ready, briefly: a thread that does
/// not arrive within a millisecond is late, and the others go on without it.
// @unchecked: `arrived` is only read or written while holding `condition`.
final class StartGate: @unchecked Sendable {
    private let condition = NSCondition()
    private let threads: Int
    private var arrived = 0

    init(threads: Int) {
        self.threads = threads
    }

    func pass(then body: () -> Void) {
        condition.withLock {
            arrived += 1
            condition.broadcast()
            let deadline = Date(timeIntervalSinceNow: 0.001)
            while arrived < threads && condition.wait(until: deadline) {}
        }
        body()
    }
}
