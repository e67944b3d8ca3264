/// Resolves as the first of `thenables` to resolve, whether it fulfils or rejects.
///
/// Once it has a winner, or is cancelled, the race cancels the others, each unless something
/// else still waits for it.
///
/// An empty array rejects with ``PromiseError/badInput(_:)``: a race without runners has no end.
///
/// ```swift
/// race([fetchFromMirrorA(), fetchFromMirrorB()]).done(use)
/// ```
@inlinable
public func race<U: Thenable>(
    _ thenables: [U], file: StaticString = #fileID, line: UInt = #line
) -> Promise<U.T> {
    guard !thenables.isEmpty else {
        return Promise(error: PromiseError.badInput("race needs at least one contender; the array was empty"))
    }
    let next = EmptyBox<Result<U.T, any Error>>(madeAt: RecordedSite("race", fileID: file, line: line))
    next.consume(thenables) { _ in { next.seal($0) } }
    return Promise(next)
}

/// Resolves as the first of the thenables to resolve, whether it fulfils or rejects.
///
/// Taking the first thenable separately means an empty race cannot be written.
///
/// ```swift
/// race(fetchFromMirrorA(), fetchFromMirrorB()).done(use)
/// ```
@inlinable
public func race<U: Thenable>(
    _ first: U, _ rest: U..., file: StaticString = #fileID, line: UInt = #line
) -> Promise<U.T> {
    race([first] + rest, file: file, line: line)
}

/// Resolves as the first of the guarantees to resolve.
///
/// Once nothing waits for the race any longer, nor for a loser, the work behind the loser
/// hears it, as far as it can be cancelled.
///
/// Taking the first guarantee separately means an empty race cannot be written.
///
/// ```swift
/// race(after(seconds: 1).map { "slow" }, after(seconds: 0.1).map { "fast" })
/// ```
@inlinable
public func race<T>(
    _ first: Guarantee<T>, _ rest: Guarantee<T>..., file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<T> {
    let next = EmptyBox<T>(madeAt: RecordedSite("race", fileID: file, line: line))
    var contenders: [ConsumerLink] = []
    for contender in [first] + rest {
        let link = contender.box.attach { next.seal($0) }
        if link.upstream != nil { contenders.append(link) }
    }
    next.replaceUpstream(with: Upstreams.link(contenders))
    return Guarantee(next)
}

/// Fulfils with the first of `thenables` to fulfil, ignoring rejections while any is pending.
///
/// Once it has a winner, or is cancelled, it cancels the others, each unless something else
/// still waits for it.
///
/// Rejects with ``PromiseError/noWinner`` when every one rejects, and with
/// ``PromiseError/badInput(_:)`` when the array is empty.
///
/// ```swift
/// race(fulfilled: mirrors.map(fetch)).done(use)
/// ```
@inlinable
public func race<U: Thenable>(
    fulfilled thenables: [U], file: StaticString = #fileID, line: UInt = #line
) -> Promise<U.T> {
    guard !thenables.isEmpty else {
        return Promise(
            error: PromiseError.badInput("race(fulfilled:) needs at least one contender; the array was empty")
        )
    }
    let next = EmptyBox<Result<U.T, any Error>>(
        madeAt: RecordedSite("race(fulfilled:)", fileID: file, line: line))
    let stillRunning = Locked(thenables.count)
    next.consume(thenables) { _ in
        { result in
            if case .success = result {
                next.seal(result)
            } else if stillRunning.withLock({
                $0 -= 1; return $0 == 0
            }) {
                next.seal(.failure(PromiseError.noWinner))
            }
        }
    }
    return Promise(next)
}
