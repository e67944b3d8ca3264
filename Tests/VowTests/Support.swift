import Dispatch
import Foundation
import Testing
import Vow

/// Errors the tests reject with.
enum TestError: Error, Equatable {
    case boom
    case other
}

/// A cancellation error of the test's own, for the catch-policy tests.
struct TestCancellation: CancellableError {
    var isCancelled: Bool { true }
}

/// Thrown by the helpers below when a thenable does not resolve within the generous limit.
struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "the thenable did not resolve within \(seconds) seconds" }
}

/// How long a test waits for something that should happen promptly. Generous on purpose: the
/// machine is shared, and a test must never fail because it was slow, only because it hung.
let patience = 30.0

/// Blocks until `thenable` resolves and returns its result, or throws ``TimedOut``.
///
/// Unlike `wait()`, this gives up after ``patience`` seconds, so a bug fails the test instead
/// of hanging the whole run.
func outcome<U: Thenable>(of thenable: U, within seconds: Double = patience) throws -> Result<U.T, any Error>
{
    let semaphore = DispatchSemaphore(value: 0)
    thenable.pipe { _ in semaphore.signal() }
    guard semaphore.wait(timeout: .now() + seconds) == .success, let result = thenable.result else {
        throw TimedOut(seconds: seconds)
    }
    return result
}

/// Runs `body` in a task of its own and returns what it returns, or throws ``TimedOut`` if it
/// has not returned within `seconds`.
///
/// The async counterpart of ``outcome(of:within:)``, for tests that await: a bug fails the test
/// instead of hanging the run. On a time-out the task is cancelled and left behind, since an
/// await that ignores cancellation cannot be ended from outside.
func bounded<R: Sendable>(
    within seconds: Double = patience,
    _ body: sending @escaping @isolated(any) () async throws -> R
) async throws -> R {
    let task = Task(operation: body)
    let resumed = Protected(false)
    return try await withCheckedThrowingContinuation { continuation in
        @Sendable func resumeOnce(with result: Result<R, any Error>) {
            let isFirst = resumed.withLock { done in
                defer { done = true }
                return !done
            }
            if isFirst { continuation.resume(with: result) }
        }
        Task { resumeOnce(with: await task.result) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            task.cancel()
            resumeOnce(with: .failure(TimedOut(seconds: seconds)))
        }
    }
}

/// Whether `condition` holds within `seconds`, checking it every millisecond: for state that
/// another thread or task changes with no thenable to wait on.
///
/// It suspends rather than blocks between checks, so that the tasks it waits for can run on
/// the cooperative pool, which has as few threads as the machine has cores.
func eventually(within seconds: Double = patience, _ condition: () -> Bool) async -> Bool {
    let deadline = DispatchTime.now() + seconds
    while !condition() {
        guard DispatchTime.now() < deadline else { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}

/// The value `thenable` fulfils with; throws its error, or ``TimedOut``.
func value<U: Thenable>(of thenable: U, within seconds: Double = patience) throws -> U.T {
    try outcome(of: thenable, within: seconds).get()
}

/// The error `thenable` rejects with, or `nil` if it fulfils; throws ``TimedOut``.
func error<U: Thenable>(of thenable: U, within seconds: Double = patience) throws -> (any Error)? {
    if case .failure(let error) = try outcome(of: thenable, within: seconds) { return error }
    return nil
}

extension PromiseError {
    /// The name of the case, payloads aside. The switch has no default, so a new case fails to
    /// compile here until it is named.
    var caseName: String {
        switch self {
        case .invalidCallingConvention: "invalidCallingConvention"
        case .returnedSelf: "returnedSelf"
        case .badInput: "badInput"
        case .cancelled: "cancelled"
        case .compactMap: "compactMap"
        case .emptySequence: "emptySequence"
        case .noWinner: "noWinner"
        case .timedOut: "timedOut"
        case .validationFailed: "validationFailed"
        }
    }
}

/// A result as text: the value, or the case name of the error.
func summary<T>(_ result: Result<T, any Error>) -> String {
    switch result {
    case .success(let value):
        return "\(value)"
    case .failure(let error as TestError):
        return "\(error)"
    case .failure(let error):
        return error.isCancelled ? "cancelled" : "unexpected \(error)"
    }
}

/// Whether `error` is the `PromiseError` case `expected`, payloads aside.
/// The reason of a ``PromiseError/badInput(_:)``, or `nil` for any other error.
func badInputReason(_ error: (any Error)?) -> String? {
    if case .badInput(let reason) = error as? PromiseError { reason } else { nil }
}

func isPromiseError(_ error: (any Error)?, _ expected: PromiseError) -> Bool {
    (error as? PromiseError)?.caseName == expected.caseName
}

extension Thenable {
    /// Ends a chain in a test without a handler or a log event.
    func endChain() {
        pipe { _ in }
    }
}

/// A value shared between the test and handlers on other threads, behind a lock.
///
/// `NSLock` rather than Synchronization's `Mutex`, whose lock Thread Sanitizer does not see on
/// Linux: the suite must stay clean under `swift test --sanitize=thread`.
// @unchecked: `value` is only read or written while holding `lock`.
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }
}

