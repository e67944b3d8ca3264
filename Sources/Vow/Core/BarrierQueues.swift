internal import CVowCore

/// The concurrent queues that guard every ``EmptyBox``.
///
/// A queue per box would cost an allocation and a kernel-visible object for every pending
/// promise. Boxes instead share a small pool and pick a queue from their own address, so the
/// choice needs no shared counter. Two boxes on one queue only contend while both are inside
/// a barrier block, and those blocks are a few instructions long.
@usableFromInline
enum BarrierQueues {
    // The pool itself is C's (CVowCore.h), so that finding a box's queue is one load and a mask:
    // a Swift `static let` would cost every barrier a call to `swift_once`.
    @usableFromInline
    static func queue(for box: AnyObject) -> BarrierQueue {
        BarrierQueue(vow_barrier_queue_for(UInt(bitPattern: ObjectIdentifier(box))))
    }
}
