// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CVowFoundation
import Foundation

extension Process {
    /// Runs the process so that the child starts as it would from a shell: with no signal
    /// blocked, and with `SIGTERM`, `SIGINT`, `SIGHUP`, `SIGQUIT` and `SIGPIPE` at their
    /// default dispositions, even where this program blocks or ignores them. Nothing of this
    /// program's signal state changes, on any thread, at any moment.
    ///
    /// Foundation's `run()` hands the child the launching thread's mask and every ignored
    /// signal, and has no way to set the child's own: Dispatch's worker threads, which Swift
    /// concurrency's run on too, block nearly every signal (swift-corelibs-foundation#4772),
    /// and a server that handles `SIGTERM` or ignores `SIGPIPE` would pass that on. Where the
    /// child would inherit something, on Linux with glibc, this launches the program's own
    /// executable as a trampoline instead: before any of the program's code runs, it resets the
    /// signals and executes the real program in place (see `CVowFoundation.c`). The process
    /// keeps its identifier, so everything the `Process` reports afterwards is the real
    /// program's. The executable, arguments and environment are the trampoline's only while
    /// `run()` runs, and are the caller's again when this returns.
    ///
    /// The trampoline is launched from ``Launcher``'s thread, which blocks every signal, so
    /// that it starts with every signal blocked: one sent to it before it has reset the
    /// dispositions waits, where an ignored one would be dropped, and arrives once it has. A
    /// cancellation's `SIGTERM` sent at once is not lost.
    ///
    /// Elsewhere, and where the trampoline cannot serve (Vow in a shared library, or an
    /// executable the trampoline could not run, whose error `run()` then throws as usual), the
    /// child inherits what Foundation gives it.
    func runWithDefaultSignals() throws {
        #if canImport(Glibc)
        guard vow_child_would_inherit_signal_state(), vow_exec_trampoline_is_available(),
            let executable = executableURL, isStartable(executable.path)
        else {
            return try run()
        }
        let (theirArguments, theirEnvironment) = (arguments, environment)
        var environment = theirEnvironment ?? ProcessInfo.processInfo.environment
        environment[String(cString: vow_exec_trampoline_variable())] = "1"
        executableURL = URL(fileURLWithPath: "/proc/self/exe")
        arguments = [executable.path] + (theirArguments ?? [])
        self.environment = environment
        defer {
            executableURL = executable
            arguments = theirArguments
            self.environment = theirEnvironment
        }
        try Launcher.shared.run { try self.run() }
        #else
        try run()
        #endif
    }
}

#if canImport(Glibc)

/// Whether `path` passes the checks Foundation's `run()` makes before it spawns: a regular file
/// this process may execute. One that does not is launched without the trampoline, so that
/// `run()` throws its own error for it.
private func isStartable(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
}

/// A thread of VowFoundation's own that blocks every signal, on which launches through the
/// trampoline spawn, one at a time.
///
/// A thread that blocks every signal never takes one meant for the program, so the thread
/// changes nothing for it; its mask is set once, as its first act, before which it has the
/// mask of the thread that started it, as every new thread does. The launching caller waits
/// for its launch, as it would for `run()`.
// @unchecked: `jobs` is only touched while holding `condition`.
private final class Launcher: @unchecked Sendable {
    static let shared = Launcher()

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    private init() {
        let thread = Thread { [unowned self] in
            var every = sigset_t()
            sigfillset(&every)
            pthread_sigmask(SIG_BLOCK, &every, nil)
            serve()
        }
        thread.name = "vow.launcher"
        thread.start()
    }

    /// Runs `body` on the launcher's thread and returns what it returns, or throws what it throws.
    func run(_ body: @escaping () throws -> Void) throws {
        // @unchecked: the caller waits for the launcher's thread to finish with `body` and the
        // outcome before it reads the outcome, and `done` orders the two.
        final class Launch: @unchecked Sendable {
            let body: () throws -> Void
            var outcome: Result<Void, any Error> = .success(())
            let done = DispatchSemaphore(value: 0)
            init(_ body: @escaping () throws -> Void) { self.body = body }
        }
        let launch = Launch(body)
        condition.withLock {
            jobs.append {
                launch.outcome = Result { try launch.body() }
                launch.done.signal()
            }
            condition.signal()
        }
        launch.done.wait()
        try launch.outcome.get()
    }

    /// The thread's loop: each launch in turn, for as long as the program runs.
    private func serve() -> Never {
        while true {
            let job = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job()
        }
    }
}
#endif
#endif
