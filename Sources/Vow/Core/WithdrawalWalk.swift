/// What one thread still has to tell that a downstream no longer needs it: the upstreams that
/// gave up and the members of the combinators they waited on, told one at a time, in a loop.
///
/// A cancellation travels as far as the user's chain reaches, through links that each wait on
/// several upstreams (a `race` of a `race` a hundred thousand times, a reduction through
/// `when`), and a recursion five frames a link overflowed a 512 KiB stack at 4,000 links. So
/// every upstream hands back what it leads to (see ``Withdrawal``), and the thread's walk keeps
/// it on a stack of its own, depth first: each member, and whatever gives up behind it, before
/// the next member, the order a recursion would take. A link with one upstream hands on to the
/// next in the same loop, without the stack, whose pushes and pops cost a plain chain 4% more
/// instructions.
///
/// A cancellation can also start while the walk runs on the same thread. A promise released in
/// the walk's loop, such as one an abandoned iterator of `when(fulfilled:concurrently:)` held,
/// is cancelled by its handle's `deinit`, and that cancellation releases the next such iterator
/// in turn; an `onCancel` hook, or a handler that sees the cancellation, may cancel another
/// chain. Each such call still settles its own box at once, and takes back its own handler if
/// it is the first to tell its upstream, but what lies beyond joins the running walk, which
/// takes it up once the plain chain it is following ends, before the outermost call returns.
/// Nested instead, a chain released link by link would recurse through its `deinit`s, as deep
/// again. For the same reason the walk owns what it has yet to tell, and releases each link in
/// its own loop: a link released by a caller after the walk had ended would start the next one
/// there.
///
/// Each thread owns one, in its ``Trampoline``: its stack keeps its capacity, up to
/// ``keptCapacity`` entries, so a cancellation allocates nothing once the thread has walked one
/// as wide.
final class WithdrawalWalk {
    /// Something left to tell: a link whose downstream no longer needs it, as cancelled or not,
    /// and the box that was that downstream, if it was cancelled just now and so lets its step
    /// go once the upstream has taken its handler back.
    private struct Pending {
        let link: ConsumerLink
        let cancelling: Bool
        let cancelledBox: BoxCore?
    }

    /// What is left to tell, the last first.
    // Unchecked exclusivity: a walk belongs to one thread, and a call that starts while the
    // loop runs only appends, between two of the loop's accesses.
    @exclusivity(unchecked) private var waiting: [Pending] = []
    /// Whether the loop runs, further down this thread's stack.
    @exclusivity(unchecked) private var isRunning = false

    /// Tells `upstream` that the downstream attached as `token` no longer needs it, then what
    /// that leads to; see ``Upstream/tell(_:token:cancelling:)``.
    ///
    /// - Returns: Whether `upstream` took the downstream's handler back.
    func tell(_ upstream: Upstream, token: UInt32, cancelling: Bool) -> Bool {
        let starting = !isRunning
        isRunning = true
        let withdrawal = upstream.withdraw(token, cancelling: cancelling)
        keep(withdrawal, toldAsCancelling: cancelling)
        let detached = withdrawal.detached
        // Released here, while the loop counts as running: a `deinit` it leads to joins it.
        _ = consume withdrawal
        if starting {
            drain()
        }
        return detached
    }

    /// Tells `upstream`, which `box` took as it was cancelled, that the box no longer needs it,
    /// and lets the box's step go if the upstream took its handler back; see
    /// ``BoxCore/withdraw(afterCancelling:)``. `upstream` is the walk's from here on, so that
    /// the caller releases nothing once the walk has ended.
    func withdraw(_ box: BoxCore, afterCancellingFrom upstream: __owned ConsumerLink) {
        guard !isRunning else {
            waiting.append(Pending(link: upstream, cancelling: true, cancelledBox: box))
            return
        }
        isRunning = true
        follow(upstream, cancelling: true, cancelledBox: box)
        drain()
    }

    /// Tells what is waiting, and what that leads to, until nothing is left.
    private func drain() {
        while let pending = waiting.popLast() {
            follow(pending.link, cancelling: pending.cancelling, cancelledBox: pending.cancelledBox)
        }
        // A walk as wide as a `when` of a hundred thousand inputs leaves its stack that large:
        // given back, rather than kept by the thread for good.
        if waiting.capacity > Self.keptCapacity {
            waiting = []
        }
        isRunning = false
    }

    /// How many entries the stack keeps room for between walks: those of any chain a program
    /// cancels often, and a few kilobytes.
    private static let keptCapacity = 256

    /// Tells what `link` leads to, and each upstream that gives up behind it, as far as a plain
    /// chain goes: a link with one upstream hands on the next without the stack, which a chain
    /// of `map`s, the common case, never touches. A combinator's members go on the stack, the
    /// first on top, with what the combinator leads to beneath them, and the walk takes them
    /// from there, in the order a recursion would.
    private func follow(_ link: __owned ConsumerLink, cancelling: Bool, cancelledBox: BoxCore?) {
        var link = link
        var cancelling = cancelling
        var cancelledBox = cancelledBox
        // A box that has resolved has nothing to take back.
        while let upstream = link.upstream, !upstream.status.isResolved {
            let withdrawal = upstream.withdraw(link.token, cancelling: cancelling)
            if withdrawal.detached {
                cancelledBox?.didWithdraw()
            }
            guard withdrawal.members.isEmpty else {
                keep(withdrawal, toldAsCancelling: cancelling)
                return
            }
            // The link told is released here, in the walk's frame; an upstream only gives up
            // because it was cancelled.
            link = withdrawal.next
            cancelling = true
            cancelledBox = nil
        }
    }

    /// Adds what `withdrawal` leads to, the first member on top.
    private func keep(_ withdrawal: Withdrawal, toldAsCancelling cancelling: Bool) {
        if withdrawal.next.upstream != nil {
            // An upstream only gives up because it was cancelled.
            waiting.append(Pending(link: withdrawal.next, cancelling: true, cancelledBox: nil))
        }
        for member in withdrawal.members.reversed() {
            waiting.append(Pending(link: member, cancelling: cancelling, cancelledBox: nil))
        }
    }
}
