/// A consumer's attachment to the thenable it waits on: what the consumer hands back when it
/// withdraws, so that its handler leaves that thenable's handlers at once, releasing what it
/// captured.
///
/// Only Vow makes links, in its own ``Promise`` and ``Guarantee``; a type of yours that conforms
/// to ``Thenable`` leaves the link it is given empty, which is what the default
/// `_pipe(_:linking:)` does.
public struct ConsumerLink: Sendable {
    /// What the consumer waits on, or `nil`.
    @usableFromInline
    let upstream: Upstream?
    /// Which of the upstream's attachments is the consumer's; see ``Handlers``.
    @usableFromInline
    let token: UInt32
    /// A box that takes the attachment into its own upstream, recorded by the barrier that
    /// attaches its handler: set by the caller of `_pipe(_:linking:)`, never by a thenable.
    ///
    /// Unowned and unsafe, so that a link costs no retain and release on every step's path:
    /// the caller of `_pipe(_:linking:)` holds the box for the whole call, and only that call
    /// reads it.
    @usableFromInline
    unowned(unsafe) let consumer: BoxCore?

    @inlinable
    init(_ upstream: Upstream?, token: UInt32 = 0) {
        self.upstream = upstream
        self.token = token
        consumer = nil
    }

    /// An empty link asking the thenable to record the attachment in `consumer`.
    @inlinable
    init(recordingIn consumer: BoxCore) {
        upstream = nil
        token = 0
        self.consumer = consumer
    }

    /// No link: withdrawing the consumer does not reach the thenable.
    public static var none: ConsumerLink { ConsumerLink(nil) }

    /// Whether the link leads to an upstream that may still take something back: one that is
    /// not a box that has resolved.
    @inlinable
    var leadsToPending: Bool {
        upstream.map { !$0.status.isResolved } ?? false
    }
}

extension Thenable {
    /// Attaches `handler` as ``pipe(to:)`` does, for a thenable that cannot be withdrawn from:
    /// `link` stays empty.
    @inlinable
    public func _pipe(
        _ handler: @escaping @Sendable (Result<T, any Error>) -> Void, linking link: inout ConsumerLink
    ) {
        pipe(to: handler)
    }

    /// Attaches `handler` on behalf of a consumer that keeps the link itself, and returns the
    /// link.
    @inlinable
    func attach(_ handler: @escaping @Sendable (Result<T, any Error>) -> Void) -> ConsumerLink {
        var link = ConsumerLink.none
        _pipe(handler, linking: &link)
        return link
    }
}

extension Thenable {
    /// Makes the box of a new step that waits on this thenable and attaches the handler that
    /// `handler` makes for it; the attaching barrier records the attachment in the box.
    ///
    /// ```swift incomplete
    /// let next = consume(into: EmptyBox<Result<U, any Error>>()) { next in
    ///     { result in next.seal(result.map(transform)) }
    /// }
    /// ```
    @inlinable
    func consume<Next: BoxCore>(
        into next: Next, _ handler: (Next) -> @Sendable (Result<T, any Error>) -> Void
    ) -> Next {
        var link = ConsumerLink(recordingIn: next)
        _pipe(handler(next), linking: &link)
        return next
    }
}

extension SealantBox {
    /// Attaches the handler `handler` makes for each of `inputs`, by its index, then keeps the
    /// inputs as this box's upstream: once the box settles or is cancelled, each of them hears
    /// that it is no longer needed. The box of a `race` or a `when`.
    @inlinable
    func consume<U: Thenable>(
        _ inputs: [U], _ handler: (Int) -> @Sendable (Result<U.T, any Error>) -> Void
    ) {
        var upstreams: [ConsumerLink] = []
        for (index, input) in inputs.enumerated() {
            let link = input.attach(handler(index))
            if link.upstream != nil { upstreams.append(link) }
        }
        // Linked once every handler is attached: a box settled meanwhile then withdraws
        // attachments that exist.
        replaceUpstream(with: Upstreams.link(upstreams))
    }
}

extension SealantBox {
    /// Attaches `handler` to `input` and adds the link to `input`, if any, to `upstreams`, which
    /// the caller makes this box's upstream once every input is attached: ``consume(_:_:)``
    /// for inputs of different types.
    func attach<U: Thenable>(
        to input: U, collecting upstreams: inout [ConsumerLink],
        _ handler: @escaping @Sendable (Result<U.T, any Error>) -> Void
    ) {
        let link = input.attach(handler)
        if link.upstream != nil { upstreams.append(link) }
    }
}
