// A script whose waits outlast conf.stuckWaitThreshold, in a process of its own because the
// threshold is process-wide: StuckWaitTests launches it and checks that each stuck `hang` and
// `wait()` reported once, naming its own line and what its chain waits on, and that a wait that
// ends in time, or with the report off, reported nothing. It exits non-zero on any failure.
//
// CI also runs its release build, where a report names the call without a line and the chain by
// its state alone: each check expects what its build records.
import Dispatch
import Foundation
import Synchronization
import Vow

let reports = Mutex<[StuckWait]>([])
let reported = DispatchSemaphore(value: 0)
conf.logHandler = { event in
    guard case .report(let stuck as StuckWait) = event else { return }
    reports.withLock { $0.append(stuck) }
    reported.signal()
}
var failures: [String] = []

/// Settles the chain `settle` reaches once a report has arrived, or after a minute, on another
/// thread: the waits below end only after they reported, whatever the machine's load.
func settleAfterReport(_ settle: @escaping @Sendable () -> Void) {
    DispatchQueue.global().async {
        _ = reported.wait(timeout: .now() + 60)
        settle()
    }
}

/// Checks that exactly one report arrived since `before`, from `operation` at `line`, and that
/// its chain names every one of `expected`.
@MainActor func expectOneReport(
    after before: Int, from operation: String, line: Int, naming expected: [String]
) {
    let new = reports.withLock { Array($0[before...]) }
    guard new.count == 1, let report = new.first else {
        failures.append("\(operation) at line \(line): \(new.count) reports, expected 1")
        return
    }
    #if DEBUG
    let misplaced =
        line == 0
        ? report.site != nil
        : report.site?.line != line || report.site?.fileID != "StuckWaitChecks/main.swift"
    #else
    // A release build records no line.
    let misplaced = report.site != nil
    #endif
    if report.operation != operation || misplaced {
        failures.append(
            "\(operation) at line \(line) was reported as \(report.operation) at \(report.site as Any)")
    }
    #if DEBUG
    let expected = expected
    #else
    // A release build describes the chain by its state alone: its first line, up to the colon.
    let expected = expected.prefix(1).map {
        String($0.prefix { $0 != ":" }) + ": pending; Vow records chains"
    }
    #endif
    for text in expected where !report.chain.contains(text) {
        failures.append("\(operation) at line \(line): the chain does not say \"\(text)\": \(report.chain)")
    }
    if !report.description.contains(report.chain) {
        failures.append("the report's description leaves its chain out: \(report.description)")
    }
}

conf.stuckWaitThreshold = 0.3

// 1. `hang` on the main thread, which turns the run loop while it waits.
var before = reports.withLock { $0.count }
let (root, resolver) = Promise<Int>.pending()
let counted = root.map { $0 + 1 }
settleAfterReport { resolver.fulfill(1) }
let hangLine = #line + 1
let hung = try hang(counted)
expectOneReport(
    after: before, from: "hang(_:)", line: hangLine,
    naming: [
        "Promise<Int>: map at StuckWaitChecks/main.swift:\(hangLine - 3), pending",
        "1. Promise.pending() at StuckWaitChecks/main.swift:\(hangLine - 4), pending: its resolver is held and has not settled it",
    ])
if hung != 2 { failures.append("hang returned \(hung), expected 2") }

// 2. `wait()` on another thread, which blocks on a semaphore, for a guarantee.
before = reports.withLock { $0.count }
let (ready, resolve) = Guarantee<String>.pending()
settleAfterReport { resolve("ready") }
let waitLine = #line + 2
let waited = DispatchQueue.global().sync {
    ready.wait()
}
expectOneReport(
    after: before, from: "wait()", line: waitLine,
    naming: [
        "Guarantee<String>: Guarantee.pending() at StuckWaitChecks/main.swift:\(waitLine - 4), pending: its resolve function is held and has not been called"
    ])
if waited != "ready" { failures.append("wait() returned \(waited)") }

// 3. `hang` on a main-actor promise: the report names the promise the script holds, not the
// promise it shares, and no line, since that form of `hang` takes none.
before = reports.withLock { $0.count }
let (note, noteResolver) = MainActorPromise<Int>.pending()
let noted = note.map { $0 + 1 }
settleAfterReport { Task { @MainActor in noteResolver.fulfill(1) } }
_ = try hang(noted)
expectOneReport(
    after: before, from: "hang(_:)", line: 0,
    naming: ["MainActorPromise<Int>: map at StuckWaitChecks/main.swift:\(#line - 5), pending"])

// 4. A `wait()` on two promises that wait on each other: the description ends, naming the
// cycle, and the report arrives like any other; cancelling one ends the wait.
before = reports.withLock { $0.count }
let later = Mutex<Promise<Int>?>(nil)
let (gate, opener) = Promise<Void>.pending()
let firstOfCycle = gate.then { later.withLock { $0! } }
let cycle = firstOfCycle.map { $0 }
later.withLock { $0 = cycle }
opener.fulfill(())
settleAfterReport { cycle.cancel() }
let cycleLine = #line + 1
_ = try? DispatchQueue.global().sync { try cycle.wait() }
expectOneReport(
    after: before, from: "wait()", line: cycleLine,
    naming: [
        "Promise<Int>: map at StuckWaitChecks/main.swift:\(cycleLine - 5), pending",
        "waits on step 0 of this path: a cycle, which nothing can settle",
    ])

// 5. A wait that ends before the threshold reports nothing.
conf.stuckWaitThreshold = 30
before = reports.withLock { $0.count }
let (quick, settleQuick) = Promise<Int>.pending()
DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { settleQuick.fulfill(3) }
_ = try quick.wait()
if reports.withLock({ $0.count }) != before { failures.append("a wait that ended in time reported") }

// 6. With the report off, a wait that lasts past the old threshold reports nothing.
conf.stuckWaitThreshold = nil
if conf.stuckWaitThreshold != nil { failures.append("the threshold did not turn off") }
conf.stuckWaitThreshold = -1
if conf.stuckWaitThreshold != nil { failures.append("a negative threshold did not turn the report off") }
let (slow, settleSlow) = Promise<Int>.pending()
DispatchQueue.global().asyncAfter(deadline: .now() + 0.6) { settleSlow.fulfill(4) }
_ = try slow.wait()
if reports.withLock({ $0.count }) != before { failures.append("a wait reported with the report off") }

if failures.isEmpty {
    print("stuck-wait checks: 4 stuck waits reported once each, 2 waits stayed silent")
} else {
    FileHandle.standardError.write(Data(failures.map { "stuck-wait checks: \($0)\n" }.joined().utf8))
    exit(1)
}
