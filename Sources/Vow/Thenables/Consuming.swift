/// What a thenable hands the step that consumes it, so that cancelling the step can reach it:
/// the box behind the thenable, or nothing.
///
/// Only Vow makes links, in its own ``Promise`` and ``Guarantee``; a type of yours that conforms
/// to ``Thenable`` passes ``none``, which is what the default ``Thenable/_pipe(linking:)`` does.
public struct ConsumerLink: Sendable {
    @usableFromInline
    let upstream: Upstream?

    @inlinable
    init(_ upstream: Upstream?) {
        self.upstream = upstream
    }

    /// No link: cancelling the consumer does not reach the thenable.
    public static var none: ConsumerLink { ConsumerLink(nil) }
}

extension Thenable {
    /// Attaches a step's handler as ``pipe(to:)`` does, for a thenable that cannot be cancelled
    /// through its consumers: `makeHandler` gets ``ConsumerLink/none``.
    @inlinable
    public func _pipe(linking makeHandler: (ConsumerLink) -> @Sendable (Result<T, any Error>) -> Void) {
        pipe(to: makeHandler(.none))
    }
}

extension Box {
    /// A link to this box, if pending, for a new step to keep as its upstream. The step's
    /// handler counts as a consumer once attached.
    @inlinable
    var consumed: ConsumerLink {
        guard case .empty(let box) = self, box.phase == .pending else { return .none }
        return ConsumerLink(box)
    }
}
