import Dispatch
public import Foundation
public import Vow

extension Process {
    /// Launches the process and returns a promise of everything it writes to its standard
    /// output and standard error, which fulfils once it exits with status 0.
    ///
    /// ```swift
    /// let process = Process()
    /// process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    /// process.arguments = ["git", "status", "--porcelain"]
    /// process.launch(.promise).done { output in
    ///     print(output.standardOutputText)
    /// }.catch { error in
    ///     print(error)  // a ProcessError says the command, the status and what it wrote
    /// }
    /// ```
    ///
    /// Both streams are read while the process runs, so a process can write any amount
    /// without filling a pipe and waiting forever for a reader. The promise settles once the
    /// process has ended and both streams are read to their end; a child it left running in
    /// the background with the same standard output keeps the promise pending until that
    /// child closes it too, as a shell's `$(…)` does.
    ///
    /// - A status other than 0, or a signal that killed the process, rejects with a
    ///   ``ProcessError``, which carries the status and both streams.
    /// - A process that cannot start, such as one whose executable is missing or not
    ///   executable, rejects with the error `run()` throws. One without an `executableURL`,
    ///   or launched already, rejects with `PromiseError.badInput(_:)`.
    /// - Cancelling the promise sends the process `SIGTERM`, as `terminate()` does, stops
    ///   reading its output and rejects with `PromiseError.cancelled` at once; a process
    ///   that catches or ignores the signal goes on running.
    ///
    /// The process's standard output and standard error are collected through pipes of its
    /// own unless you directed them elsewhere before the launch, to a file, to
    /// `FileHandle.nullDevice` or to a pipe you read yourself: such a stream is left as it is
    /// and is empty in the result. (Left as `nil` or as `FileHandle.standardOutput` or
    /// `FileHandle.standardError`, it is collected.) A standard input left as the parent's, or
    /// `nil`, becomes `FileHandle.nullDevice`, so a process that reads it sees its end at once
    /// rather than waiting for the parent's input; set it to a pipe or a file to give it input.
    ///
    /// A `terminationHandler` set before the launch still runs, after Vow has noted how the
    /// process ended; replacing it after the launch would leave the promise pending for good.
    public func launch(_: Namespacer) -> Promise<ProcessOutput> {
        guard let executable = executableURL else {
            return Promise(error: PromiseError.badInput("the process has no executableURL to launch"))
        }
        // Only a launched process has an identifier; `run()` throws on Linux for a second
        // launch, but raises an Objective-C exception on Darwin, which would end the program.
        guard processIdentifier == 0 else {
            return Promise(
                error: PromiseError.badInput("the process was launched already; a Process runs once"))
        }

        let outputPipe = isLeftToParent(standardOutput, FileHandle.standardOutput) ? Pipe() : nil
        let errorPipe = isLeftToParent(standardError, FileHandle.standardError) ? Pipe() : nil
        if let outputPipe { standardOutput = outputPipe }
        if let errorPipe { standardError = errorPipe }
        if isLeftToParent(standardInput, FileHandle.standardInput) { standardInput = FileHandle.nullDevice }

        let (promise, resolver) = Promise<ProcessOutput>.pending()
        let collector = Collector(
            resolver: resolver, executable: executable, arguments: arguments ?? [],
            streams: [outputPipe, errorPipe].count { $0 != nil })
        let theirs = terminationHandler
        terminationHandler = { process in
            // The status and reason are final by the time the handler runs.
            let reason: ProcessError.Reason =
                process.terminationReason == .uncaughtSignal ? .uncaughtSignal : .exit
            collector.terminated(status: process.terminationStatus, reason: reason)
            theirs?(process)
        }
        do {
            try withNoSignalBlocked { try run() }
        } catch {
            terminationHandler = theirs
            resolver.reject(error)
            return promise
        }
        // Started after `run()`, which closes this process's copies of the pipes' writing ends:
        // until then a read could never reach the end. The child blocks at most briefly on a
        // full pipe meanwhile.
        if let outputPipe { collector.read(outputPipe.fileHandleForReading, into: .output) }
        if let errorPipe { collector.read(errorPipe.fileHandleForReading, into: .error) }
        let launched = LaunchedProcess(process: self)
        resolver.onCancel { collector.cancel(launched) }
        return promise
    }
}

/// Whether a standard stream of a process was left as a new `Process` has it: the parent's own
/// shared handle, swift-corelibs-foundation's default, or `nil`, which is how Apple's Foundation
/// may report a stream no one set. Neither was chosen to send the stream somewhere.
private func isLeftToParent(_ stream: Any?, _ parents: FileHandle) -> Bool {
    switch stream {
    case nil: true
    case let handle as FileHandle: handle === parents
    default: false
    }
}

/// Runs `body` with no signal blocked on this thread, then puts the thread's signal mask back.
///
/// A child starts with the signal mask of the thread that spawned it, and swift-corelibs-
/// foundation passes it on as it is (swift-corelibs-foundation#4772). Dispatch's worker threads,
/// which Swift concurrency's run on too, block nearly every signal, `SIGTERM` and `SIGINT`
/// among them: a child spawned there would ignore `terminate()`, and so a cancellation. With
/// an empty mask it starts as it would from a shell. For the moment `run()` takes, a signal
/// sent to the whole program may be handled on this thread, by the same handler as anywhere.
private func withNoSignalBlocked<R>(_ body: () throws -> R) rethrows -> R {
    #if !canImport(Darwin) && !os(Windows) && !os(WASI)
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    #endif
    return try body()
}

