/// The ways to stop a root box's work, registered by its creator with
/// ``Resolver/onCancel(_:)`` or by Vow's own sources: the upstream of a box that waits on no
/// other box.
///
/// They run once, outside any barrier, if the box is cancelled while pending, and are released
/// unrun if it resolves otherwise.
@usableFromInline
// @unchecked: `hooks` is written only by the box that owns this object, inside that box's
// barrier, and read once the box has taken it out of its upstream slot in a barrier too.
final class CancelHooks: Upstream, @unchecked Sendable {
    @usableFromInline
    var hooks: [@Sendable () -> Void]

    @inlinable
    init(_ hook: @escaping @Sendable () -> Void) {
        hooks = [hook]
        super.init()
    }

    override var waitDescription: String {
        "waits on work that a cancellation stops"
    }

    @usableFromInline
    override func withdraw(_ token: UInt32, cancelling: Bool) -> Withdrawal {
        if cancelling {
            for hook in hooks { hook() }
        }
        return .none
    }
}
