import Foundation

/// The side effects of one run, in the order they happened, each with the slot it happened in.
///
/// An `NSCondition` rather than a `Protected`: the driver sleeps until enough effects arrived.
// @unchecked: `recorded` and `slot` are only read or written while holding `condition`.
final class Journal: @unchecked Sendable {
    struct Entry: Hashable, Sendable {
        var event: EventID
        var slot: Int
        var queue: QueueTag
    }

    private let condition = NSCondition()
    private var recorded: [Entry] = []
    private var slot = 0

    func begin(slot: Int) {
        condition.withLock { self.slot = slot }
    }

    func record(_ event: EventID, queue: QueueTag) {
        condition.withLock {
            recorded.append(Entry(event: event, slot: slot, queue: queue))
            condition.broadcast()
        }
    }

    /// Waits until at least `count` effects are recorded; returns whether they were in time.
    func wait(forCount count: Int, until deadline: Date) -> Bool {
        condition.withLock {
            while recorded.count < count {
                if !condition.wait(until: deadline) { return recorded.count >= count }
            }
            return true
        }
    }

    var entries: [Entry] {
        condition.withLock { recorded }
    }
}
