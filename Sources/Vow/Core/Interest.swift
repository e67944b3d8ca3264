public import CVowCore

/// Who still wants a pending box's result: its consumers, counted in a 32-bit word that only
/// the box's barrier blocks change, and its handles, counted in a 16-bit word of their own.
///
/// A *consumer* is any handler attached to the box while it is pending: the step of an
/// operator, a combinator's input, a waiting thread or task, or a handler given to
/// `pipe(to:)`. Steps and awaiting tasks withdraw when they are cancelled; other handlers never
/// do. A *handle* is a ``Promise`` or ``Guarantee`` object that wraps the box.
///
/// | transition | consumers | flags | happens in |
/// | --- | --- | --- | --- |
/// | born | 0 | none | `BoxCore.init` |
/// | a handler is attached | + 1 | | ``countConsumer()``, in the attaching barrier |
/// | a consumer withdraws | − 1 | `withdrawn` | ``withdrawConsumer()``, in a barrier |
/// | the box is cancelled | | `cancelled` | ``markCancelled()``, in the cancelling barrier |
/// | its work will settle its cancellation | | `settledByItsWork` | ``markSettledByItsWork()``, in a barrier |
/// | a lazy box is born | 0 | `dormant` | ``EmptyBox/init(dormant:)`` |
/// | its first handler is attached | + 1 | − `dormant` | ``countConsumer()``, then ``wake()`` |
///
/// A box gives up, cancelling itself, once a consumer has withdrawn, no consumer is left, and
/// no handle is left from which a new one could attach. Whichever of the last withdrawal and
/// the last handle's release comes second sees the other, because both are sequentially
/// consistent; both may see it, and cancelling twice does nothing. A box nobody consumed is
/// never cancelled this way, so work started for its side effects alone runs to the end.
///
/// Counting consumers inside the barrier that attaches them costs no atomic instruction; only
/// a handle's release, in its `deinit`, does.
///
/// The count takes 28 bits; a box with more than 268 million consumers at once is not
/// supported.
@usableFromInline
struct Interest {
    @usableFromInline
    static let consumerMask: UInt32 = (1 << 28) - 1
    @usableFromInline
    static let withdrawn: UInt32 = 1 << 28
    @usableFromInline
    static let cancelled: UInt32 = 1 << 29
    /// A lazy box whose work has not been started: set at birth, cleared by the first consumer.
    @usableFromInline
    static let dormant: UInt32 = 1 << 30
    /// A box whose work settles it once the work has stopped, rather than its cancellation at
    /// once: set with the work's cancel hook, by ``Resolver/onCancelLeavingPending(_:)``.
    @usableFromInline
    static let settledByItsWork: UInt32 = 1 << 31

    /// The word of a new box: no consumer, no flag.
    @usableFromInline
    static let born: UInt32 = 0

    @usableFromInline
    let address: UnsafeMutablePointer<UInt32>

    @inlinable
    init(_ address: UnsafeMutablePointer<UInt32>) {
        self.address = address
    }

    /// Whether the box has been cancelled, read without ordering: a hint for a step about to
    /// run for a box nobody wants any longer, which settles nothing.
    @inlinable
    var isCancelled: Bool {
        vow_load32_relaxed(address) & Interest.cancelled != 0
    }

    /// Whether the box has been cancelled, ordered after the cancelling thread's writes.
    @inlinable
    var isCancelledAcquiring: Bool {
        vow_load32_acquiring(address) & Interest.cancelled != 0
    }

    /// Whether a consumer withdrew and none is left, on a box not yet cancelled.
    @inlinable
    var isForsaken: Bool {
        vow_load32_sequential(address) & (Interest.consumerMask | Interest.withdrawn | Interest.cancelled)
            == Interest.withdrawn
    }

    /// Counts a handler just attached. Only inside the box's barrier.
    @inlinable
    func countConsumer() {
        vow_store32_relaxed(address, vow_load32_relaxed(address) &+ 1)
    }

    /// Whether the box is lazy and its work not started yet, read without ordering after the
    /// attaching barrier, which ordered the read after the birth that set the flag.
    @inlinable
    var isDormant: Bool {
        vow_load32_relaxed(address) & Interest.dormant != 0
    }

    /// Clears the dormant flag; returns whether it was set, so that exactly one of the threads
    /// that saw it starts the work. Only inside the box's barrier.
    @usableFromInline
    func wake() -> Bool {
        let word = vow_load32_relaxed(address)
        vow_store32_relaxed(address, word & ~Interest.dormant)
        return word & Interest.dormant != 0
    }

    /// Counts a consumer's withdrawal; returns whether it was the last. Only inside the box's
    /// barrier.
    @inlinable
    func withdrawConsumer() -> Bool {
        let word = vow_load32_relaxed(address)
        guard word & Interest.cancelled == 0, word & Interest.consumerMask > 0 else { return false }
        let withdrawn = (word &- 1) | Interest.withdrawn
        vow_store32_relaxed(address, withdrawn)
        return withdrawn & Interest.consumerMask == 0
    }

    /// Marks the box cancelled. Only inside the box's barrier, which makes the check before it
    /// and the mark one step.
    @inlinable
    func markCancelled() {
        vow_store32_relaxed(address, vow_load32_relaxed(address) | Interest.cancelled)
    }

    /// Whether a cancellation leaves the box pending, for its work to settle once stopped. Only
    /// inside the box's barrier.
    @usableFromInline
    var isSettledByItsWork: Bool {
        vow_load32_relaxed(address) & Interest.settledByItsWork != 0
    }

    /// Marks the box as one that its work settles once stopped, when cancelled. Only inside the
    /// box's barrier.
    @usableFromInline
    func markSettledByItsWork() {
        vow_store32_relaxed(address, vow_load32_relaxed(address) | Interest.settledByItsWork)
    }
}

/// The count of a pending box's handles, the ``Promise`` and ``Guarantee`` objects that wrap
/// it, changed with sequentially consistent atomic instructions; see ``Interest``.
///
/// It saturates: a box that once had 65,535 handles at once counts as held for good.
@usableFromInline
struct Handles {
    /// The count of a new box: the one handle its creator wraps it in.
    @usableFromInline
    static let born: UInt16 = 1

    @usableFromInline
    static let saturated: UInt16 = .max

    @usableFromInline
    let address: UnsafeMutablePointer<UInt16>

    @inlinable
    init(_ address: UnsafeMutablePointer<UInt16>) {
        self.address = address
    }

    /// Whether no handle is left.
    @inlinable
    var areGone: Bool {
        vow_load16_sequential(address) == 0
    }

    /// Counts one more handle.
    @inlinable
    func add() {
        var count = vow_load16_sequential(address)
        while count != Handles.saturated, !vow_compare_exchange16(address, &count, count + 1) {}
    }

    /// Counts a handle's release; returns whether it was the last.
    @inlinable
    func release() -> Bool {
        var count = vow_load16_sequential(address)
        while count != Handles.saturated {
            if vow_compare_exchange16(address, &count, count - 1) { return count == 1 }
        }
        return false
    }
}
