/// Fulfils with every value the iterator's thenables produce, keeping at most `concurrently`
/// of them pending at once.
///
/// The iterator is advanced lazily: a new thenable is requested only when a running one
/// fulfils, so work that starts when the thenable is created is throttled too. The values come
/// in iterator order. The first rejection rejects the whole, stops requesting more and cancels
/// the thenables still running, each unless something else waits for it; so does cancelling
/// the returned promise. A request already under way may still complete.
///
/// ```swift
/// let downloads = urls.lazy.map { @Sendable url in download(url) }.makeIterator()
/// when(fulfilled: downloads, concurrently: 4).done { files in
///     print("downloaded \(files.count) files, at most 4 at a time")
/// }
/// ```
///
/// The iterator is advanced on whichever thread completes a thenable, so it is a `sending`
/// parameter: nothing in it may stay tied to the caller's actor. In a function the compiler
/// checks that, and rejects a `lazy.map` whose closure is isolated to the main actor with
/// "sending value of non-Sendable type … risks causing data races". Top-level code is not
/// checked: the compiler makes its closures main-actor isolated but lets them be sent, and one
/// called off the main thread stops the program. Marking the closure `@Sendable`, as above, makes
/// it nonisolated and sound everywhere.
///
/// - Returns: A promise rejected with ``PromiseError/badInput(_:)`` if `concurrently` is below one.
public func when<It: IteratorProtocol>(
    fulfilled iterator: sending It,
    concurrently: Int,
    file: StaticString = #fileID, line: UInt = #line
) -> Promise<[It.Element.T]> where It.Element: Thenable {
    gather(
        iterator, concurrently: concurrently, counting: nil,
        madeAt: RecordedSite("when(fulfilled:concurrently:)", fileID: file, line: line))
}

/// ``when(fulfilled:concurrently:file:line:)``, reporting its progress in units of `count`
/// inputs, or, without a count, of the inputs as the iterator yields them, in a box made by the
/// operation that `site` names.
func gather<It: IteratorProtocol>(
    _ iterator: sending It,
    concurrently: Int,
    counting count: Int?,
    madeAt site: RecordedSite
) -> Promise<[It.Element.T]> where It.Element: Thenable {
    guard concurrently > 0 else { return Promise(error: PromiseError.concurrencyLimit(concurrently)) }
    var iterator = iterator
    let outcome = EmptyBox<Result<[It.Element.T], any Error>>(madeAt: site)
    let throttle = Throttle<It.Element>(
        limit: concurrently,
        next: { iterator.next() },
        progress: WhenProgress.ofCurrent(expecting: count),
        onRejection: { outcome.seal(.failure($0)) },
        onCompletion: { results in
            // Without a rejection every result is a value, so this cannot throw.
            outcome.seal(Result { try results.map { try $0.get() } })
        })
    outcome.replaceUpstream(with: ConsumerLink(throttle))
    throttle.pump()
    return Promise(outcome)
}

