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
import Dispatch
import Foundation

/// Tells once a child that `spawnChild(streams:)` started has ended, and how, leaving it a
/// zombie: until the one told reaps it with `vow_reap`, neither its identifier nor its process
/// group's can belong to another process, so a signal sent meanwhile reaches only what it was
/// meant for.
enum ChildExit {
    /// How a child ended: its exit status or the number of the signal that killed it; or, if
    /// something else in this program reaped it first (a `waitpid(-1, …)` of its own), the
    /// error the wait met.
    typealias Ending = Result<(status: Int32, reason: ProcessError.Reason), POSIXError>

    /// How the end is noticed.
    enum Watch {
        /// A pidfd that Dispatch polls, on Linux 5.3 and later: no thread waits. Where the
        /// system gives none, this falls back to `thread`.
        case descriptor
        /// A thread of its own that waits for the child, blocking every signal.
        case thread
    }

    /// Calls `ended` once the child `child` has ended, on a thread of Dispatch's or its own.
    static func watch(
        _ child: pid_t, by watch: Watch = .descriptor, ended: @escaping @Sendable (Ending) -> Void
    ) {
        if watch == .descriptor {
            let descriptor = vow_open_exit_descriptor(child)
            if descriptor >= 0 { return poll(descriptor, for: child, ended: ended) }
        }
        let thread = Thread {
            // A thread that blocks every signal never takes one meant for the program; until
            // here it has the mask of the thread that started it, which was taking them anyway.
            var every = sigset_t()
            sigfillset(&every)
            pthread_sigmask(SIG_BLOCK, &every, nil)
            ended(ending(of: child, waiting: true)!)
        }
        thread.name = "vow.child-exit"
        // The thread only waits: a small stack is plenty, and many children may be running.
        thread.stackSize = 64 << 10
        thread.start()
    }

    /// Watches `descriptor`, a pidfd for `child`, which becomes readable once it ends.
    private static func poll(
        _ descriptor: Int32, for child: pid_t, ended: @escaping @Sendable (Ending) -> Void
    ) {
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global())
        // The handler keeps the source until it cancels it, which releases the handler.
        source.setEventHandler {
            guard let ending = ending(of: child, waiting: false) else { return }
            // Cancelled before `ended` runs, which may reap the child: the handler runs once.
            source.cancel()
            ended(ending)
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    /// How `child` ended, waiting for it to end if `waiting`; `nil` if it is still running.
    private static func ending(of child: pid_t, waiting: Bool) -> Ending? {
        var status: Int32 = 0
        var signaled = false
        switch vow_await_end(child, waiting, &status, &signaled) {
        case 0: return nil
        case 1: return .success((status, signaled ? .uncaughtSignal : .exit))
        default: return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD))
        }
    }
}
#endif
