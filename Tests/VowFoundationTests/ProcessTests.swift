// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
import Dispatch
import Foundation
import Testing
import Vow
import VowFoundation

/// How long a test waits for a process that should finish promptly. Generous on purpose: the
/// machine is shared and Thread Sanitizer slows the reading down, and a test must fail because
/// it hung, never because it was slow.
private let patience = 60.0

/// Thrown when a promise has not settled within the time a test gives it.
private struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "the promise did not settle within \(seconds) seconds" }
}

/// A process that runs `script` with `/bin/sh -c`.
private func shell(_ script: String) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    return process
}

/// Blocks until `promise` settles and returns its result, or throws ``TimedOut``, after
/// cancelling it, which stops a process it launched, so that a hang does not outlive the test.
private func outcome<T>(of promise: Promise<T>, within seconds: Double = patience) throws -> Result<
    T, any Error
> {
    let semaphore = DispatchSemaphore(value: 0)
    promise.pipe { _ in semaphore.signal() }
    guard semaphore.wait(timeout: .now() + seconds) == .success, let result = promise.result else {
        promise.cancel()
        throw TimedOut(seconds: seconds)
    }
    return result
}

/// The output of `script`, which must exit with status 0 within `seconds`.
private func output(of script: String, within seconds: Double = patience) throws -> ProcessOutput {
    try outcome(of: shell(script).launch(.promise), within: seconds).get()
}

/// The error `promise` rejects with within `seconds`, or `nil` if it fulfils.
private func failure<T>(of promise: Promise<T>, within seconds: Double = patience) throws -> (any Error)? {
    guard case .failure(let error) = try outcome(of: promise, within: seconds) else { return nil }
    return error
}

/// Whether `condition` holds within `seconds`, checking it every 10 ms.
private func eventually(within seconds: Double = patience, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + seconds
    while !condition() {
        guard DispatchTime.now() < deadline else { return false }
        usleep(10_000)
    }
    return true
}

/// `count` copies of `byte`, written by `head` and `tr` so that the shell's own speed does not
/// matter.
private func repeated(_ byte: Character, count: Int) -> String {
    "head -c \(count) /dev/zero | tr '\\0' '\(byte)'"
}

/// A shell command that writes the shell's identifier to `marker` at once, whole: the sign,
/// for ``stopTime(cancelling:gracePeriod:survivesSIGTERM:)``, that the script is ready.
private func noteReady(_ marker: TemporaryFile) -> String {
    "echo $$ > '\(marker.path).new'; mv '\(marker.path).new' '\(marker.path)'"
}

/// Launches `script`, which runs ``noteReady(_:)`` with the marker given it once it is ready,
/// cancels it then, and returns how many seconds it took for the promise to reject with the
/// cancellation. Checks that the process was gone, reaped, by the time the promise rejected,
/// and, for a process that survives `SIGTERM`, that the promise was still pending after the
/// cancellation.
private func stopTime(
    cancelling script: (TemporaryFile) -> String, gracePeriod: TimeInterval, survivesSIGTERM: Bool = false
) throws -> Double {
    let marker = TemporaryFile()
    let promise = shell(script(marker)).launch(.promise, gracePeriod: gracePeriod)
    let isReady = eventually(marker.exists)
    try #require(isReady, "the process never got ready")
    let identifier = try #require(
        pid_t(
            try String(contentsOfFile: marker.path, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)))
    let (goneAtRejection, noteGone) = Guarantee<Bool>.pending()
    promise.pipe { _ in
        // Neither running nor a zombie: reaped.
        noteGone(kill(identifier, 0) == -1 && errno == ESRCH)
    }
    let start = DispatchTime.now()
    promise.cancel()
    if survivesSIGTERM {
        #expect(promise.isPending, "rejected before the process ended")
    }
    let error = try failure(of: promise)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    #expect((error as? PromiseError)?.isCancelled == true, "rejected with \(String(describing: error))")
    // The handler may still be running on the thread that rejected, when the wait above ends.
    #expect(eventually { goneAtRejection.value != nil })
    #expect(goneAtRejection.value == true, "process \(identifier) was still there when the promise rejected")
    return seconds
}

