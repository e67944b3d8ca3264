// Every operator describes what it does as a ``ChainStep`` and attaches it here, in a
// ``StepBox``: the box the operator's promise or guarantee waits on, and the handler of the
// thenable before it.

extension Thenable {
    /// Attaches `step`, to run on `queue`, and returns the box it settles, made by the operator
    /// that `site` names.
    @inlinable
    func chain<Step: ChainStep>(
        on queue: HandlerQueue, _ step: Step, madeAt site: RecordedSite
    ) -> StepBox<Step> where Step.Input == Result<T, any Error> {
        consume(into: StepBox(on: queue, step, madeAt: site)) { box in
            { box.receive($0) }
        }
    }
}

extension Guarantee {
    /// Attaches `step`, to run on `queue` with the guarantee's value, and returns the box it
    /// settles, made by the operator that `site` names.
    @inlinable
    func chain<Step: ChainStep>(
        on queue: HandlerQueue, _ step: Step, madeAt site: RecordedSite
    ) -> StepBox<Step> where Step.Input == T {
        let next = StepBox(on: queue, step, madeAt: site)
        box.attach({ next.receive($0) }, recordingIn: next)
        return next
    }
}

extension SealantBox {
    /// Makes what `link` leads to, which this box's handler is already attached to, the box's
    /// upstream in place of the one whose result has arrived. A box settled or cancelled
    /// meanwhile withdraws from it at once.
    @inlinable
    func replaceUpstream(with link: ConsumerLink) {
        guard let upstream = link.upstream else { return }
        var state = (box: Unretained(self), upstream: Optional(upstream), token: link.token, kept: false)
        queue.write(&state) { state in
            // The state takes the replaced upstream, released after the barrier.
            state.kept = state.box.with { box in
                box.replaceUpstreamInBarrier(&state.upstream, token: state.token)
            }
        }
        if !state.kept {
            Upstream.withdraw(from: link, cancelling: true)
        }
    }
}

// Constrained, because a step that returns the promise of its own operator is told from
// the promise's `EmptyBox`.
extension SealantBox where Storage == Sealant<T> {
    /// Settles this box as `source` does.
    ///
    /// - Throws: ``PromiseError/returnedSelf`` if `source` is the promise this box resolves,
    ///   which could then never settle.
    @inlinable
    func follow<Source: Thenable>(_ source: Source) throws where T == Result<Source.T, any Error> {
        if let promise = source as? Promise<Source.T>, promise.box.isBacked(by: self) {
            throw PromiseError.returnedSelf
        }
        // Linked once the handler is attached: a box cancelled meanwhile then withdraws an
        // attachment that exists.
        replaceUpstream(with: source.attach { self.seal($0) })
    }

    /// Resolves this box as `source` does.
    @inlinable
    func follow(_ source: Guarantee<T>) {
        precondition(
            !source.box.isBacked(by: self),
            "A handler returned the guarantee its own operator returned, so it could never resolve.")
        replaceUpstream(with: source.box.attach { self.seal($0) })
    }
}
