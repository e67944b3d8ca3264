/// The work of a lazy box, kept in the box's upstream slot while the box is dormant: started by
/// ``EmptyBox/wake()`` when the first handler attaches, or released unstarted if the box is
/// cancelled first.
///
/// It holds no reference to the box, which gets one only when it starts: a lazy promise that is
/// never consumed is freed with its work.
///
/// The work of a lazy promise that waits on another, `Promise.lazy { previous }`, holds that
/// promise, whose work holds the one before: starting it starts the previous one, and releasing
/// it releases the previous one. Both go through the trampoline, which nests a few such links
/// and runs the rest one after another, so that a chain of any length starts, and goes, on a
/// flat stack.
@usableFromInline
// @unchecked: `start` and `waking` are written by one thread at a time: `wake(_:)` only by the
// thread that took the work out of a box's barrier, which hands it out once; `deinit` only
// once nothing else holds the work; and the trampoline's step, on that same thread, in between.
final class LazyStart<T: Sendable>: Upstream, @unchecked Sendable {
    /// The work, until it starts.
    @usableFromInline
    var start: (@Sendable (EmptyBox<T>) -> Void)?
    /// The box the work starts for, from ``wake(_:)`` until the trampoline starts it.
    private var waking: EmptyBox<T>?

    @inlinable
    init(_ start: @escaping @Sendable (EmptyBox<T>) -> Void) {
        self.start = start
        super.init()
    }

    /// Work that was never started goes on the trampoline, with what it captured: moved out
    /// first, so that this object's end releases nothing.
    deinit {
        guard start != nil else { return }
        Trampoline.current.run(Released(taking: &start, leaving: nil).work, as: .tail)
    }

    /// The dormant box was cancelled: the work is dropped with this object, never started.
    override var waitDescription: String {
        "lazy: its work starts once something waits on it"
    }

    @usableFromInline
    override func withdraw(_ token: UInt32, cancelling: Bool) -> Withdrawal {
        .none
    }

    /// Starts the work for `box`, now unless this thread is already deep in runs of the
    /// trampoline, else as soon as the innermost of them returns.
    func wake(_ box: EmptyBox<T>) {
        waking = box
        Trampoline.current.run(
            TrampolineWork(self) { unsafeDowncast($0, to: LazyStart<T>.self).startOnce() }, as: .tail)
    }

    /// Starts the work, once; returns whether it did.
    private func startOnce() -> Bool {
        guard let box = waking, let work = start else { return false }
        waking = nil
        start = nil
        work(box)
        return true
    }
}
