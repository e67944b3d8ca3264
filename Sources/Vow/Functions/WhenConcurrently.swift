/// Fulfils with every value the iterator's thenables produce, keeping at most `concurrently`
/// of them pending at once.
///
/// The iterator is advanced lazily: a new thenable is requested only when a running one
/// fulfils, so work that starts when the thenable is created is throttled too. The values come
/// in iterator order. The first rejection rejects the whole and stops requesting more; a request
/// already under way when it arrives may still complete.
///
/// ```swift
/// let downloads = urls.lazy.map { download($0) }.makeIterator()
/// when(fulfilled: downloads, concurrently: 4).done { files in
///     print("downloaded \(files.count) files, at most 4 at a time")
/// }
/// ```
///
/// - Returns: A promise rejected with ``PromiseError/badInput`` if `concurrently` is below one.
public func when<It: IteratorProtocol>(
    fulfilled iterator: sending It,
    concurrently: Int
) -> Promise<[It.Element.T]> where It.Element: Thenable {
    guard concurrently > 0 else { return Promise(error: PromiseError.badInput) }
    var iterator = iterator
    let throttle = Throttle<It.Element.T>(limit: concurrently) { iterator.next() }
    throttle.pump()
    return throttle.promise
}

/// Drives ``when(fulfilled:concurrently:)``: starts thenables up to the limit and collects them.
///
/// The iterator runs user code, so it is never advanced while the lock is held. Instead one
/// thread at a time holds the *pump* role and advances it; a completion that arrives while
/// another thread pumps just asks that thread to go round again.
// @unchecked: `next` is only called by the thread holding the pump role, which is handed over
// under `state`'s lock, so every call is ordered after the previous one.
private final class Throttle<Value: Sendable>: @unchecked Sendable {
    fileprivate struct State: Sendable {
        var values: [Value?] = []
        var running = 0
        var exhausted = false
        var settled = false
        var pumpRequests = 0

        /// Every value, once the iterator is exhausted and nothing runs; settles the state.
        mutating func takeValuesIfDone() -> [Value]? {
            guard exhausted, running == 0, !settled else { return nil }
            settled = true
            return values.map { $0! }
        }
    }

    private let outcome = EmptyBox<Result<[Value], any Error>>()
    var promise: Promise<[Value]> { Promise(outcome) }
    private let next: () -> (any Thenable<Value>)?
    private let limit: Int
    private let state = Locked(State())

    init(limit: Int, next: @escaping () -> (any Thenable<Value>)?) {
        self.limit = limit
        self.next = next
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
                thenable.pipe { self.complete(slot, with: $0) }
            }
        } while pumpAgain()
    }

    private func reserveSlot() -> Int? {
        state.withLock { state in
            guard !state.settled, !state.exhausted, state.running < limit else { return nil }
            state.running += 1
            state.values.append(nil)
            return state.values.count - 1
        }
    }

    private func finishIterating() {
        let values = state.withLock { state -> [Value]? in
            state.exhausted = true
            state.running -= 1
            state.values.removeLast()
            return state.takeValuesIfDone()
        }
        if let values { outcome.seal(.success(values)) }
    }

    private func complete(_ slot: Int, with result: Result<Value, any Error>) {
        switch result {
        case .failure(let error):
            state.withLock { $0.settled = true }
            outcome.seal(.failure(error))
        case .success(let value):
            let values = state.withLock { state -> [Value]? in
                state.values[slot] = value
                state.running -= 1
                return state.takeValuesIfDone()
            }
            if let values {
                outcome.seal(.success(values))
            } else {
                pump()
            }
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
