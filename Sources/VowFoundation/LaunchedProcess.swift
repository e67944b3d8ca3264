// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
import Dispatch
import Foundation
import Vow

internal import CVowFoundation

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
/// A cancelled promise rejects with `PromiseError.cancelled`, and only once the process has
/// ended and been reaped, so no zombie is left either. The events and what each changes are
/// ``State``'s transitions; what they call for runs after the lock is left, but for a signal to
/// the process, which is sent while holding it: the process is reaped only once the lock has
/// recorded its end, so no signal can reach another process that took its identifier.
final class LaunchedProcess: Sendable {
    /// How the process ended, as ``ChildExit`` tells it.
    typealias Ending = ChildExit.Ending

    /// What is known of the process and its promise, changed only by the transitions below.
    ///
    /// | event | transition | what runs after the lock is left |
    /// | --- | --- | --- |
    /// | the reader finishes | ``finishedReading(_:)`` | the settling, if the process has ended |
    /// | the process ends, unreaped | ``ended(_:)`` | the reaping; the kill timer's cancellation; the reader stopped, if cancelled; the settling, if read |
    /// | the promise is cancelled | ``cancelled()`` | (under the lock) `SIGTERM`, `SIGKILL` with no grace, if running; else the reader stopped |
    /// | the kill timer is made | ``arm(_:)`` | the timer's cancellation, if the process ended meanwhile |
    /// | the grace period is over | ``gracePeriodEnded()`` | (under the lock) `SIGKILL`, if the process has not ended; the timer's cancellation |
    private struct State {
        /// What the reader handed over, once it has finished.
        var read: PipeReader.Outcome?
        /// How the process ended, once it has; it is reaped right after.
        var ending: Ending?
        var isCancelled = false
        /// Sends `SIGKILL` when the grace period after a cancellation's `SIGTERM` is over.
        var killTimer: (any DispatchSourceTimer)?
        /// Whether the promise was given its result: only the event that completes the
        /// process's story settles it.
        var isSettled = false

        /// What the promise settles with, worked out after the lock is left: how reading and
        /// the process ended, and whether it was cancelled.
        typealias Completion = (read: PipeReader.Outcome, ending: Ending, isCancelled: Bool)

        mutating func finishedReading(_ outcome: PipeReader.Outcome) -> Completion? {
            read = outcome
            return completion()
        }

        /// Returns the kill timer to cancel, whether to stop reading, and the completion if
        /// reading has finished.
        mutating func ended(_ ending: Ending) -> (
            timer: (any DispatchSourceTimer)?, stopsReading: Bool, completion: Completion?
        ) {
            self.ending = ending
            defer { killTimer = nil }
            return (killTimer, isCancelled, completion())
        }

        /// Returns whether the process is running, and so is to be signalled; if it is not,
        /// reading stops.
        mutating func cancelled() -> Bool {
            isCancelled = true
            return ending == nil
        }

        /// Keeps `timer` unless the process ended meanwhile; returns whether it kept it.
        mutating func arm(_ timer: any DispatchSourceTimer) -> Bool {
            guard ending == nil else { return false }
            killTimer = timer
            return true
        }

        /// Returns whether the process is still running, to be killed, and the spent timer.
        mutating func gracePeriodEnded() -> (isRunning: Bool, timer: (any DispatchSourceTimer)?) {
            defer { killTimer = nil }
            return (ending == nil, killTimer)
        }

        private mutating func completion() -> Completion? {
            guard !isSettled, let read, let ending else { return nil }
            isSettled = true
            return (read, ending, isCancelled)
        }
    }

    private let resolver: Resolver<ProcessOutput>
    private let reader: PipeReader
    private let identifier: pid_t
    private let executable: URL
    private let arguments: [String]
    private let gracePeriod: TimeInterval
    private let lock = NSLock()
    // nonisolated(unsafe): only read or written while holding `lock`.
    nonisolated(unsafe) private var state = State()

    init(
        resolver: Resolver<ProcessOutput>, reader: PipeReader, identifier: pid_t, executable: URL,
        arguments: [String], gracePeriod: TimeInterval
    ) {
        self.resolver = resolver
        self.reader = reader
        self.identifier = identifier
        self.executable = executable
        self.arguments = arguments
        self.gracePeriod = gracePeriod
    }

