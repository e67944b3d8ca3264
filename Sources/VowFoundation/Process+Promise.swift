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
    ///   executable, or a script without `#!`, rejects with the error `run()` throws on Linux
    ///   for the same process. One without an `executableURL`, or with a `terminationHandler`,
    ///   rejects with `PromiseError.badInput(_:)`.
    /// - Cancelling the promise stops the process: it sends `SIGTERM`, and `SIGKILL` if the
    ///   process is still running `gracePeriod` seconds later, to the process and to the
    ///   processes it started in its process group. It reads the output until the process has
    ///   ended, so that one that writes as it shuts down is not killed by `SIGPIPE`, and rejects
    ///   with `PromiseError.cancelled` once the process has ended, never before, so a handler
    ///   that sees the cancellation knows the process is gone. A process that ignores
    ///   `SIGTERM` itself is the one `SIGKILL` is for.
    /// - The child starts as it would from a shell, with no signal blocked and with `SIGTERM`,
    ///   `SIGINT`, `SIGHUP`, `SIGQUIT` and `SIGPIPE` at their defaults, even where this
    ///   program blocks or ignores them, as on Dispatch's threads and in most servers; nothing
    ///   of this program's signal state changes for it.
    ///
    /// The process is a description of what to run: Vow reads it and starts the child itself,
    /// since Foundation's `run()` cannot give a child that signal state, and never runs the
    /// process. So the process is left exactly as you configured it, and launching it again
    /// starts another child; its `processIdentifier` stays 0 and `isRunning` false, and its
    /// `terminationStatus`, `terminationReason`, `terminate()` and `interrupt()` stop the
    /// program, as for any process never run. Everything they would tell you is in the
    /// promise, and cancelling it is how to stop the child. A process with a
    /// `terminationHandler` rejects with `PromiseError.badInput(_:)`, since Foundation would
    /// never call it; `Documentation/Foundation.md` says more.
    ///
    /// The child's standard output and standard error are collected through pipes of Vow's
    /// own unless you directed them elsewhere, to a file, to `FileHandle.nullDevice` or to a
    /// pipe you read yourself: such a stream is left as it is and is empty in the result. (Left
    /// as `nil` or as `FileHandle.standardOutput` or `FileHandle.standardError`, it is
    /// collected.) A pipe you give is closed at this program's end that the child uses, as
    /// `run()` closes it, so that your reading ends when the child's writing does. A standard
    /// input left as the parent's, or `nil`, is `/dev/null` for the child, so a child that
    /// reads it sees its end at once rather than waiting for the parent's input; give a pipe
    /// or a file to give it input.
    ///
    /// `gracePeriod` is how long, in seconds, a cancelled process has to end after `SIGTERM`
    /// before it is sent `SIGKILL`; 0 sends `SIGKILL` at once. A negative or infinite time, or
    /// not a number, rejects with `PromiseError.badInput(_:)`.
    public func launch(
        _: Namespacer, gracePeriod: TimeInterval = 5, file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<ProcessOutput> {
        launch(gracePeriod: gracePeriod, watch: .descriptor, file: file, line: line)
    }

    /// `launch(.promise, gracePeriod:)`, noticing the child's end by `watch`, which tests choose.
    func launch(
        gracePeriod: TimeInterval, watch: ChildExit.Watch, file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<ProcessOutput> {
        guard gracePeriod >= 0, gracePeriod.isFinite else {
            return Promise(
                error: PromiseError.badInput(
                    "a process cannot have a grace period of \(gracePeriod) seconds; give 0 or more"))
        }
        guard let executable = executableURL else {
            return Promise(error: PromiseError.badInput("the process has no executableURL to launch"))
        }
        guard terminationHandler == nil else {
            return Promise(
                error: PromiseError.badInput(
                    "launch(.promise) starts the child itself, so Foundation would never call the process's "
                        + "terminationHandler; remove it, and chain done, catch or ensure on the promise instead"
                ))
        }
        let reader: PipeReader
        let streams: ChildStreams
        let identifier: pid_t
        do {
            reader = try PipeReader()
            streams = try ChildStreams(input: standardInput, output: standardOutput, error: standardError)
            identifier = try spawnChild(streams: streams.descriptors)
        } catch {
            return Promise(error: error)
        }
        let collected = streams.spawned()
        let (promise, resolver) = Promise<ProcessOutput>.pending(file: file, line: line)
        let launched = LaunchedProcess(
            resolver: resolver, reader: reader, identifier: identifier, executable: executable,
            arguments: arguments ?? [], gracePeriod: gracePeriod)
        launched.start(output: collected.output, error: collected.error, watch: watch)
        return promise
    }
}
#endif
