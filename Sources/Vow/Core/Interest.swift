public import CVowCore

/// Who still wants a pending box's result, in one 32-bit word read and written atomically,
/// without the box's queue.
///
/// The word counts the box's *holders*: its handles (the ``Promise`` or ``Guarantee`` objects
/// that wrap it), the downstream boxes linked to it for cancellation, and the consumers that
/// never withdraw, such as a handler given to `pipe(to:)`. Two flags record what happened:
///
/// | transition | holders | flags | happens in |
/// | --- | --- | --- | --- |
/// | born | 1, for the one handle its creator wraps it in | none | `BoxCore.init` |
/// | a handle or consumer is added | + 1 | | ``addHolder()`` |
/// | a handle goes away | − 1 | | ``releaseHandle()`` |
/// | a consumer withdraws | − 1 | `withdrawn` | ``withdrawConsumer()`` |
/// | the box is cancelled | | `cancelled` | ``markCancelled()``, inside the box's barrier |
///
/// A box gives up, cancelling itself, when its holders reach zero after a consumer withdrew:
/// every consumer attached to it has cancelled, and no handle is left from which a new one
/// could attach. A box nobody ever consumed is never cancelled this way, so work started for
/// its side effects alone runs to the end.
///
/// Counting handles takes a `deinit` on every promise, whose atomic instruction is the one
/// cost of cancellation that a chain pays at every step; it also keeps the optimizer from
/// removing the promises a chain only passes through. It buys the rule that holding a promise
/// keeps its work going for the consumers you have yet to attach.
///
/// The count takes 28 bits; a box with more than 268 million holders at once is not
/// supported.
@usableFromInline
struct Interest {
    @usableFromInline
    static let holderMask: UInt32 = (1 << 28) - 1
    @usableFromInline
    static let withdrawn: UInt32 = 1 << 28
    @usableFromInline
    static let cancelled: UInt32 = 1 << 29

    /// The word of a box that has one holder: the handle its creator wraps it in.
    @usableFromInline
    static let born: UInt32 = 1

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

    /// Counts one more holder: a consumer or a handle.
    @inlinable
    func addHolder() {
        vow_add32_relaxed(address, 1)
    }

    /// Counts a handle's release; returns whether the box should now give up.
    @inlinable
    func releaseHandle() -> Bool {
        let old = vow_subtract32(address, 1)
        return old & (Interest.holderMask | Interest.withdrawn | Interest.cancelled) == 1 | Interest.withdrawn
    }

    /// Counts a consumer's withdrawal; returns whether the box should now give up.
    ///
    /// The flag is set before the count drops, so whichever release brings the count to zero,
    /// this one or a handle's, sees it.
    @inlinable
    func withdrawConsumer() -> Bool {
        vow_or32(address, Interest.withdrawn)
        let old = vow_subtract32(address, 1)
        return old & (Interest.holderMask | Interest.cancelled) == 1
    }

    /// Marks the box cancelled. Only inside the box's barrier, which makes the check before it
    /// and the mark one step.
    @inlinable
    func markCancelled() {
        vow_or32(address, Interest.cancelled)
    }
}
