import Dispatch
import Foundation
import Vow
import VowFoundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// "process-launch": what starting a child with a clean signal state costs, where it would
/// otherwise inherit one. Each operation launches `/bin/true` and waits until it has ended and
/// been reaped.
///
/// - Vow: `launch(.promise)` from one of Dispatch's worker threads, whose mask blocks nearly
///   every signal, which the child would inherit from Foundation's `run()`: the launch resets
///   it in the child. The contender blocks the worker on a semaphore until the promise settles.
/// - Vow, nothing to reset: the same launch from the benchmark's own thread, which blocks no
///   signal, in a program that ignores none.
/// - Foundation: `run()` and `waitUntilExit()` from the benchmark's thread, the child
///   inheriting that thread's state, as `Process` has it. `waitUntilExit()` on Linux polls its
///   run loop, which makes most of its figure.
/// - Foundation, handler: `run()` with a `terminationHandler` that signals a semaphore the
///   benchmark's thread waits on: the spawn and the notice of the end, without the polling.
func processLaunchScenario() -> Scenario {
    let name = "process-launch"
    let metric = Metric(
        name: name, unit: "ms/launch", target: Target(baseline: "Vow, nothing to reset", atMost: 1.2))
    return Scenario(name: name) { context in
        giveTheStopSignalsTheirDefaults()
        let launches = context.size(full: 40, quick: 3)
        let rounds = context.size(full: 10, quick: 2)
        let program = URL(fileURLWithPath: "/bin/true")

        /// Launches `/bin/true` `launches` times with Vow, each after the last has ended.
        @Sendable func launchWithVow(_ contender: String) {
            let ended = DispatchSemaphore(value: 0)
            for _ in 0..<launches {
                let process = Process()
                process.executableURL = program
                let promise = process.launch(.promise)
                promise.pipe { _ in ended.signal() }
                ended.wait()
                guard case .success(let output)? = promise.result, output.status == 0 else {
                    fail("\(name) \(contender): \(String(describing: promise.result)), expected status 0")
                }
            }
        }

        let fromWorker = Contender.timed("Vow", divisor: launches, scale: 1e-6) {
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                launchWithVow("Vow")
                done.signal()
            }
            done.wait()
        }
        let clean = Contender.timed("Vow, nothing to reset", divisor: launches, scale: 1e-6) {
            launchWithVow("Vow, nothing to reset")
        }
        let foundation = Contender.timed("Foundation", divisor: launches, scale: 1e-6) {
            for _ in 0..<launches {
                let process = Process()
                process.executableURL = program
                do {
                    try process.run()
                } catch {
                    fail("\(name) Foundation: run() threw \(error)")
                }
                process.waitUntilExit()
                check(
                    process.terminationStatus == 0, "\(name) Foundation: status \(process.terminationStatus)")
            }
        }
        let handler = Contender.timed("Foundation, handler", divisor: launches, scale: 1e-6) {
            let ended = DispatchSemaphore(value: 0)
            for _ in 0..<launches {
                let process = Process()
                process.executableURL = program
                process.terminationHandler = { _ in ended.signal() }
                do {
                    try process.run()
                } catch {
                    fail("\(name) Foundation, handler: run() threw \(error)")
                }
                ended.wait()
                check(
                    process.terminationStatus == 0,
                    "\(name) Foundation, handler: status \(process.terminationStatus)")
            }
        }
        return measure(
            [fromWorker, clean, foundation, handler], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: launches, context: context)
    }
}

/// Makes the benchmark's thread and program the ones a child needs nothing reset from: no signal
/// blocked on this thread, which the run checks, and none of the signals a launched child gets
/// at their defaults ignored. A program started in a shell's background, as `Scripts/budget`
/// starts this one, inherits `SIGINT` and `SIGQUIT` ignored; the scenario gives them back their
/// defaults, which is this program's own business, before any launch.
private func giveTheStopSignalsTheirDefaults() {
    var blocked = sigset_t()
    pthread_sigmask(SIG_BLOCK, nil, &blocked)
    for signal in 1..<32 where sigismember(&blocked, Int32(signal)) == 1 {
        fail("process-launch: the benchmark's thread blocks signal \(signal), which its child would inherit")
    }
    for stop in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE] {
        let previous = signal(stop, SIG_DFL)
        if unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self) {
            signal(stop, previous)
        }
    }
}
