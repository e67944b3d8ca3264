// The threshold is process-wide, so the waits that outlast it run in a program of their own,
// StuckWaitChecks, which SwiftPM builds beside this test program; it launches on Linux, where
// /proc names this program's path, and where Foundation has `Process`.
#if os(Linux)
import Dispatch
import Foundation
import Testing

/// A `hang` and a `wait()` that outlast ``Configuration/stuckWaitThreshold`` report once, with
/// their own line and their chain's description; a wait that ends in time, or with the report
/// off, reports nothing. `StuckWaitChecks` checks each and says what failed.
@Suite struct StuckWaitTests {
    @Test func stuckWaitsReportOnceAndOthersStaySilent() throws {
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("StuckWaitChecks")
        let process = Process()
        process.executableURL = program
        // In CI's leak-check build, LeakSanitizer reports one of the script's top-level chains
        // when the script exits, which would fail it; Vow's own suites check what is let go.
        // The script needs nothing else from the environment, whose copy Foundation leaks.
        process.environment = ["ASAN_OPTIONS": "detect_leaks=0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Bounded: a check that hangs fails here rather than holding the run.
        guard ended.wait(timeout: .now() + 300) == .success else {
            process.terminate()
            Issue.record("StuckWaitChecks did not end within 300 seconds: \(text)")
            return
        }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(text)")
        #expect(text.contains("4 stuck waits reported once each, 2 waits stayed silent"), "\(text)")
    }
}
#endif