    /// Begins reading and watching for the end of the process just spawned, and lets a
    /// cancellation stop it.
    ///
    /// This program's copies of the pipes' writing ends are closed by then: until they were, a
    /// read could never reach the end. The child blocks at most briefly on a full pipe
    /// meanwhile.
    func start(output: FileHandle?, error: FileHandle?, watch: ChildExit.Watch) {
        reader.start(output: output, error: error) { outcome in
            self.finishedReading(outcome)
        }
        ChildExit.watch(identifier, by: watch) { ending in self.ended(ending) }
        resolver.onCancelLeavingPending { self.cancel() }
    }

    private func finishedReading(_ outcome: PipeReader.Outcome) {
        settle(lock.withLock { state.finishedReading(outcome) })
    }

    /// Notes how the process ended, then reaps it; called once, while it is a zombie.
    private func ended(_ ending: Ending) {
        let (timer, stopsReading, completion) = lock.withLock { state.ended(ending) }
        // A child something else reaped first has no zombie left, and its identifier may be
        // another child's already.
        if case .success = ending { vow_reap(identifier) }
        timer?.cancel()
        // After a cancellation, the promise settles once the process has ended, even where a
        // child of the process keeps its output open.
        if stopsReading { reader.stop() }
        settle(completion)
    }

    /// Asks the process to end unless it has: `SIGTERM`, then `SIGKILL` once the grace period
    /// is over, or `SIGKILL` at once with no grace period. Its output is read until it has
    /// ended, so that a process that writes as it shuts down does not die of `SIGPIPE` first;
    /// one that has ended already, its output kept open by a child, stops being read at once.
    private func cancel() {
        let isRunning = lock.withLock {
            let isRunning = state.cancelled()
            if isRunning { send(gracePeriod > 0 ? SIGTERM : SIGKILL) }
            return isRunning
        }
        guard isRunning else { return reader.stop() }
        guard gracePeriod > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { self.gracePeriodEnded() }
        timer.schedule(deadline: .now() + gracePeriod)
        let isArmed = lock.withLock { state.arm(timer) }
        // Resumed either way: libdispatch does not let a source go while it is suspended. One
        // that the ending has made useless is cancelled, which releases its handler.
        timer.resume()
        if !isArmed { timer.cancel() }
    }

    private func gracePeriodEnded() {
        let timer = lock.withLock {
            let (isRunning, timer) = state.gracePeriodEnded()
            if isRunning { send(SIGKILL) }
            return timer
        }
        timer?.cancel()
    }

    /// Sends `signal` to the process and to the processes it started that are still in its
    /// process group, which the child leads, so that a shell's children stop with it; to the
    /// process alone where it leads no group, having left it.
    ///
    /// Called only while holding `lock`, for a process whose end it has not recorded: the
    /// process is at most a zombie, whose identifier and group no other process can have. (A
    /// group outlives its leader while a member remains, and its identifier with it.) A system
    /// call, and no code of the user's, runs under the lock for it.
    private func send(_ signal: Int32) {
        if kill(-identifier, signal) != 0 && errno == ESRCH {
            kill(identifier, signal)
        }
    }

    /// Settles the promise, once a transition has completed the process's story.
    private func settle(_ completion: State.Completion?) {
        guard let completion else { return }
        resolver.resolve(outcome(of: completion))
    }

    /// The promise's result once the process has ended and reading has finished.
    private func outcome(of completion: State.Completion) -> Result<ProcessOutput, any Error> {
        // The promise is marked cancelled before its hook tells this process: a cancellation
        // that came first wins, even over an ending the hook has not heard of.
        if completion.isCancelled || resolver.isCancelled { return .failure(PromiseError.cancelled) }
        let streams: (output: Data, error: Data)
        switch completion.read {
        case .success(let read): streams = read
        case .failure(let failure): return .failure(failure)
        }
        let ending: (status: Int32, reason: ProcessError.Reason)
        switch completion.ending {
        case .success(let ended): ending = ended
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
#endif
