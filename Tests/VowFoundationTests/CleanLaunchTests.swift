// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where. The
// cases are Linux's: its loader's variables, file capabilities, and /proc.
#if !VOW_NO_PROCESS && os(Linux)
import Dispatch
import Foundation
import Testing
import Vow
@testable import VowFoundation

/// A launch starts exactly the program it names, and nothing else: no second copy of this
/// program, whatever this program's environment, privileges or file system, and the child's
/// environment reaches the child alone. Before, a launch whose child would have inherited
/// signal state started this program's own executable again as a trampoline, and each case
/// here went wrong (issue 50).
struct CleanLaunchTests {
    /// The variable that once asked a Vow program to run its first argument instead of itself.
    @Test(arguments: ["1", ""])
    func aPlantedTrampolineVariableRunsTheProgramItself(_ value: String) async throws {
        let process = Process()
        process.executableURL = signalChecks
        process.arguments = ["/bin/echo", "hijacked"]
        process.environment = ProcessInfo.processInfo.environment.merging(["VOW_EXEC_TRAMPOLINE": value]) {
            $1
        }
        let error = try await failure(of: process)
        let failure = try #require(error as? ProcessError, "\(String(describing: error))")
        #expect(failure.status == 1 && failure.standardErrorText.contains("say which check"), "\(failure)")
        #expect(!failure.standardOutputText.contains("hijacked"))
    }

    /// The loader reports a preload it cannot find once for each program it loads: once, for
    /// the child alone, even from a Dispatch worker, whose child would inherit nearly every
    /// signal blocked.
    @Test func anLDPreloadForTheChildIsLoadedInTheChildAlone() async throws {
        let probe = "/nonexistent/vow-probe-\(UUID().uuidString).so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        process.environment = ["LD_PRELOAD": probe]
        let output = try await onADispatchWorker { process.launch(.promise) }.async()
        let reports = output.standardErrorText.split(separator: "\n").filter { $0.contains(probe) }
        #expect(reports.count == 1, "\(output.standardErrorText)")
    }

    /// A library path for the child, holding libraries named as this program's but broken, which
    /// would stop a second copy of this program from loading.
    @Test func anLDLibraryPathForTheChildReachesTheChildAlone() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for library in ["libswiftCore.so", "libswiftGlibc.so", "libFoundation.so", "libdispatch.so"] {
            try Data().write(to: folder.appendingPathComponent(library))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/echo")
        process.arguments = ["loaded"]
        process.environment = ["LD_LIBRARY_PATH": folder.path]
        let output = try await onADispatchWorker { process.launch(.promise) }.async()
        #expect(output.standardOutputText == "loaded\n")
    }

