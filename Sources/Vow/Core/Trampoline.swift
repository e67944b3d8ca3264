#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs handler batches iteratively instead of recursively.
///
/// When an inline handler resolves another box, that box's handlers would run inside the first
/// handler's stack frame, and a chain of a million `map(on: nil)` steps would need a million
/// frames. Each thread instead owns a trampoline: the outermost resolution runs the work, and
/// any resolution nested inside it is queued and run once the current batch returns.
final class Trampoline {
    private var jobs: [(() -> Void)?] = []
    private var nextJob = 0
    private var isRunning = false

    /// Runs `job` now, or after the job this thread is already running.
    static func run(_ job: @escaping () -> Void) {
        let trampoline = current
        if trampoline.isRunning {
            trampoline.jobs.append(job)
            return
        }
        trampoline.isRunning = true
        job()
        trampoline.drain()
        trampoline.isRunning = false
    }

    /// Runs the jobs this thread has queued, so that a thread about to block is not the one
    /// holding back the resolution it waits for.
    static func drainCurrentThread() {
        current.drain()
    }

    private func drain() {
        while nextJob < jobs.count {
            let job = jobs[nextJob]
            jobs[nextJob] = nil
            nextJob += 1
            // Compact now and then, so a long chain does not keep a slot per step alive.
            if nextJob >= 1024 && nextJob * 2 >= jobs.count {
                jobs.removeFirst(nextJob)
                nextJob = 0
            }
            job?()
        }
        jobs.removeAll(keepingCapacity: true)
        nextJob = 0
    }

    private static var current: Trampoline {
        if let existing = pthread_getspecific(trampolineKey) {
            return Unmanaged<Trampoline>.fromOpaque(existing).takeUnretainedValue()
        }
        let created = Trampoline()
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(created).toOpaque())
        return created
    }
}

/// The thread-local slot that holds each thread's trampoline; its destructor releases it.
private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { slot in
        #if canImport(Darwin)
            Unmanaged<Trampoline>.fromOpaque(slot).release()
        #else
            if let slot { Unmanaged<Trampoline>.fromOpaque(slot).release() }
        #endif
    }
    precondition(status == 0, "Vow could not create its thread-local trampoline key (error \(status))")
    return key
}()
