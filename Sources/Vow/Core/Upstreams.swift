/// The upstream of a box that waits on several others, such as the box of a `race` or a
/// `when`: when it settles or is cancelled, each of them hears that it is no longer needed.
///
/// So a race cancels its losers once it has a winner, and `when(fulfilled:)` cancels the
/// inputs still running after the first rejection, each as far as nothing else waits for it.
@usableFromInline
// @unchecked: `members` never changes after `init`, and each member is itself `Sendable`.
final class Upstreams: Upstream, @unchecked Sendable {
    @usableFromInline
    let members: [ConsumerLink]

    /// A link to every one of `members`, or none when there is none.
    @inlinable
    static func link(_ members: [ConsumerLink]) -> ConsumerLink {
        members.isEmpty ? .none : ConsumerLink(Upstreams(members))
    }

    @inlinable
    init(_ members: [ConsumerLink]) {
        self.members = members
        super.init()
    }

    /// Hands every member to the caller's walk, which tells each in its loop.
    @usableFromInline
    override func withdraw(_ token: UInt32, cancelling: Bool) -> Withdrawal {
        Withdrawal(detached: false, next: .none, members: members)
    }
}
