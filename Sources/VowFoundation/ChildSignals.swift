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

/// Runs `body`, which spawns a child process, so that the child starts as it would from a
/// shell: with no signal blocked, and with the signals that ask a process to stop at their
/// default dispositions, even where this process blocks or ignores them.
///
/// Foundation's `Process` hands a child this process's signal state as it is, and offers no way
/// to set the child's: swift-corelibs-foundation spawns it with `posix_spawn`, with neither
/// `POSIX_SPAWN_SETSIGMASK` nor `POSIX_SPAWN_SETSIGDEF`. So it is set here, in the parent, for
/// the moment `run()` takes:
///
/// - **The mask**, which a child inherits from the thread that spawns it. Dispatch's worker
///   threads, which Swift concurrency's run on too, block nearly every signal, `SIGTERM` and
///   `SIGINT` among them (swift-corelibs-foundation#4772). The mask is a thread's own, so
///   clearing it here touches no other thread; a signal sent to the whole program meanwhile
///   may be handled on this thread, by the same handler as anywhere.
/// - **The dispositions**, which belong to the whole process. An ignored signal stays ignored
///   across `exec`, while a caught one is reset to its default. A server that handles
///   `SIGTERM` itself often ignores it first (`signal(SIGTERM, SIG_IGN)`), and its children
///   would ignore a cancellation's `SIGTERM`. Each stop signal this process ignores is caught
///   instead, by a handler that does nothing, while `run()` runs, and ignored again after.
///   For this process nothing changes: the signal is dropped either way, and `SA_RESTART`
///   keeps system calls from failing with `EINTR`. Launches that do this take turns, so that
///   one cannot put back an ignore while another spawns.
func spawningWithDefaultSignals<R>(_ body: () throws -> R) rethrows -> R {
    var none = sigset_t()
    var previous = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

    // Most programs ignore none of them: those launch without taking turns.
    guard stopSignals.contains(where: { vow_signal_disposition($0) != .default }) else { return try body() }
    spawnTurns.lock()
    defer { spawnTurns.unlock() }
    let ignored = stopSignals.filter { vow_signal_disposition($0) == .ignored }
    for signal in ignored { vow_signal_do_nothing(signal) }
    defer {
        // Put back only what is still this handler, should the program have changed it meanwhile.
        for signal in ignored where vow_signal_disposition(signal) == .doingNothing {
            vow_signal_ignore(signal)
        }
    }
    return try body()
}

/// The signals that ask a process to stop: `terminate()` and a cancellation send `SIGTERM`,
/// `interrupt()` sends `SIGINT`, and a terminal sends the others.
private let stopSignals = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]

/// Serializes the launches that change dispositions.
private let spawnTurns = SpawnTurns()

/// A process-wide lock for the launches that change dispositions.
// @unchecked: the mutex is only used through pthread_mutex_lock and pthread_mutex_unlock, which
// are safe from any thread.
private final class SpawnTurns: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
#endif