/// A file name in the temporary folder, for a process to create, removed when this goes away.
private final class TemporaryFile {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("vow-\(UUID().uuidString)").path

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func exists() -> Bool { FileManager.default.fileExists(atPath: path) }
}

/// The reason of a `PromiseError.badInput`, or `nil` for any other error.
private func badInputReason(_ error: (any Error)?) -> String? {
    if case .badInput(let reason) = error as? PromiseError { reason } else { nil }
}

/// Serialized: a test here makes this program ignore `SIGTERM` for a while, which a launch in
/// another test at that moment would pass on to its child.
@Suite(.serialized) struct ProcessTests {
    @Test func bothStreamsAndTheStatusOfASuccessfulProcess() async throws {
        try await offThePool {
            let output = try output(of: "echo hello; echo oops >&2")
            #expect(output.status == 0)
            #expect(output.standardOutputText == "hello\n")
            #expect(output.standardErrorText == "oops\n")
            #expect(output.standardOutput == Data("hello\n".utf8))
        }
    }

    /// Far past a pipe's buffer: an implementation that waited for the exit before reading
    /// would wait forever, with the child blocked writing to a full pipe.
    @Test func tenMegabytesOnStandardOutputDoNotDeadlock() async throws {
        try await offThePool {
            let size = 10 * 1024 * 1024
            let output = try output(of: "\(repeated("a", count: size)); echo done >&2")
            #expect(output.standardOutput.count == size)
            #expect(output.standardOutput.allSatisfy { $0 == UInt8(ascii: "a") })
            #expect(output.standardErrorText == "done\n")
        }
    }

    /// A megabyte on standard error, then several on standard output, then another megabyte on
    /// standard error: reading either stream to its end before the other would leave the child
    /// blocked on the other's full pipe, whichever stream came first.
    @Test func bothStreamsAreDrainedAtOnce() async throws {
        try await offThePool {
            let (small, large) = (1024 * 1024, 4 * 1024 * 1024)
            let output = try output(
                of: "\(repeated("e", count: small)) >&2; \(repeated("o", count: large)); "
                    + "\(repeated("f", count: small)) >&2")
            #expect(output.standardOutput.count == large)
            #expect(output.standardOutput.allSatisfy { $0 == UInt8(ascii: "o") })
            #expect(output.standardError.count == 2 * small)
            #expect(output.standardError.prefix(small).allSatisfy { $0 == UInt8(ascii: "e") })
            #expect(output.standardError.suffix(small).allSatisfy { $0 == UInt8(ascii: "f") })
        }
    }

    @Test func aNonZeroExitRejectsWithTheStatusAndBothStreams() async throws {
        try await offThePool {
            let script = "echo partial; echo bad >&2; exit 3"
            let process = shell(script)
            let error = try failure(of: process.launch(.promise))
            let failure = try #require(error as? ProcessError, "rejected with \(String(describing: error))")
            #expect(failure.status == 3)
            #expect(failure.reason == .exit)
            #expect(failure.standardOutputText == "partial\n")
            #expect(failure.standardErrorText == "bad\n")
            #expect(failure.executable.path == "/bin/sh")
            #expect(failure.arguments == ["-c", script])
            #expect(failure.description == "/bin/sh -c '\(script)' exited with status 3; standard error: bad")
            #expect(failure.localizedDescription == failure.description)
        }
    }

    @Test func aProcessKilledByASignalRejectsWithTheSignal() async throws {
        try await offThePool {
            let process = shell("echo before; kill -9 $$; echo after")
            let error = try failure(of: process.launch(.promise))
            let failure = try #require(error as? ProcessError, "rejected with \(String(describing: error))")
            #expect(failure.reason == .uncaughtSignal)
            #expect(failure.status == SIGKILL)
            #expect(failure.standardOutputText == "before\n")
            #expect(failure.description.hasSuffix("was killed by signal \(SIGKILL)"))
        }
    }

