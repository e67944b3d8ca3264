/// Runs `body` until the promise it returns fulfils, up to `attempts` times, waiting `delay`
/// between attempts, for as long as `shouldRetry` says an error is worth another try.
///
/// Each attempt is a fresh call of `body`, and so a fresh promise: nothing that has settled
/// is ever made pending again. The returned promise fulfils with the first value; it rejects
/// with the error of the last attempt once `attempts` have failed, or with the first error
/// `shouldRetry` turns down. A cancellation is never retried. The delay is waited out after a
/// failure, never after a success.
///
/// ```swift
/// retry(attempts: 4, delay: .exponential(from: .milliseconds(500)), if: { error in
///     (error as? URLError)?.code == .timedOut
/// }) {
///     api.fetchFeed()
/// }.done { feed in
///     show(feed)
/// }.catch { error in
///     report(error)
/// }
/// ```
///
/// `body` and `shouldRetry` each run in the isolation of the code that wrote them, as handlers
/// do: on the main actor in `@MainActor` code, on the actor in an actor's method. A nonisolated
/// `body` runs its first attempt at once, on this thread, and the others where the delay ends;
/// a nonisolated `shouldRetry` runs where the attempt failed.
///
/// Cancelling the returned promise stops retrying: the attempt in flight is cancelled, or the
/// delay, and no other attempt starts.
///
/// The delays come from `clock`: pass a ``ManualClock`` in tests, and a schedule of retries
/// that would take minutes runs as fast as the test advances the clock.
///
/// - Parameters:
///   - attempts: How many times to run `body` at most, the first time included.
///   - delay: How long to wait after each failure; ``RetryDelay/none`` by default.
///   - clock: The clock the delays are measured on.
///   - shouldRetry: Whether an error is worth another attempt; every error is, by default.
///     A throw from it rejects the retry with what it threw.
///   - file: Where the call is written, recorded in debug builds for the chain's description
///     (see ``CreationSite``). Leave the default.
///   - line: The line of `file`. Leave the default.
///   - body: Starts one attempt.
/// - Returns: A promise rejected with ``PromiseError/badInput(_:)``, without running `body`, if
///   `attempts` is below one or `delay` cannot be used; and at the point where a
///   ``RetryDelay/custom(_:)`` delay comes out negative.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public func retry<U: Thenable, C: Clock>(
    attempts: Int = 3,
    delay: RetryDelay = .none,
    clock: C = ContinuousClock(),
    @_inheritActorContext(always) if shouldRetry:
        @escaping @isolated(any) @Sendable (any Error) throws -> Bool =
        everyError,
    file: StaticString = #fileID, line: UInt = #line,
    @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () throws -> U
) -> Promise<U.T> where C.Duration == Duration {
    Retry(
        attempts: attempts, delay: delay, clock: clock,
        deciding: PlacedHandler(shouldRetry, else: .inline).map { decide in
            { error in Guarantee.value(try decide(error)) }
        },
        starting: PlacedHandler(body, else: .inline),
        madeAt: RecordedSite("retry", fileID: file, line: line)
    ).start()
}

/// Runs `body` until the promise it returns fulfils, up to `attempts` times, waiting `delay`
/// between attempts, for as long as the thenable `shouldRetry` returns fulfils with `true`.
///
/// Hydra calls this `retryWhen`. Use it when deciding takes work of its own, such as renewing
/// a token after an authorisation error:
///
/// ```swift
/// retry(attempts: 2, if: { error in
///     error is Unauthorized ? auth.renewToken().map { _ in true } : Promise.value(false)
/// }) {
///     api.fetchProfile()
/// }
/// ```
///
/// Everything else is as in ``retry(attempts:delay:clock:if:file:line:_:)-26o1u``; a rejection
/// of the thenable `shouldRetry` returns rejects the retry with that error.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public func retry<U: Thenable, C: Clock, Decision: Thenable>(
    attempts: Int = 3,
    delay: RetryDelay = .none,
    clock: C = ContinuousClock(),
    @_inheritActorContext(always) if shouldRetry:
        @escaping @isolated(any) @Sendable (any Error) throws -> Decision,
    file: StaticString = #fileID, line: UInt = #line,
    @_inheritActorContext(always) _ body: @escaping @isolated(any) @Sendable () throws -> U
) -> Promise<U.T> where C.Duration == Duration, Decision.T == Bool {
    Retry(
        attempts: attempts, delay: delay, clock: clock,
        deciding: PlacedHandler(shouldRetry, else: .inline), starting: PlacedHandler(body, else: .inline),
        madeAt: RecordedSite("retry", fileID: file, line: line)
    ).start()
}

