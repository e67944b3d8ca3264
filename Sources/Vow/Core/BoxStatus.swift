public import CVowCore

/// The part of a pending box's state that is read without its barrier: one 32-bit word, the
/// first of the box's stored properties.
///
/// The rest of the state, the sealant (the handlers or the value) and what the box waits on,
/// only changes inside the box's barrier. The word mirrors what must be known without it: whether
/// the box has resolved, so that a resolved box is read and attached to with one load; whether
/// it was cancelled, which work polls; and how many handles wrap it, which a handle's `deinit`
/// counts down outside any barrier.
///
/// | bits | meaning | changed by |
/// | --- | --- | --- |
/// | 0–15 | the handles, the ``Promise`` and ``Guarantee`` objects that wrap the box; saturating | ``addHandle()``, ``releaseHandle()`` |
/// | 16 `resolved` | the sealant holds the value, which never changes again | ``markResolved()``, in the barrier that stores the value |
/// | 17 `cancelled` | the box was cancelled | ``markCancelled()``, in the cancelling barrier |
/// | 18 `forsaken` | a consumer withdrew and no consumer is left | ``markForsaken()`` when a withdrawal empties the handlers, ``markAttached()`` when one attaches again |
/// | 19 `dormant` | a lazy box whose work has not started | set at birth, ``wake()`` |
/// | 20 `settledByItsWork` | a cancellation leaves the box pending for its work to settle | ``markSettledByItsWork()`` |
/// | 21 `abandoned` | the resolver or resolve function was released before it settled the box | ``markAbandoned()``, outside the barrier |
/// | 22 `hasResolver` | a ``Resolver`` or a guarantee's resolve function settles the box; debug builds only | ``markHasResolver()`` |
///
/// **Orderings, justified once.** Every change but one is an atomic read-modify-write of the
/// whole word, sequentially consistent, because a handle's release changes the word outside
/// the barrier while the barrier changes it too: a plain store inside the barrier could lose a
/// concurrent release. The exception is ``markResolved()``, on every promise's path, which may
/// lose one because a resolved box's count no longer matters. The other changes are therefore
/// totally ordered, which is all that
/// cancelling from below needs: a box gives up once it is forsaken *and* has no handle, and of
/// the two changes that complete that condition, the last withdrawal's ``markForsaken()`` and
/// the last handle's ``releaseHandle()``, exactly one sees the other in the word it replaced,
/// and that one cancels. Loads outside the barrier acquire, so that a thread that reads
/// `resolved` also reads the value stored before it; ``isCancelledHint`` alone is relaxed, a
/// hint for a step about to run for a box nobody wants any longer.
///
/// A box nobody consumed is never forsaken, so work started for its side effects alone runs to
/// the end.
@usableFromInline
struct BoxStatus {
    @usableFromInline
    static let handleMask: UInt32 = 0xFFFF
    @usableFromInline
    static let resolved: UInt32 = 1 << 16
    @usableFromInline
    static let cancelled: UInt32 = 1 << 17
    @usableFromInline
    static let forsaken: UInt32 = 1 << 18
    @usableFromInline
    static let dormant: UInt32 = 1 << 19
    @usableFromInline
    static let settledByItsWork: UInt32 = 1 << 20
    @usableFromInline
    static let abandoned: UInt32 = 1 << 21
    @usableFromInline
    static let hasResolver: UInt32 = 1 << 22

    /// The word of a new box: pending, and wrapped by the one handle its creator makes.
    @usableFromInline
    static let born: UInt32 = 1

    @usableFromInline
    let address: UnsafeMutablePointer<UInt32>

    @inlinable
    init(_ address: UnsafeMutablePointer<UInt32>) {
        self.address = address
    }

    // MARK: Reads, outside the barrier or in it

    /// Whether any of `bits` is set, read with acquiring ordering: a thread that sees a flag
    /// also sees what was written before it was set.
    @inlinable
    func has(_ bits: UInt32) -> Bool {
        vow_load32_acquiring(address) & bits != 0
    }

    /// Whether the value is stored; once it reads `true`, so does the sealant.
    @inlinable
    var isResolved: Bool {
        has(BoxStatus.resolved)
    }

    /// Whether the box was cancelled, ordered after the cancelling thread's writes.
    @inlinable
    var isCancelled: Bool {
        has(BoxStatus.cancelled)
    }