/// Waits for every thenable the iterator produces, fulfilled or rejected, keeping at most
/// `concurrently` of them pending at once, and reports each result in iterator order.
///
/// The iterator is advanced lazily, as by ``when(fulfilled:concurrently:file:line:)``, but a
/// rejection does not stop it: every element is requested, so this cannot fail. Once nothing
/// waits for the guarantee any longer, it stops requesting and cancels what is running. It is a
/// `sending` parameter for the same reason as there, and the same advice holds: in top-level
/// code, mark the closure that creates the thenables `@Sendable`.
///
/// ```swift
/// let uploads = files.lazy.map { @Sendable file in upload(file) }.makeIterator()
/// when(resolved: uploads, concurrently: 3).done { results in
///     let failed = results.filter { if case .failure = $0 { true } else { false } }
///     print("\(failed.count) of \(results.count) uploads failed")
/// }
/// ```
///
/// - Returns: A guarantee of a single ``PromiseError/badInput(_:)`` failure, without advancing the
///   iterator, if `concurrently` is below one.
public func when<It: IteratorProtocol>(
    resolved iterator: sending It,
    concurrently: Int,
    file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<[Result<It.Element.T, any Error>]> where It.Element: Thenable {
    guard concurrently > 0 else { return .value([.failure(PromiseError.concurrencyLimit(concurrently))]) }
    var iterator = iterator
    let outcome = EmptyBox<[Result<It.Element.T, any Error>]>(
        madeAt: RecordedSite("when(resolved:concurrently:)", fileID: file, line: line))
    let throttle = Throttle<It.Element>(
        limit: concurrently,
        next: { iterator.next() },
        progress: WhenProgress.ofCurrent(expecting: nil),
        onRejection: nil,
        onCompletion: { outcome.seal($0) })
    outcome.replaceUpstream(with: ConsumerLink(throttle))
    throttle.pump()
    return Guarantee(outcome)
}

/// Drives ``when(fulfilled:concurrently:file:line:)`` and
/// ``when(resolved:concurrently:file:line:)``: starts thenables up to the limit and collects their
/// results in iterator order.
///
/// With an `onRejection` handler, the first rejection goes to it, settles the throttle and stops
/// the requests; without one, a rejection is kept as a result like a value.
///
/// The iterator runs user code, so it is never advanced while the lock is held. Instead one
/// thread at a time holds the *pump* role and advances it; a completion that arrives while
/// another thread pumps just asks that thread to go round again.
///
/// The throttle is the upstream of the box it settles: once that box settles or is cancelled,
/// the throttle stops requesting and withdraws from the thenables still running.
// @unchecked: `next` is only called by the thread holding the pump role, which is handed over
// under `state`'s lock, so every call is ordered after the previous one.
private final class Throttle<Element: Thenable>: Upstream, @unchecked Sendable {
    // Generic over the thenable rather than holding `any Thenable<Value>`: a constrained
    // existential needs the Swift 5.7 runtime, newer than the oldest Apple systems Vow supports.
    typealias Value = Element.T

    fileprivate struct State: Sendable {
        var results: [Result<Value, any Error>?] = []
        var running = 0
        // The boxes of the running thenables that can be cancelled, by slot.
        var consumed: [Int: ConsumerLink] = [:]
        var exhausted = false
        var settled = false
        var pumpRequests = 0

        /// Every result, once the iterator is exhausted and nothing runs; settles the state.
        mutating func takeResultsIfDone() -> [Result<Value, any Error>]? {
            guard exhausted, running == 0, !settled else { return nil }
            settled = true
            return results.map { $0! }
        }
    }

    private let next: () -> Element?
    private let limit: Int
    private let progress: WhenProgress?
    private let onRejection: (@Sendable (any Error) -> Void)?
    private let onCompletion: @Sendable ([Result<Value, any Error>]) -> Void
    private let state = Locked(State())

    init(
        limit: Int,
        next: @escaping () -> Element?,
        progress: WhenProgress?,
        onRejection: (@Sendable (any Error) -> Void)?,
        onCompletion: @escaping @Sendable ([Result<Value, any Error>]) -> Void
    ) {
        self.limit = limit
        self.next = next
        self.progress = progress
        self.onRejection = onRejection
        self.onCompletion = onCompletion
        super.init()
    }

    /// The box this throttle settles no longer needs it: settled, or cancelled.
    override func withdraw(_ token: UInt32, cancelling: Bool) -> Withdrawal {
        let running = state.withLock { state in
            state.settled = true
            defer { state.consumed = [:] }
            return state.consumed.values
        }
        if cancelling { progress?.finish() }
        // The caller's walk tells each input still running, in its loop.
        return Withdrawal(detached: false, next: .none, members: Array(running))
    }

    func pump() {
        let becamePumper = state.withLock { state in
            state.pumpRequests += 1
            return state.pumpRequests == 1
        }
        guard becamePumper else { return }
        repeat {
            while let slot = reserveSlot() {
                guard let thenable = next() else {
                    finishIterating()
                    break
                }
                progress?.inputStarted()
                // Tracked once the handler is attached, so that it can be taken back.
                track(thenable.attach { self.complete(slot, with: $0) }, in: slot)
            }
        } while pumpAgain()
    }

    /// Keeps the box of a thenable just started, to withdraw from it should the throttle be
    /// settled before it completes; withdraws at once if it already is.
    private func track(_ link: ConsumerLink, in slot: Int) {
        guard link.upstream != nil else { return }
        let kept = state.withLock { state in
            guard !state.settled else { return false }
            state.consumed[slot] = link
            return true
        }
        if !kept {
            Upstream.withdraw(from: link, cancelling: true)
        }
    }

    private func reserveSlot() -> Int? {
        state.withLock { state in
            guard !state.settled, !state.exhausted, state.running < limit else { return nil }
            state.running += 1
            state.results.append(nil)
            return state.results.count - 1
        }
    }

    private func finishIterating() {
        let results = state.withLock { state -> [Result<Value, any Error>]? in
            state.exhausted = true
            state.running -= 1
            state.results.removeLast()
            return state.takeResultsIfDone()
        }
        if let results { onCompletion(results) }
    }

    private func complete(_ slot: Int, with result: Result<Value, any Error>) {
        if case .failure(let error) = result, let onRejection {
            let isFirst = state.withLock { state in
                guard !state.settled else { return false }
                state.settled = true
                return true
            }
            if isFirst {
                progress?.finish()
                onRejection(error)
            }
            return
        }
        let (results, _) = state.withLock { state -> ([Result<Value, any Error>]?, ConsumerLink?) in
            state.results[slot] = result
            state.running -= 1
            // The box is released after the lock: a release may free a value, whose deinit is
            // user code.
            return (state.takeResultsIfDone(), state.consumed.removeValue(forKey: slot))
        }
        progress?.completeOne()
        if let results {
            onCompletion(results)
        } else {
            pump()
        }
    }

    private func pumpAgain() -> Bool {
        state.withLock { state in
            let again = state.pumpRequests > 1
            state.pumpRequests = again ? 1 : 0
            return again
        }
    }
}
