/// Whether an ``EmptyBox`` has resolved, as its ``BoxStatus`` word says without the box's
/// queue.
///
/// The sealant already says whether a box is pending, but reading it takes the queue. The
/// status mirrors it so that a resolved box, which can no longer change, is read and attached
/// to with one acquiring load instead. Its one transition, `pending` to `resolved`, happens in
/// ``EmptyBox/resolveInBarrier(with:)``, inside the barrier that stores the value.
@usableFromInline
enum Phase: UInt8 {
    /// No value yet: handlers collect in the sealant, behind the queue.
    case pending = 0
    /// The value is stored and never changes: reads and attachments skip the queue.
    case resolved = 1
}
