// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
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
    /// - Cancelling the promise stops the process: it sends `SIGTERM`, and `SIGKILL` if the
    ///   process is still running `gracePeriod` seconds later, to the process and to the
    ///   processes it started in its process group. It reads the output until the process has
    ///   ended, so that one that writes as it shuts down is not killed by `SIGPIPE`, and rejects
    ///   with `PromiseError.cancelled` once the process has ended, never before, so a handler
    ///   that sees the cancellation knows the process is gone. A process that ignores
    ///   `SIGTERM` itself is the one `SIGKILL` is for.
    /// - The child starts as it would from a shell, with no signal blocked and with `SIGTERM`,
    ///   `SIGINT`, `SIGHUP`, `SIGQUIT` and `SIGPIPE` at their defaults, even where this
    ///   program blocks or ignores them, and nothing of this program's signal state changes
    ///   for it. On Linux that takes a trampoline, this program's own executable started once
    ///   more, where the child would otherwise inherit something; `Documentation/Foundation.md`
    ///   says what that costs and where it cannot serve.
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
    ///
    /// `gracePeriod` is how long, in seconds, a cancelled process has to end after `SIGTERM`
    /// before it is sent `SIGKILL`; 0 sends `SIGKILL` at once. A negative or infinite time, or
    /// not a number, rejects with `PromiseError.badInput(_:)`.
    public func launch(
        _: Namespacer, gracePeriod: TimeInterval = 5, file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<ProcessOutput> {
        guard gracePeriod >= 0, gracePeriod.isFinite else {
            return Promise(
                error: PromiseError.badInput(
                    "a process cannot have a grace period of \(gracePeriod) seconds; give 0 or more"))
        }
        guard let executable = executableURL else {
            return Promise(error: PromiseError.badInput("the process has no executableURL to launch"))
        }
        // Only a launched process has an identifier; `run()` throws on Linux for a second
        // launch, but raises an Objective-C exception on Darwin, which would end the program.
        guard processIdentifier == 0 else {
            return Promise(
                error: PromiseError.badInput("the process was launched already; a Process runs once"))
        }
        let reader: PipeReader
        do {
            reader = try PipeReader()
        } catch {
            return Promise(error: error)
        }

        let outputPipe = isLeftToParent(standardOutput, FileHandle.standardOutput) ? Pipe() : nil
        let errorPipe = isLeftToParent(standardError, FileHandle.standardError) ? Pipe() : nil
        if let outputPipe { standardOutput = outputPipe }
        if let errorPipe { standardError = errorPipe }
        if isLeftToParent(standardInput, FileHandle.standardInput) { standardInput = FileHandle.nullDevice }

        let (promise, resolver) = Promise<ProcessOutput>.pending(file: file, line: line)
        let launched = LaunchedProcess(
            resolver: resolver, reader: reader, executable: executable, arguments: arguments ?? [],
            gracePeriod: gracePeriod)
        let theirs = terminationHandler
        let handover = Handover(launched)
        terminationHandler = { process in
            // The status and reason are final by the time the handler runs.
            let reason: ProcessError.Reason =
                process.terminationReason == .uncaughtSignal ? .uncaughtSignal : .exit
            handover.take()?.ended(status: process.terminationStatus, reason: reason)
            theirs?(process)
        }
        do {
            try runWithDefaultSignals()
        } catch {
            terminationHandler = theirs
            resolver.reject(error)
            return promise
        }
        launched.started(
            as: processIdentifier, output: outputPipe?.fileHandleForReading,
            error: errorPipe?.fileHandleForReading)
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

/// Hands a launched process to its termination handler once, and keeps it no longer.
///
/// Foundation on Linux does not always free a `Process` that ran, nor so its termination
/// handler (swift-corelibs-foundation#3260, seen under LeakSanitizer): a handler that kept the
/// launched process would keep the promise's box, and the output read, alive with it.
private final class Handover: Sendable {
    private let lock = NSLock()
    // nonisolated(unsafe): only read or written while holding `lock`.
    nonisolated(unsafe) private var launched: LaunchedProcess?

    init(_ launched: LaunchedProcess) {
        self.launched = launched
    }

    /// The launched process, the first time; `nil` after.
    func take() -> LaunchedProcess? {
        lock.withLock {
            defer { launched = nil }
            return launched
        }
    }
}
#endif
