/// The concurrent queues that guard every ``EmptyBox``.
///
/// A queue per box would cost an allocation and a kernel-visible object for every pending
/// promise. Boxes instead share a small pool and pick a queue from their own address, so the
/// choice needs no shared counter. Two boxes on one queue only contend while both are inside
/// a barrier block, and those blocks are a few instructions long.
@usableFromInline
enum BarrierQueues {
    // A power of two, so that picking a queue masks the address rather than dividing it: a
    // division costs some thirty cycles, and every barrier picks a queue.
    private static let size = 16
    private static let pool: [BarrierQueue] = (0..<size).map { BarrierQueue(label: "vow.box.\($0)") }

    @usableFromInline
    static func queue(for box: AnyObject) -> BarrierQueue {
        // Heap objects are at least 16-byte aligned, so the low bits carry no information.
        let address = UInt(bitPattern: ObjectIdentifier(box))
        return pool[Int(truncatingIfNeeded: address >> 4) & (size - 1)]
    }
}
