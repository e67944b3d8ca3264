import Dispatch
import Foundation
import Vow

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A process that `launch(.promise)` started, from its start to the settling of its promise:
/// the promise settles once the process has ended and its output is read, or reading stopped.
///
/// | event | what changes | what runs after the lock is left |
/// | --- | --- | --- |
/// | the reader finishes | `read` | the settling, if the process has ended |
/// | Foundation reports the end | `ending` | the kill timer's cancellation; the settling, if read |
/// | the promise is cancelled | `isCancelled` | the reader stopped; `SIGTERM`, or `SIGKILL` with no grace; the kill timer armed |
/// | the grace period is over | | `SIGKILL`, if the process has not ended |
///
/// A cancelled promise rejects with `PromiseError.cancelled`, and only once the process has
/// ended: Foundation reports the end after reaping the process, so no zombie is left either.
final class LaunchedProcess: Sendable {
    private struct State {
        /// What the reader handed over, once it has finished.
        var read: PipeReader.Outcome?
        /// How the process ended, once Foundation has reaped it.
        var ending: (status: Int32, reason: ProcessError.Reason)?
        var isCancelled = false
        /// Sends `SIGKILL` when the grace period after a cancellation's `SIGTERM` is over.
        var killTimer: (any DispatchSourceTimer)?
        /// Whether the promise was given its result: only the event that completes the
        /// process's story settles it.
        var isSettled = false
    }

    private let resolver: Resolver<ProcessOutput>
    private let reader: PipeReader
    private let executable: URL
    private let arguments: [String]
    private let gracePeriod: TimeInterval
    private let lock = NSLock()
    // nonisolated(unsafe): only read or written while holding `lock`.
    nonisolated(unsafe) private var state = State()
    // nonisolated(unsafe): written once, by `started(as:)`, before the cancel hook that reads it
    // is registered, and never again.
    nonisolated(unsafe) private var identifier: pid_t = 0

    init(
        resolver: Resolver<ProcessOutput>, reader: PipeReader, executable: URL, arguments: [String],
        gracePeriod: TimeInterval
    ) {
        self.resolver = resolver
        self.reader = reader
        self.executable = executable
        self.arguments = arguments
        self.gracePeriod = gracePeriod
    }

    /// Begins reading once `run()` has started the process, and lets a cancellation stop it.
    ///
    /// `run()` has closed this process's copies of the pipes' writing ends by then: until it
    /// had, a read could never reach the end. The child blocks at most briefly on a full pipe
    /// meanwhile.
    func started(as identifier: pid_t, output: FileHandle?, error: FileHandle?) {
        self.identifier = identifier
        reader.start(output: output, error: error) { outcome in
            self.settle(with: { $0.read = outcome })
        }
        resolver.onCancelLeavingPending { self.cancel() }
    }

    /// Notes how the process ended; called once, from its termination handler, which
    /// Foundation calls after reaping the process.
    func ended(status: Int32, reason: ProcessError.Reason) {
        let timer = settle { state in
            state.ending = (status, reason)
            defer { state.killTimer = nil }
            return state.killTimer
        }
        timer?.cancel()
    }

    /// Stops reading, and asks the process to end unless it has: `SIGTERM`, then `SIGKILL` once
    /// the grace period is over, or `SIGKILL` at once with no grace period.
    private func cancel() {
        let isRunning = lock.withLock {
            state.isCancelled = true
            return state.ending == nil
        }
        // The promise settles once reading has stopped, even where a child of the process
        // keeps its output open.
        reader.stop()
        guard isRunning else { return }
        guard gracePeriod > 0 else { return send(SIGKILL) }
        send(SIGTERM)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { self.gracePeriodEnded() }
        timer.schedule(deadline: .now() + gracePeriod)
        let isArmed = lock.withLock {
            guard state.ending == nil else { return false }
            state.killTimer = timer
            return true
        }
        // Resumed either way: libdispatch does not let a source go while it is suspended. One
        // that the ending has made useless is cancelled, which releases its handler.
        timer.resume()
        if !isArmed { timer.cancel() }
    }

    private func gracePeriodEnded() {
        let (isRunning, timer) = lock.withLock {
            defer { state.killTimer = nil }
            return (state.ending == nil, state.killTimer)
        }
        timer?.cancel()
        if isRunning { send(SIGKILL) }
    }

    /// Sends `signal` to the process and to the processes it started that are still in its
    /// process group, which Foundation makes the child lead, so that a shell's children stop
    /// with it; to the process alone where it leads no group.
    ///
    /// Only a process not known to have ended is signalled: once reaped, its identifier may be
    /// another process's. (Between the reaping and Foundation's report, a moment remains, as
    /// with Foundation's own `terminate()`. A group outlives its leader while a member remains,
    /// and its identifier with it.)
    private func send(_ signal: Int32) {
        if kill(-identifier, signal) != 0 && errno == ESRCH {
            kill(identifier, signal)
        }
    }

    /// Applies `event` to the state, then settles the promise if that completed the process's
    /// story: it has ended, and reading has finished.
    @discardableResult
    private func settle<R>(with event: (inout State) -> R) -> R {
        let (result, settlement) = lock.withLock { () -> (R, Result<ProcessOutput, any Error>?) in
            let result = event(&state)
            guard !state.isSettled, let read = state.read, let ending = state.ending else {
                return (result, nil)
            }
            state.isSettled = true
            // The promise is marked cancelled before its hook tells this process: a cancellation
            // that came first wins, even over an ending the hook has not heard of.
            let isCancelled = state.isCancelled || resolver.isCancelled
            return (result, outcome(read: read, ending: ending, isCancelled: isCancelled))
        }
        if let settlement { resolver.resolve(settlement) }
        return result
    }

    /// The promise's result once the process has ended and reading has finished.
    private func outcome(
        read: PipeReader.Outcome, ending: (status: Int32, reason: ProcessError.Reason), isCancelled: Bool
    ) -> Result<ProcessOutput, any Error> {
        if isCancelled { return .failure(PromiseError.cancelled) }
        let streams: (output: Data, error: Data)
        switch read {
        case .success(let read): streams = read
        case .failure(let failure): return .failure(failure)
        }
        if ending.reason == .exit && ending.status == 0 {
            return .success(
                ProcessOutput(status: 0, standardOutput: streams.output, standardError: streams.error))
        }
        return .failure(
            ProcessError(
                status: ending.status, reason: ending.reason, standardOutput: streams.output,
                standardError: streams.error, executable: executable, arguments: arguments))
    }
}