/// A thread-safe list of things that happened, in the order they happened.
final class Recorder<Entry: Sendable>: Sendable {
    private let entries = Protected<[Entry]>([])

    func record(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    var all: [Entry] {
        entries.withLock { $0 }
    }
}

/// A serial queue that can tell whether the current code runs on it.
final class TestQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init(_ label: String = "vow.tests") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    /// Whether the caller is running on this queue.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}

/// Marks the main queue, so a test can tell it runs there on any thread: after `dispatchMain()`,
/// which Linux test runs use, the main queue is drained by a thread that is not the main thread.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Whether the caller runs on the main queue, the main actor's executor.
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true || Thread.isMainThread
}

/// Runs a stress test's long, blocking `body` on a thread of its own, once no other stress
/// test is running, and returns what it returns.
///
/// Swift Testing shares a few threads, one a core, between all tests, and runs every task
/// there. A test that keeps one busy for many seconds (a million-step chain, a deep nest of
/// fulfils, thousands of raced rounds) would starve the async tests that wait for a task, until
/// their bounded waits gave up; on a thread of its own it holds none of those. One stress test
/// at a time: on a two-core machine under Thread Sanitizer, eight of them at once took both
/// cores for minutes, and the async tests waited over 20 seconds for their turn. A stress test
/// waiting here is suspended, and holds no thread either.
func stressTest<R: Sendable>(
    stackSize: Int = 8 << 20, _ body: @escaping @Sendable () throws -> R
) async throws -> R {
    await stressTests.enter()
    let result = await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: Result { try body() }) }
        thread.stackSize = stackSize
        thread.start()
    }
    await stressTests.leave()
    return try result.get()
}