    /// Whether the box was cancelled, read without ordering: a hint for a step about to run
    /// for a box nobody wants any longer, which settles nothing.
    @inlinable
    var isCancelledHint: Bool {
        vow_load32_relaxed(address) & BoxStatus.cancelled != 0
    }

    /// Whether no handle is left, so that nothing new can attach.
    @inlinable
    var hasNoHandle: Bool {
        vow_load32_acquiring(address) & BoxStatus.handleMask == 0
    }

    /// Whether the box is lazy and its work not started yet.
    @inlinable
    var isDormant: Bool {
        has(BoxStatus.dormant)
    }

    /// Whether a cancellation leaves the box pending, for its work to settle once stopped.
    @usableFromInline
    var isSettledByItsWork: Bool {
        has(BoxStatus.settledByItsWork)
    }

    /// Whether the box's resolver, or resolve function, was released before it settled the box,
    /// which a chain's description reports.
    var isAbandoned: Bool {
        has(BoxStatus.abandoned)
    }

    /// Whether a resolver settles the box, as far as a debug build recorded.
    var hasResolver: Bool {
        has(BoxStatus.hasResolver)
    }

    // MARK: Transitions outside the barrier

    /// Records that a resolver settles the box, for its chain's description. Debug builds call
    /// it; release builds record nothing.
    @inlinable
    func markHasResolver() {
        _ = vow_fetch_or32(address, BoxStatus.hasResolver)
    }

    /// Marks a box whose resolver, or resolve function, was released before settling it. An
    /// atomic read-modify-write, outside the barrier: nothing else can settle such a box but a
    /// cancellation, whose ``markResolved()`` may then lose the flag, which matters no longer.
    func markAbandoned() {
        _ = vow_fetch_or32(address, BoxStatus.abandoned)
    }

    /// Counts one more handle.
    @inlinable
    func addHandle() {
        var word = vow_load32_relaxed(address)
        while word & BoxStatus.handleMask != BoxStatus.handleMask,
            !vow_compare_exchange32(address, &word, word + 1)
        {}
    }

    /// Counts a handle's release; returns whether the box should now give up: this was the
    /// last handle of a pending box that is forsaken and not cancelled. A resolved box no
    /// longer counts: its handles cost no atomic instruction.
    @inlinable
    func releaseHandle() -> Bool {
        var word = vow_load32_relaxed(address)
        while word & BoxStatus.handleMask != BoxStatus.handleMask, word & BoxStatus.resolved == 0 {
            if vow_compare_exchange32(address, &word, word - 1) {
                return word
                    & (BoxStatus.handleMask | BoxStatus.resolved | BoxStatus.cancelled | BoxStatus.forsaken)
                    == 1 | BoxStatus.forsaken
            }
        }
        return false
    }

    // MARK: Transitions inside the box's barrier

    /// The pending-to-resolved transition; the value must be stored first.
    ///
    /// A load and a releasing store rather than a read-modify-write: every promise takes this
    /// path, and a read-modify-write is a locked instruction. A handle released between the two
    /// is lost from the count, which is harmless, since nothing reads the count of a resolved
    /// box: it never gives up, and ``releaseHandle()`` leaves it alone. Every other bit changes
    /// only inside the barrier, which this runs in.
    @inlinable
    func markResolved() {
        vow_set_bits32_releasing(address, BoxStatus.resolved)
    }

    /// Marks the box cancelled.
    @inlinable
    func markCancelled() {
        _ = vow_fetch_or32(address, BoxStatus.cancelled)
    }

    /// A withdrawal left the box without consumers; returns whether it should now give up: no
    /// handle is left and it is not cancelled.
    @inlinable
    func markForsaken() -> Bool {
        let word = vow_fetch_or32(address, BoxStatus.forsaken)
        return word & (BoxStatus.handleMask | BoxStatus.cancelled) == 0
    }

    /// A handler attached: the box has a consumer again.
    @inlinable
    func markAttached() {
        if vow_load32_relaxed(address) & BoxStatus.forsaken != 0 {
            _ = vow_fetch_and32(address, ~BoxStatus.forsaken)
        }
    }

    /// Clears the dormant flag; returns whether it was set, so that exactly one of the threads
    /// that saw it starts the work.
    @usableFromInline
    func wake() -> Bool {
        vow_fetch_and32(address, ~BoxStatus.dormant) & BoxStatus.dormant != 0
    }

    /// Marks the box as one that its work settles once stopped, when cancelled.
    @usableFromInline
    func markSettledByItsWork() {
        _ = vow_fetch_or32(address, BoxStatus.settledByItsWork)
    }
}
