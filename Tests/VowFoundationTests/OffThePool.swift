import Foundation

/// Runs a test's blocking `body` on a thread of its own, and returns what it returns.
///
/// These tests wait for real servers and processes, which under Thread Sanitizer can take tens
/// of seconds. Swift Testing runs every test on a few shared threads, one a core; a test that
/// blocked one of them that long would starve the async tests of the whole run, which share
/// the process, until their bounded waits gave up.
func offThePool<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
