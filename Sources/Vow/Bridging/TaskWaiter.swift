/// A task awaiting a promise: resumed once, by the promise's result or by the task's
/// cancellation, whichever comes first.
///
/// It counts as one consumer of the promise. Cancelled first, it resumes the task with
/// `CancellationError` and withdraws: its handler leaves the promise's handlers, and the
/// promise is cancelled if nothing else wants it.
@usableFromInline
final class TaskWaiter<T: Sendable>: Sendable {
    /// The states of the wait; every transition happens under the lock, in the methods below.
    @usableFromInline
    enum State: Sendable {
        /// Neither the continuation nor a result has arrived.
        case starting
        /// The task is suspended on the continuation.
        case waiting(CheckedContinuation<T, any Error>)
        /// The result arrived before the task suspended; it resumes with it as soon as it does.
        case resultEarly(Result<T, any Error>)
        /// The task was cancelled before it suspended; it resumes as soon as it does.
        case cancelledEarly
        /// The task has been resumed, or will be at once.
        case finished
    }

    @usableFromInline
    let state = Locked(State.starting)
    /// The waiter's attachment to the promise: taken out under the lock to withdraw.
    @usableFromInline
    enum Attachment: Sendable {
        /// The handler is being attached.
        case attaching
        /// The handler is attached as `link`.
        case attached(ConsumerLink)
        /// The promise has resolved, or the waiter withdrew: nothing is kept.
        case released
    }

    @usableFromInline
    let attachment = Locked(Attachment.attaching)

    @usableFromInline
    init() {}

    /// Keeps `link`, the attachment of the waiter's handler, unless the promise has resolved
    /// meanwhile.
    @usableFromInline
    func keep(_ link: ConsumerLink) {
        attachment.withLock { attachment in
            if case .attaching = attachment { attachment = .attached(link) }
        }
    }

    /// Takes the attachment out, leaving nothing kept; released by the caller, after the lock.
    private func release() -> Attachment {
        attachment.withLock { attachment in
            defer { attachment = .released }
            return attachment
        }
    }

    /// The task has suspended on `continuation`.
    @usableFromInline
    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            switch state {
            case .starting:
                state = .waiting(continuation)
                return nil
            case .resultEarly(let result):
                state = .finished
                return result
            case .cancelledEarly:
                state = .finished
                return .failure(CancellationError())
            case .waiting, .finished:
                preconditionFailure("Vow internal error: a task suspended twice on one wait")
            }
        }
        if let early {
            continuation.resume(with: early)
        }
    }

    /// The promise has resolved.
    @usableFromInline
    func finish(with result: Result<T, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state {
            case .starting:
                state = .resultEarly(result)
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .resultEarly, .cancelledEarly, .finished:
                return nil
            }
        }
        continuation?.resume(with: result)
        _ = release()
    }

    /// The task has been cancelled.
    @usableFromInline
    func cancel() {
        let (withdrawing, continuation) = state.withLock {
            state -> (Bool, CheckedContinuation<T, any Error>?) in
            switch state {
            case .starting:
                state = .cancelledEarly
                return (true, nil)
            case .waiting(let continuation):
                state = .finished
                return (true, continuation)
            case .resultEarly, .cancelledEarly, .finished:
                return (false, nil)
            }
        }
        continuation?.resume(throwing: CancellationError())
        if withdrawing, case .attached(let link) = release() {
            Upstream.withdraw(from: link, cancelling: true)
        }
    }
}