/// The predicate of a retry that is not given one: every error is worth another attempt, but
/// for a cancellation, which never reaches a predicate.
@usableFromInline
@Sendable func everyError(_: any Error) -> Bool {
    true
}

/// The plan of a retry, and the recursion that carries it out: each attempt is chained to
/// the decision about the previous one, so cancelling the result reaches whatever runs now.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
struct Retry<Attempt: Thenable, Decision: Thenable>: Sendable where Decision.T == Bool {
    let attempts: Int
    let delay: RetryDelay
    let wait: @Sendable (Duration) -> Guarantee<Void>
    let decide: PlacedHandler<@Sendable (any Error) throws -> Decision>
    let body: PlacedHandler<@Sendable () throws -> Attempt>
    /// The site of the `retry` call, which every box of every attempt records.
    let site: RecordedSite

    init<C: Clock>(
        attempts: Int, delay: RetryDelay, clock: C,
        deciding decide: PlacedHandler<@Sendable (any Error) throws -> Decision>,
        starting body: PlacedHandler<@Sendable () throws -> Attempt>,
        madeAt site: RecordedSite
    ) where C.Duration == Duration {
        self.attempts = attempts
        self.delay = delay
        self.wait = { after($0, clock: clock, madeAt: site) }
        self.decide = decide
        self.body = body
        self.site = site
    }

    func start() -> Promise<Attempt.T> {
        guard attempts >= 1 else {
            return Promise(error: PromiseError.badInput("retry needs at least 1 attempt, not \(attempts)"))
        }
        if let problem = delay.problem {
            return Promise(error: PromiseError.badInput(problem))
        }
        return attempt(1)
    }

    /// Makes attempt `number`, and, if it fails, decides about the next.
    private func attempt(_ number: Int) -> Promise<Attempt.T> {
        Promise.value(()).then(via: body.map { body in { @Sendable _ in try body() } }, madeAt: site)
            .recover(
                via: decide.map { decide in
                    { error in
                        guard number < attempts else { throw error }
                        return try decide(error).then(
                            via: PlacedHandler(on: nil) { again in
                                guard again else { throw error }
                                return try retry(after: number)
                            },
                            madeAt: site)
                    }
                },
                policy: .allErrorsExceptCancellation, madeAt: site)
    }

    /// The attempt after `number`, once the delay after that many failures has passed.
    private func retry(after number: Int) throws -> Promise<Attempt.T> {
        let pause = delay.delay(afterFailures: number)
        guard pause >= .zero else {
            throw PromiseError.badInput(
                "the retry delay after \(number) failures was \(pause); a delay cannot be negative")
        }
        guard pause > .zero else {
            // An attempt that fails at once runs this in its own handler, and a call to the next
            // attempt from here would nest each in the last, as many deep as `attempts` allows.
            // Behind a seal, the trampoline nests a few and runs the rest after, on a flat stack.
            let gate = EmptyBox<Void>()
            let next = Guarantee(gate).then(
                via: PlacedHandler(on: nil) { _ in attempt(number + 1) }, madeAt: site)
            gate.seal(())
            return next
        }
        return wait(pause).then(via: PlacedHandler(on: nil) { _ in attempt(number + 1) }, madeAt: site)
    }
}
