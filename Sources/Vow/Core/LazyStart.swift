/// The work of a lazy box, kept in the box's upstream slot while the box is dormant: started by
/// ``EmptyBox/wake()`` when the first handler attaches, or released unstarted if the box is
/// cancelled first.
///
/// It holds no reference to the box, which gets one only when it starts: a lazy promise that is
/// never consumed is freed with its work.
@usableFromInline
// @unchecked: the one stored property is immutable and Sendable.
final class LazyStart<T: Sendable>: Upstream, @unchecked Sendable {
    @usableFromInline
    let start: @Sendable (EmptyBox<T>) -> Void

    @inlinable
    init(_ start: @escaping @Sendable (EmptyBox<T>) -> Void) {
        self.start = start
        super.init()
    }

    /// The dormant box was cancelled: the work is dropped with this object, never started.
    override var waitDescription: String {
        "lazy: its work starts once something waits on it"
    }

    @usableFromInline
    override func withdraw(_ token: UInt32, cancelling: Bool) -> Withdrawal {
        .none
    }
}
