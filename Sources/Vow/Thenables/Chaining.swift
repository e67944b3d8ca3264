// Each operator passes its closure as the payload and describes its step as a closure that
// captures nothing. A step capturing the operator's closure would cost one more allocation per
// chained step, and a pending handler would hold two objects instead of one.

extension Thenable {
    /// The skeleton of the operators that handle fulfilled values and return a ``Promise``:
    /// a rejection settles the new promise at once; a value goes to `step` on `queue`, which
    /// must settle `next` or throw, and a throw rejects it.
    @inlinable
    func chainValue<U, Payload: Sendable>(
        on queue: HandlerQueue,
        with payload: Payload,
        _ step: @escaping @Sendable (T, Payload, EmptyBox<Result<U, any Error>>) throws -> Void
    ) -> Promise<U> {
        let next = consume(into: EmptyBox<Result<U, any Error>>.init(consuming:)) { next in
            { result in
                switch result {
                case .success(let value):
                    queue.run(value, payload, settling: next, step)
                case .failure(let error):
                    next.seal(.failure(error))
                }
            }
        }
        return Promise(next)
    }

    /// The skeleton of the operators that handle whole results and return a ``Promise``: results
    /// that `route` admits go to `step` on `queue`; the others settle the new promise at once.
    @inlinable
    func chainResult<Payload: Sendable>(
        on queue: HandlerQueue,
        route: Route = .results,
        with payload: Payload,
        _ step:
            @escaping @Sendable (Result<T, any Error>, Payload, EmptyBox<Result<T, any Error>>) throws -> Void
    ) -> Promise<T> {
        let next = consume(into: EmptyBox<Result<T, any Error>>.init(consuming:)) { next in
            { result in
                guard route.admits(result) else {
                    next.seal(result)
                    return
                }
                queue.run(result, payload, settling: next, step)
            }
        }
        return Promise(next)
    }
}

extension Guarantee {
    /// The skeleton of every operator that returns a ``Guarantee``: `step` runs on `queue` with
    /// the value and must seal `next`.
    @inlinable
    func chainGuarantee<U, Payload: Sendable>(
        on queue: HandlerQueue,
        with payload: Payload,
        _ step: @escaping @Sendable (T, Payload, EmptyBox<U>) -> Void
    ) -> Guarantee<U> {
        let next = EmptyBox<U>(consuming: box.consumed)
        box.observe { value in
            queue.run(value, payload, resolving: next, step)
        }
        return Guarantee<U>(next)
    }
}

extension SealantBox {
    /// Runs `step`, which settles this box; a throw from it rejects the box instead. A box
    /// cancelled before its step could run skips it: nobody wants its result any longer.
    @inlinable
    func settle<U>(by step: () throws -> Void) where T == Result<U, any Error> {
        guard !interest.isCancelled else { return }
        do {
            try step()
        } catch {
            seal(.failure(error))
        }
    }

    /// Runs `step`, which resolves this box, unless the box was cancelled before its step
    /// could run.
    @inlinable
    func resolve(by step: () -> Void) {
        guard !interest.isCancelled else { return }
        step()
    }

    /// Makes what `link` leads to, already counting this box as a consumer, the box's upstream
    /// in place of the one whose result has arrived. A box cancelled meanwhile withdraws from it
    /// at once.
    @inlinable
    func replaceUpstream(with link: ConsumerLink) {
        guard let upstream = link.upstream else { return }
        var state = (box: Unretained(self), upstream: Optional(upstream), kept: false)
        queue.write(&state) { state in
            let unretained = state.box
            unretained.with { box in
                guard case .pending = box.sealant, !box.interest.isCancelled else { return }
                // The state takes the replaced upstream, released after the barrier: its
                // release may free a value, and a value's deinit is user code.
                swap(&state.upstream, &box.upstream)
                state.kept = true
            }
        }
        if !state.kept {
            Upstream.withdraw(from: upstream, cancelling: true)
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
        // Linked once the handler is attached, and so counted: a box cancelled meanwhile then
        // withdraws a consumer that exists.
        var upstream = ConsumerLink.none
        source._pipe { link in
            upstream = link
            return { self.seal($0) }
        }
        replaceUpstream(with: upstream)
    }

    /// Resolves this box as `source` does.
    @inlinable
    func follow(_ source: Guarantee<T>) {
        precondition(
            !source.box.isBacked(by: self),
            "A handler returned the guarantee its own operator returned, so it could never resolve.")
        let upstream = source.box.consumed
        source.box.observe { self.seal($0) }
        replaceUpstream(with: upstream)
    }
}