/// A launched process, for the cancellation hook to terminate from whichever thread cancels.
// @unchecked: `terminate()` is all that is ever called through it, after `run()` returned, and
// it only sends `SIGTERM` to the identifier `run()` set, which no one changes afterwards.
// (swift-corelibs-foundation declares Process `@unchecked Sendable` itself; Darwin may not.)
private struct LaunchedProcess: @unchecked Sendable {
    let process: Process
}

/// One of the two streams a launch collects.
private enum Stream: Hashable {
    case output
    case error
}

/// Collects what a launched process writes and how it ends, and settles its promise once it
/// has all of it: every collected stream read to its end, and the process's termination.
private final class Collector: Sendable {
    private struct State {
        var output = Data()
        var error = Data()
        /// Events still to come: the end of each collected stream, and the termination.
        var unfinished: Int
        var termination: (status: Int32, reason: ProcessError.Reason)?
        /// The first error a read ended with, or 0.
        var readFailure: Int32 = 0
        /// The channels still reading, for a cancellation to stop.
        var channels: [Stream: DispatchIO] = [:]
    }

    private let resolver: Resolver<ProcessOutput>
    private let executable: URL
    private let arguments: [String]
    /// Where both channels hand over what they read, one chunk at a time.
    private let queue = DispatchQueue(label: "Vow.Process.launch")
    private let lock = NSLock()
    // nonisolated(unsafe): only read or written while holding `lock`.
    nonisolated(unsafe) private var state: State

    init(resolver: Resolver<ProcessOutput>, executable: URL, arguments: [String], streams: Int) {
        self.resolver = resolver
        self.executable = executable
        self.arguments = arguments
        state = State(unfinished: streams + 1)
    }

    /// Reads `handle` to its end without blocking a thread, and closes it once done, so that
    /// its descriptor does not stay open for as long as the `Process` lives.
    func read(_ handle: FileHandle, into stream: Stream) {
        let channel = DispatchIO(type: .stream, fileDescriptor: handle.fileDescriptor, queue: queue) { _ in
            // The channel has let go of the descriptor: closing it through the handle keeps the
            // handle from closing it again, perhaps by then another file's, when it goes away.
            try? handle.close()
        }
        // Hand over whatever has arrived rather than waiting for some larger amount.
        channel.setLimit(lowWater: 1)
        lock.withLock { state.channels[stream] = channel }
        channel.read(offset: 0, length: Int.max, queue: queue) { done, data, failure in
            if let data, !data.isEmpty { self.append(data, to: stream) }
            if done { self.finish(stream, failure: failure) }
        }
    }

    /// Notes how the process ended; called once, from its termination handler.
    func terminated(status: Int32, reason: ProcessError.Reason) {
        let outcome = lock.withLock {
            state.termination = (status, reason)
            state.unfinished -= 1
            return outcomeIfComplete()
        }
        if let outcome { resolver.resolve(outcome) }
    }

    /// Terminates the process unless it ended already, and stops reading its streams: the
    /// promise has rejected already, and a child that keeps them open must not keep the
    /// descriptors open too.
    func cancel(_ launched: LaunchedProcess) {
        let (running, channels) = lock.withLock {
            defer { state.channels = [:] }
            return (state.termination == nil, Array(state.channels.values))
        }
        // Once the process has ended, its identifier may be another process's: only a process
        // not known to have ended is signalled. Foundation's own `terminate()` can race the
        // same way with an ending it has not reported yet, which this cannot close either.
        if running { launched.process.terminate() }
        for channel in channels { channel.close(flags: .stop) }
    }

    private func append(_ chunk: DispatchData, to stream: Stream) {
        lock.withLock {
            chunk.enumerateBytes { bytes, _, _ in
                switch stream {
                case .output: state.output.append(bytes)
                case .error: state.error.append(bytes)
                }
            }
        }
    }

    private func finish(_ stream: Stream, failure: Int32) {
        let (channel, outcome) = lock.withLock {
            if state.readFailure == 0 { state.readFailure = failure }
            state.unfinished -= 1
            return (state.channels.removeValue(forKey: stream), outcomeIfComplete())
        }
        channel?.close()
        if let outcome { resolver.resolve(outcome) }
    }

    /// The promise's result once nothing more is to come, else `nil`; the caller holds `lock`.
    /// Only the event that brings the count to 0 gets a result, so the promise settles once.
    private func outcomeIfComplete() -> Result<ProcessOutput, any Error>? {
        guard state.unfinished == 0, let termination = state.termination else { return nil }
        // After a cancellation stopped the reads, this is `ECANCELED`, and ignored: the promise
        // rejected already.
        if state.readFailure != 0 {
            return .failure(POSIXError(POSIXErrorCode(rawValue: state.readFailure) ?? .EIO))
        }
        if termination.reason == .exit && termination.status == 0 {
            return .success(
                ProcessOutput(status: 0, standardOutput: state.output, standardError: state.error))
        }
        return .failure(
            ProcessError(
                status: termination.status, reason: termination.reason, standardOutput: state.output,
                standardError: state.error, executable: executable, arguments: arguments))
    }
}