    @Test func cancellingTerminatesTheProcess() async throws {
        try await offThePool {
            // `exec`, so that the process signalled is `sleep` itself rather than a shell.
            let stopped = try stopTime(cancelling: { "\(noteReady($0)); exec sleep 30" }, gracePeriod: 30)
            #expect(stopped < 20, "took \(stopped) s: the process outlived its SIGTERM")
        }
    }

    /// A process that ignores `SIGTERM` gets `SIGKILL` once the grace period is over, and the
    /// promise stays pending until then.
    @Test func aProcessThatIgnoresSIGTERMIsKilledAfterTheGracePeriod() async throws {
        try await offThePool {
            // `trap '' TERM` ignores the signal, and `exec` passes the ignore on to `sleep`.
            let stopped = try stopTime(
                cancelling: { "trap '' TERM; \(noteReady($0)); exec sleep 30" }, gracePeriod: 2,
                survivesSIGTERM: true)
            #expect(stopped >= 2, "killed after \(stopped) s, before the grace period was over")
            #expect(stopped < 20, "took \(stopped) s")
        }
    }

    /// A process's output is read until it has ended: one that writes as it shuts down, after
    /// the cancellation's `SIGTERM`, is not killed by `SIGPIPE` for it.
    @Test func aProcessThatWritesAsItShutsDownEndsAsItChooses() async throws {
        try await offThePool {
            let finished = TemporaryFile()
            // `echo` is the shell's own: a write to a pipe nobody reads would kill the shell. The
            // marker comes after the `sleep` starts, which the cancellation then stops with the
            // shell: a `SIGTERM` that came before would leave the shell waiting out the whole
            // `sleep` before its trap ran, as it did in two runs of seven.
            let stopped = try stopTime(
                cancelling: {
                    "trap 'sleep 0.2; echo bye; touch \(finished.path); exit 3' TERM; sleep 30 & \(noteReady($0)); wait"
                }, gracePeriod: 30)
            #expect(stopped < 20, "took \(stopped) s: the trap ran only once the sleep ended")
            #expect(finished.exists(), "the shutdown did not finish")
        }
    }

    @Test func noGracePeriodKillsAtOnce() async throws {
        try await offThePool {
            // Ignoring SIGTERM, so that only a SIGKILL stops it in time.
            let stopped = try stopTime(
                cancelling: { "trap '' TERM; \(noteReady($0)); exec sleep 30" }, gracePeriod: 0)
            #expect(stopped < 20, "took \(stopped) s")
        }
    }

    /// A server that handles `SIGTERM` itself ignores it first; its children must not inherit
    /// the ignore, or a cancellation's `SIGTERM` would not stop them.
    @Test func aChildOfAProgramThatIgnoresSIGTERMStopsOnSIGTERM() async throws {
        try await offThePool {
            let previous = signal(SIGTERM, SIG_IGN)
            defer { signal(SIGTERM, previous) }
            let stopped = try stopTime(cancelling: { "\(noteReady($0)); exec sleep 30" }, gracePeriod: 30)
            #expect(stopped < 20, "took \(stopped) s: the child inherited the ignore")
            // This program still ignores it.
            let now = signal(SIGTERM, SIG_IGN)
            #expect(unsafeBitCast(now, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self))
        }
    }

    /// A shell's children are in its process group, which the cancellation signals whole: they
    /// would otherwise run on, and keep the promise pending, long after the shell.
    @Test func cancellingStopsTheProcessesItStarted() async throws {
        try await offThePool {
            let stopped = try stopTime(cancelling: { "sleep 30 & \(noteReady($0)); wait" }, gracePeriod: 30)
            #expect(stopped < 20, "took \(stopped) s: the shell's child outlived the cancellation")
        }
    }

