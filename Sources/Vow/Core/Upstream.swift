/// What a pending box waits on, and so what it tells once it no longer needs a result: the box
/// of the promise it follows, the boxes of a combinator's inputs, or the work that will
/// resolve it.
///
/// Each ``EmptyBox`` keeps one upstream, with the token of its attachment there (see
/// ``ConsumerLink``). A box tells its upstream when it settles, or is cancelled, while that
/// upstream may still be pending: a box upstream takes the consumer's handler out of its
/// handlers, releasing it at once, and gives up in turn once no consumer and no handle is left
/// (see ``BoxStatus``); the work's ``CancelHooks`` run.
///
/// A class rather than a protocol: an existential would take two words, and the box has one.
///
/// The class holds the box's ``BoxStatus`` word, which other upstreams leave at zero, pending:
/// a step that settles tells the upstream it followed, which has nearly always resolved before
/// it and has nothing to take back, and the word lets that be seen with one load instead of a
/// call.
@usableFromInline
// @unchecked: the status word is only accessed through the atomic functions of CVowCore; each
// subclass says why its own state is safe.
class Upstream: @unchecked Sendable {
    // The raw storage of `status`: first in the stored properties of every subclass, where
    // `_getUnsafePointerToStoredProperties` finds it.
    @usableFromInline
    final var statusStorage: UInt32

    /// An upstream that is not a box.
    @inlinable
    init() {
        statusStorage = 0
    }

    /// A box whose status word starts as `status`.
    @inlinable
    init(status: UInt32) {
        statusStorage = status
    }

    /// The status word; see ``BoxStatus``.
    @inlinable
    final var status: BoxStatus {
        BoxStatus(_getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: UInt32.self))
    }

    /// The downstream attached as `token` no longer needs this upstream's result: `cancelling`
    /// if it was cancelled, otherwise because it settled.
    ///
    /// - Returns: Whether the downstream's handler was taken back, and the next upstream to
    ///   tell, when this one gave up in turn; the caller goes on with it in a loop, so that a
    ///   long chain is cancelled without deep recursion.
    @usableFromInline
    func withdraw(_ token: UInt32, cancelling: Bool) -> Withdrawal {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to withdraw")
    }

    /// What a box that waits on this upstream is waiting for, in its chain's description:
    /// only upstreams that are not boxes are asked.
    var waitDescription: String {
        "waits on work that will settle it"
    }

    /// The box this upstream stands for, which a chain's description goes on with, if it is not
    /// a box itself but waits on one, as a cache's caller waits on the shared lookup.
    var describedBox: BoxCore? {
        nil
    }

    /// Tells what `link` leads to, and each upstream that gives up in turn, that a downstream
    /// no longer needs it; returns whether the first took the downstream's handler back, which
    /// then can never run.
    @inlinable
    @discardableResult
    static func withdraw(from link: ConsumerLink, cancelling: Bool) -> Bool {
        withdraw(from: link.upstream, token: link.token, cancelling: cancelling)
    }

    /// ``withdraw(from:cancelling:)`` for a link in two parts, the upstream owned by the caller
    /// and handed over, and always inlined: otherwise the upstream is retained for the call and
    /// released after it, on every settling step's path.
    @inlinable @inline(__always)
    @discardableResult
    static func withdraw(from upstream: __owned Upstream?, token: UInt32, cancelling: Bool) -> Bool {
        // A box that has resolved has nothing to take back.
        guard let upstream, !upstream.status.isResolved else { return false }
        return tell(upstream, token: token, cancelling: cancelling)
    }

    /// Tells `upstream` that the downstream attached as `token` no longer needs it, and each
    /// upstream that gives up in turn, in the thread's ``WithdrawalWalk``; see
    /// ``withdraw(from:cancelling:)``. Out of line, so that
    /// the inlined code of a step that settles, whose upstream has nearly always resolved, is a
    /// load and a branch.
    @usableFromInline @inline(never)
    static func tell(_ upstream: Upstream, token: UInt32, cancelling: Bool) -> Bool {
        Trampoline.withCurrent { $0.withdrawals.tell(upstream, token: token, cancelling: cancelling) }
    }
}

/// What ``Upstream/withdraw(_:cancelling:)`` did, and what is left to tell.
@usableFromInline
struct Withdrawal {
    /// Whether the upstream took the downstream's handler back.
    @usableFromInline
    let detached: Bool
    /// The upstream's own upstream, if it gave up in turn.
    @usableFromInline
    let next: ConsumerLink
    /// What a combinator waited on, each to be told as the combinator was: the inputs of a
    /// `race` or a `when`, or those a throttle has running. Returned rather than told by the
    /// combinator itself, so that the thread's ``WithdrawalWalk`` tells them in its loop.
    @usableFromInline
    let members: [ConsumerLink]

    @inlinable
    init(detached: Bool, next: ConsumerLink, members: [ConsumerLink] = []) {
        self.detached = detached
        self.next = next
        self.members = members
    }

    /// Whether anything is left to tell.
    @inlinable
    var leadsOn: Bool {
        next.upstream != nil || !members.isEmpty
    }

    /// Nothing taken back, nothing to tell.
    @inlinable
    static var none: Withdrawal { Withdrawal(detached: false, next: .none) }
}
