/// What a thenable hands the step that consumes it, so that cancelling the step can reach it:
/// the box behind the thenable, or nothing.
///
/// Only Vow makes links, in its own ``Promise`` and ``Guarantee``; a type of yours that conforms
/// to ``Thenable`` passes ``none``, which is what the default `_pipe(linking:)` does.
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

extension Thenable {
    /// Makes the box of a new step that waits on this thenable, linked to it by `makeBox`, and
    /// attaches the handler `handler` makes for that box.
    ///
    /// ```swift incomplete
    /// let next = consume(into: EmptyBox<Result<U, any Error>>.init(consuming:)) { next in
    ///     { result in next.seal(result.map(transform)) }
    /// }
    /// ```
    @inlinable
    func consume<Next>(
        into makeBox: (ConsumerLink) -> Next,
        _ handler: (Next) -> @Sendable (Result<T, any Error>) -> Void
    ) -> Next {
        var made: Next?
        _pipe { link in
            let next = makeBox(link)
            made = next
            return handler(next)
        }
        return made.unsafelyUnwrapped
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
        var upstreams: [Upstream] = []
        for (index, input) in inputs.enumerated() {
            input._pipe { link in
                link.upstream.map { upstreams.append($0) }
                return handler(index)
            }
        }
        // Linked once every handler is attached, and so counted: a box settled meanwhile then
        // withdraws from consumers that exist.
        replaceUpstream(with: Upstreams.link(upstreams))
    }
}

extension SealantBox {
    /// Attaches `handler` to `input` and adds the link to `input`, if any, to `upstreams`, which
    /// the caller makes this box's upstream once every input is attached: ``consume(_:_:)``
    /// for inputs of different types. (That one keeps its own loop, making each handler inside
    /// `_pipe` as it always has, so that `when`'s hot path stays exactly as measured.)
    func attach<U: Thenable>(
        to input: U, collecting upstreams: inout [Upstream],
        _ handler: @escaping @Sendable (Result<U.T, any Error>) -> Void
    ) {
        input._pipe { link in
            link.upstream.map { upstreams.append($0) }
            return handler
        }
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