/// Lets one stress test run at a time, the others waiting in the order they came.
private actor StressTestTurns {
    private var running = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        guard running else {
            running = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty {
            running = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

private let stressTests = StressTestTurns()

/// Whether Thread Sanitizer's runtime is loaded into the process.
let isThreadSanitized: Bool = {
    // The program's own handle searches everything loaded with it, as `RTLD_DEFAULT` does; that
    // constant differs between Darwin and Linux, the handle does not.
    let program = dlopen(nil, RTLD_LAZY)
    return dlsym(program, "__tsan_init") != nil
}()

/// Whether the stress tests run at their full sizes, which `VOW_STRESS=full` asks for and
/// `Scripts/stress-loop` sets: the sizes the suite always ran with before each test found a
/// cheaper way to prove its property.
let runsFullStress = ProcessInfo.processInfo.environment["VOW_STRESS"] == "full"

/// The size of a stress test: `size` in an ordinary run, CI's included; with `VOW_STRESS=full`,
/// `full`, or `sanitized` under Thread Sanitizer.
///
/// `size` is chosen to prove the test's property: a chain long enough to overflow
/// ``smallStack`` many times over if any link recursed, rounds enough for a race to be seen.
/// The full sizes are the long soak, for `Scripts/stress-loop`.
func stressSize(_ size: Int, full: Int, sanitized: Int) -> Int {
    guard runsFullStress else { return size }
    return isThreadSanitized ? sanitized : full
}

/// The stack of a stress test that proves something runs without recursion: 128 KiB, a quarter
/// of a Dispatch worker's on Apple platforms, and twice the 64 KiB that the trampoline keeps
/// free below nested handler runs.
let smallStack = 128 << 10

/// The length of a chain, or the depth of a nest, that a test runs on ``smallStack``.
///
/// The recursions these tests guard against took 130 bytes or more a link (4,000 races
/// overflowed 512 KiB), and overflowed ``smallStack`` within 1,000 links: ten thousand links
/// would overflow it even at 13 bytes a link, less than any frame takes. They prove what a
/// million did on 512 KiB, at a hundredth of the cost.
let deepEnough = 10_000

/// How many rounds a race test ran, and in how many its two sides met.
struct RaceTally: Sendable {
    var rounds = 0
    var raced = 0
}

/// Runs `round` with 0, 1, 2, … until 300 rounds have raced and `complete()` holds, or until
/// `full` rounds have run (`sanitized` under Thread Sanitizer); with `VOW_STRESS=full`, all of
/// those.
///
/// `round` returns whether its two sides met, as ``runTogether(round:_:_:)`` says. A race that
/// can go wrong shows it in the rounds whose sides met, so those are what a test counts; on a
/// quiet machine most rounds meet, and a loaded one runs more rounds for the same count, never
/// more than the limit. `complete` waits for what else the test needs to have seen, such as both
/// outcomes of the race.
func raceRounds(
    atMost full: Int, sanitized: Int, until complete: () -> Bool = { true }, _ round: (Int) throws -> Bool
) rethrows -> RaceTally {
    let limit = isThreadSanitized ? sanitized : full
    var tally = RaceTally()
    while tally.rounds < limit && (runsFullStress || tally.raced < 300 || !complete()) {
        if try round(tally.rounds) { tally.raced += 1 }
        tally.rounds += 1
    }
    return tally
}

/// Runs `first` and `second` on two threads at once, and returns whether they met: whether
/// each found the other started when it was released.
///
/// Each waits at a gate until both have arrived, but only briefly: a loaded machine may run
/// both on one thread, one after the other, and then the order alternates with `round`, so
/// that either call goes first in half the rounds and both outcomes still occur.
@discardableResult
func runTogether(
    round: Int, _ first: @escaping @Sendable () -> Void, _ second: @escaping @Sendable () -> Void
) -> Bool {
    let arrived = Counter()
    let met = Counter()
    let calls = round.isMultiple(of: 2) ? [first, second] : [second, first]
    DispatchQueue.concurrentPerform(iterations: 2) { index in
        arrived.increment()
        var spins = 0
        while arrived.value < 2 && spins < 10_000 { spins += 1 }
        if arrived.value == 2 { met.increment() }
        calls[index]()
    }
    return met.value == 2
}

/// Runs `body` on a new thread of its own, for a test's "other thread" that blocks while it
/// waits for the test to reach some point.
///
/// Dispatch's global queues and Swift's tasks share a few threads on Linux, about two a core. A
/// sender that waited on one of them for a task to run took a thread that task needed: two such
/// senders and two threads held briefly by a contended barrier queue left no thread free for
/// its drain, and every test stood still until the senders' waits gave up, 30 seconds later.
func onAThreadOfItsOwn(_ body: @escaping @Sendable () -> Void) {
    Thread(block: body).start()
}

/// Whether `body`, run on a thread of its own, returns within ``patience``: a deadlock leaves
/// that thread behind and fails the test rather than hanging the run.
func returnsWithinPatience(_ body: @escaping @Sendable () -> Void) -> Bool {
    let returned = DispatchSemaphore(value: 0)
    Thread {
        body()
        returned.signal()
    }.start()
    return returned.wait(timeout: .now() + patience) == .success
}