    /// A copy of `SignalChecks` with a file capability, run by another user, so that the loader
    /// treats it as privileged (`AT_SECURE`): it launches the child it names, from a Dispatch
    /// worker. The child shows that its parent held the capability.
    @Test(.enabled(if: canUse(["/usr/sbin/setcap", "/usr/bin/setpriv"]), "needs root, setcap and setpriv"))
    func aProgramWithACapabilityRunByAnotherUserLaunchesTheChildItNames() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("SignalChecks")
        try FileManager.default.copyItem(at: signalChecks, to: copy)
        try await succeed("/usr/sbin/setcap", ["cap_net_bind_service+ep", copy.path])
        // Bit 10 of the effective set: CAP_NET_BIND_SERVICE.
        let output = try await succeed(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", copy.path, "launch", "/bin/sh", "-c",
                "grep CapEff /proc/$PPID/status; id -u; echo named",
            ])
        #expect(output == "CapEff:\t0000000000000400\n65534\nnamed\n")
    }

    /// /proc gone from under a running program: nothing in a launch needs it.
    @Test(.enabled(if: canUse(["/usr/bin/unshare"]), "needs root and unshare"))
    func aLaunchNeedsNoProcFileSystem() async throws {
        let script = """
            set -e
            cd "$1"
            mkfifo told
            "$2" launch-when-told /bin/echo launched < told > out 2>&1 &
            exec 3> told
            until grep -q ready out; do sleep 0.01; done
            mount -t tmpfs none /proc
            test ! -e /proc/self
            echo go >&3
            wait $!
            cat out
            """
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await succeed(
            "/usr/bin/unshare",
            [
                "--mount", "--propagation", "private", "--fork", "/bin/sh", "-c", script, "sh", folder.path,
                signalChecks.path,
            ])
        #expect(output == "ready\nlaunched\n")
    }

    /// A child that blocks `SIGTERM` is stopped by the `SIGKILL` after the grace period, and
    /// reaped before the promise rejects.
    @Test func aChildThatBlocksSIGTERMIsKilledAfterTheGracePeriod() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("identifier")
        let process = Process()
        process.executableURL = signalChecks
        process.arguments = ["hold", marker.path]
        let promise = process.launch(.promise, gracePeriod: 1)
        let identifier = try await identifier(in: marker)
        let start = DispatchTime.now()
        promise.cancel()
        let error = await promise.asResultForTests()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect((error as? PromiseError)?.isCancelled == true, "\(String(describing: error))")
        #expect(seconds >= 1 && seconds < 20, "stopped after \(seconds) s")
        #expect(kill(identifier, 0) == -1 && errno == ESRCH, "\(identifier) is still there")
    }

    /// Where the system gives no pidfd, a thread waits for the child: the same outcomes.
    @Test func aThreadWatchingForTheEndGivesTheSameOutcomes() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "echo watched; exit 3"]
        let failed = await process.launch(gracePeriod: 5, watch: .thread).asResultForTests()
        let failure = try #require(failed as? ProcessError, "\(String(describing: failed))")
        #expect(failure.status == 3 && failure.reason == .exit && failure.standardOutputText == "watched\n")
        process.arguments = ["-c", "exec sleep 30"]
        let cancelled = process.launch(gracePeriod: 5, watch: .thread)
        cancelled.cancel()
        let error = await cancelled.asResultForTests()
        #expect((error as? PromiseError)?.isCancelled == true, "\(String(describing: error))")
    }
}

/// What `body` returns, called on one of Dispatch's worker threads, which block nearly every
/// signal. (`sync` would call it on the calling thread.)
private func onADispatchWorker<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: body()) }
    }
}

/// `SignalChecks`, which lies beside this test program, which SwiftPM builds with it.
private let signalChecks = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("SignalChecks")

/// Whether this program runs as root and each of `tools` is there, which a test that changes
/// privileges or mounts needs.
private func canUse(_ tools: [String]) -> Bool {
    getuid() == 0 && tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A new folder that every user may enter and read.
private func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
    return folder
}

/// The standard output of `program` run with `arguments`, which must exit with status 0.
///
/// A program that executes a file just copied, as `setpriv` does, may find it still held open
/// for writing, for a moment, by a child that another test is spawning and that inherited the
/// descriptor before its `execve`: it then fails with "Text file busy", and is run again.
@discardableResult
private func succeed(_ program: String, _ arguments: [String]) async throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    for _ in 0..<100 {
        do {
            return try await process.launch(.promise).async().standardOutputText
        } catch let failure as ProcessError where failure.standardErrorText.contains("Text file busy") {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
    return try await process.launch(.promise).async().standardOutputText
}

/// The error launching `process` rejects with, or `nil` if it fulfils.
private func failure(of process: Process) async throws -> (any Error)? {
    await process.launch(.promise).asResultForTests()
}

/// The identifier a child wrote to `marker`, once it has, within a minute.
private func identifier(in marker: URL) async throws -> pid_t {
    for _ in 0..<6000 {
        if let text = try? String(contentsOf: marker, encoding: .utf8),
            let identifier = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return identifier
        }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
    throw CancellationError()
}

extension Promise {
    /// The error the promise rejects with, or `nil` once it fulfils.
    fileprivate func asResultForTests() async -> (any Error)? {
        do {
            _ = try await async()
            return nil
        } catch {
            return error
        }
    }
}
#endif
