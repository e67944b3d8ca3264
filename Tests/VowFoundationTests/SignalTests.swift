// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where. The
// checks read a child's signal state from Linux's /proc.
#if !VOW_NO_PROCESS && os(Linux)
import Dispatch
import Foundation
import Testing
import VowFoundation

/// A launch sets its child's signal state in the child alone: a program whose own state a test
/// sets whole, `SignalChecks`, launches children while signals arrive, and checks that none is
/// lost, that none interrupts a system call, and that the children inherit nothing.
///
/// Before, a launch emptied the launching thread's mask and caught each ignored stop signal for
/// as long as `run()` took: the `sigwait` program was killed by a SIGUSR1 within 50 signals,
/// and SIGHUPs interrupted the `nohup` program's `poll` about 40 times in 100.
@Suite(.serialized) struct SignalTests {
    @Test func aProgramTakingSIGUSR1WithSigwaitReceivesEveryOneDuringLaunches() async throws {
        #expect(try await offThePool { try runChecks("sigwait") })
    }

    @Test func anIgnoredSIGHUPNeverInterruptsAPollDuringLaunches() async throws {
        #expect(try await offThePool { try runChecks("nohup") })
    }

    @Test func aChildInheritsNoBlockedOrIgnoredSignalAndAPipelineEnds() async throws {
        #expect(try await offThePool { try runChecks("inherit") })
    }
}

/// Runs `SignalChecks` with `check` and returns whether it passed, recording what it printed if
/// not; `SignalChecks` lies beside this test program, which SwiftPM builds with it.
private func runChecks(_ check: String) throws -> Bool {
    let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("SignalChecks")
    let process = Process()
    process.executableURL = program
    process.arguments = [check]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    // Bounded: a check that hangs fails here rather than holding the run.
    if ended.wait(timeout: .now() + 300) == .timedOut {
        process.terminate()
        Issue.record("SignalChecks \(check) did not end within 300 seconds: \(text)")
        return false
    }
    let passed = process.terminationReason == .exit && process.terminationStatus == 0
    if !passed {
        Issue.record(
            "SignalChecks \(check) ended with \(process.terminationReason == .exit ? "status" : "signal") \(process.terminationStatus): \(text)"
        )
    }
    return passed
}
#endif
