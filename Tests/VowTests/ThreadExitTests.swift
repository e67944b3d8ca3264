import Foundation
import Testing
import Vow

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Handlers that run while a thread ends: after the thread has let go of its trampoline, in
/// the destructor of another thread-local key, a chain still resolves and its handlers run.
///
/// Were the released trampoline still reachable from the thread's slot, the chain would run on
/// freed memory: `swift test --sanitize=address` reports a use after free then.
@Suite struct ThreadExitTests {
    @Test func handlersRunInAThreadLocalDestructorAfterTheThreadsTrampolineWasReleased() throws {
        // A handler has run in this process, so Vow's key exists and was made before the one
        // below: at thread exit, its destructor runs before this one's.
        _ = try value(of: Promise.value(1).map(on: nil) { $0 + 1 })
        let reached = DispatchSemaphore(value: 0)
        let results = Recorder<Int>()
        let probe = ExitProbe(reached: reached, results: results)

        let thread = Thread {
            // The thread's own trampoline, made by a handler run on it.
            let (promise, resolver) = Promise<Int>.pending()
            promise.done(on: nil) { results.record($0) }.cauterize()
            resolver.fulfill(1)
            pthread_setspecific(exitProbeKey, Unmanaged.passRetained(probe).toOpaque())
        }
        thread.start()

        #expect(reached.wait(timeout: .now() + patience) == .success, "the destructor never ran")
        #expect(results.all == [1, 3])
    }
}

/// What a thread hands its exit destructor: where to record the chain's values, and the
/// semaphore that tells the test the destructor ran.
private final class ExitProbe: Sendable {
    let reached: DispatchSemaphore
    let results: Recorder<Int>

    init(reached: DispatchSemaphore, results: Recorder<Int>) {
        self.reached = reached
        self.results = results
    }
}

/// A thread-local key whose destructor resolves a chain on the ending thread.
private let exitProbeKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { slot in
        // Optional on Linux, not on Darwin: the binding reads the same on both.
        let slot: UnsafeMutableRawPointer? = slot
        guard let slot else { return }
        let probe = Unmanaged<ExitProbe>.fromOpaque(slot).takeRetainedValue()
        let (promise, resolver) = Promise<Int>.pending()
        promise.map(on: nil) { $0 + 1 }.done(on: nil) { probe.results.record($0) }.cauterize()
        resolver.fulfill(2)
        probe.reached.signal()
    }
    precondition(status == 0, "the test could not create its thread-local key (error \(status))")
    return key
}()