    /// Many launches at once, from several threads, a third of them cancelled at once: each
    /// reads its own output, or stops. (Reading this many pipes through `DispatchIO` crashed
    /// libdispatch under Thread Sanitizer in most runs.)
    @Test func manyLaunchesAtOnceEachReadTheirOwnOutputOrStop() async throws {
        try await offThePool {
            let count = 150
            let slots = (0..<count).map { _ in Promise<ProcessOutput>.pending() }
            DispatchQueue.concurrentPerform(iterations: count) { index in
                let promise = shell("echo \(index); exec sleep \(index % 3 == 0 ? 30 : 0)").launch(.promise)
                if index % 3 == 0 { promise.cancel() }
                promise.pipe { slots[index].resolver.resolve($0) }
            }
            for (index, promise) in slots.map(\.promise).enumerated() {
                let result = try outcome(of: promise)
                if index % 3 == 0 {
                    guard case .failure(let error) = result else {
                        Issue.record("launch \(index) fulfilled after its cancellation")
                        continue
                    }
                    #expect((error as? PromiseError)?.isCancelled == true, "launch \(index): \(error)")
                } else {
                    #expect(try result.get().standardOutputText == "\(index)\n", "launch \(index)")
                }
            }
        }
    }

    @Test(arguments: [-1, Double.infinity, Double.nan])
    func aGracePeriodThatIsNotATimeIsBadInput(_ gracePeriod: Double) async throws {
        try await offThePool {
            let process = shell("true")
            let error = try failure(of: process.launch(.promise, gracePeriod: gracePeriod))
            #expect(
                badInputReason(error)?.contains("grace period") == true,
                "rejected with \(String(describing: error))")
        }
    }

    @Test func cancellingAfterTheProcessEndedChangesNothing() async throws {
        try await offThePool {
            let process = shell("echo hello")
            let promise = process.launch(.promise)
            let result = try outcome(of: promise)
            promise.cancel()
            #expect(try result.get().standardOutputText == "hello\n")
            #expect(promise.value?.standardOutputText == "hello\n")
        }
    }

    @Test func aProcessWithoutAnExecutableIsBadInput() async throws {
        try await offThePool {
            let error = try failure(of: Process().launch(.promise))
            guard case .badInput? = error as? PromiseError else {
                Issue.record("rejected with \(String(describing: error))")
                return
            }
        }
    }

    /// The process is a description: each launch starts a child of its own from it, and the
    /// process itself is never run, nor changed.
    @Test func eachLaunchStartsANewChildAndLeavesTheProcessAsItWas() async throws {
        try await offThePool {
            let process = shell("echo $$")
            let first = try outcome(of: process.launch(.promise)).get().standardOutputText
            let second = try outcome(of: process.launch(.promise)).get().standardOutputText
            #expect(!first.isEmpty && first != second, "\(first) and \(second)")
            #expect(process.processIdentifier == 0 && !process.isRunning)
            #expect(process.standardOutput as? FileHandle === FileHandle.standardOutput)
            #expect(process.standardInput as? FileHandle === FileHandle.standardInput)
        }
    }

    /// The parent's standard input is not the child's: `cat` sees its end at once instead of
    /// waiting for input that the test runner never sends.
    @Test func standardInputIsEmptyUnlessGiven() async throws {
        try await offThePool {
            let output = try output(of: "cat; echo end")
            #expect(output.standardOutputText == "end\n")
        }
    }

    @Test func aStandardInputSetBeforeTheLaunchIsRead() async throws {
        try await offThePool {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "vow-\(UUID().uuidString)")
            try Data("fed\n".utf8).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let process = shell("cat")
            let input = try FileHandle(forReadingFrom: url)
            defer { try? input.close() }
            process.standardInput = input
            let output = try outcome(of: process.launch(.promise)).get()
            #expect(output.standardOutputText == "fed\n")
        }
    }

    /// A stream directed elsewhere before the launch is left there, and is empty in the result.
    @Test func aStreamDirectedElsewhereIsLeftAlone() async throws {
        try await offThePool {
            let process = shell("echo discarded; echo kept >&2")
            process.standardOutput = FileHandle.nullDevice
            let output = try outcome(of: process.launch(.promise)).get()
            #expect(output.standardOutput.isEmpty)
            #expect(output.standardErrorText == "kept\n")
        }
    }

    /// Once its promise has settled, a launch keeps nothing alive: neither the promise, which
    /// the launch's reader, watcher and cancel hook reach, nor the process it read.
    @Test(arguments: [false, true])
    func aSettledLaunchKeepsNothingAlive(cancelled: Bool) async throws {
        try await offThePool {
            weak var launched: Promise<ProcessOutput>?
            weak var described: Process?
            try {
                let process = shell(cancelled ? "exec sleep 30" : "echo done")
                let promise = process.launch(.promise)
                (launched, described) = (promise, process)
                if cancelled { promise.cancel() }
                _ = try outcome(of: promise)
            }()
            #expect(eventually { launched == nil && described == nil }, "still alive")
        }
    }

    /// Foundation would never call it, since Foundation never runs the process.
    @Test func aTerminationHandlerIsBadInput() async throws {
        try await offThePool {
            let marker = TemporaryFile()
            let process = shell("touch '\(marker.path)'")
            process.terminationHandler = { _ in }
            let error = try failure(of: process.launch(.promise))
            #expect(
                badInputReason(error)?.contains("terminationHandler") == true, "\(String(describing: error))")
            #expect(!marker.exists(), "the process ran")
        }
    }

    /// A pipe of the user's gets what the child writes, and its end in this program is closed
    /// as `run()` closes it, so reading it ends; the pipe serves one launch.
    @Test func aPipeGivenForTheOutputIsReadToItsEndAndServesOneLaunch() async throws {
        try await offThePool {
            let process = shell("echo piped")
            let pipe = Pipe()
            process.standardOutput = pipe
            let promise = process.launch(.promise)
            // This would never return, were this program's writing end still open.
            let read = pipe.fileHandleForReading.readDataToEndOfFile()
            let output = try outcome(of: promise).get()
            #expect(String(decoding: read, as: UTF8.self) == "piped\n")
            #expect(output.standardOutput.isEmpty)
            let again = try failure(of: process.launch(.promise))
            #expect(
                badInputReason(again)?.contains("standard output is closed") == true,
                "\(String(describing: again))")
        }
    }

    @Test func theChildRunsInTheProcesssDirectoryWithItsEnvironment() async throws {
        try await offThePool {
            let process = shell("pwd -P; echo \"$VOW_PROBE\"")
            process.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
            process.environment = ["VOW_PROBE": "given", "PATH": "/usr/bin:/bin"]
            let output = try outcome(of: process.launch(.promise)).get()
            let directory = URL(fileURLWithPath: "/tmp").resolvingSymlinksInPath().path
            #expect(output.standardOutputText == "\(directory)\ngiven\n")
        }
    }

    /// With no environment given, the child has this program's.
    @Test func theChildInheritsThisProgramsEnvironmentUnlessGivenOne() async throws {
        try await offThePool {
            let output = try output(of: "echo \"$HOME\"")
            #expect(output.standardOutputText == (ProcessInfo.processInfo.environment["HOME"] ?? "") + "\n")
        }
    }

    #if os(Linux)
    /// Only the three standard streams reach the child, whatever this program has open.
    @Test func theChildHasNoOtherDescriptorOfThisProgram() async throws {
        try await offThePool {
            let open = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/zero"))
            defer { try? open.close() }
            #expect(fcntl(open.fileDescriptor, F_SETFD, 0) == 0)  // inheritable, were it not closed
            let output = try output(of: "ls /proc/self/fd")
            // 3 is `ls`'s own, reading the folder.
            #expect(output.standardOutputText.split(separator: "\n").sorted() == ["0", "1", "2", "3"])
        }
    }
    #endif

    @Test func theDescriptionQuotesWordsAShellWouldSplitAndShowsTheEndOfALongStandardError() async throws {
        try await offThePool {
            let failure = ProcessError(
                status: 2, reason: .exit,
                standardError: Data((String(repeating: "x", count: 600) + "fatal\n").utf8),
                executable: URL(fileURLWithPath: "/usr/bin/tool"), arguments: ["--name", "it's here", ""])
            let prefix = #"/usr/bin/tool --name 'it'\''s here' '' exited with status 2; standard error: …"#
            #expect(failure.description.hasPrefix(prefix))
            #expect(failure.description.hasSuffix("xfatal"))
            #expect(failure.description.count == prefix.count + 500)
        }
    }
}
#endif
