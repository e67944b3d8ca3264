// A program whose signal state a test sets whole, which no test process can do to itself: it
// launches children with `launch(.promise)` while signals arrive, and exits with status 0 only
// if every check held. VowFoundationTests' SignalTests run it, one check an invocation:
//
//   SignalChecks sigwait   SIGUSR1 blocked in every thread and taken with sigwait: 300 of 300
//                          arrive while another thread launches children
//   SignalChecks nohup     SIGHUP ignored, as under nohup: 100 of them never interrupt the main
//                          thread's poll while another thread launches children
//   SignalChecks inherit   a child of a program that blocks and ignores the stop signals and
//                          SIGPIPE starts with none of it, from a Dispatch worker too; a
//                          pipeline whose reader leaves ends
//
// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Vow
import VowFoundation

/// Ends the program with a message and status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("SignalChecks: \(message)\n".utf8))
    exit(1)
}

/// A count shared between threads.
final class Count: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = 0

    func add() { lock.withLock { value += 1 } }
    var current: Int { lock.withLock { value } }
}

/// Whether `condition` holds within `seconds`.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { return false }
        usleep(200)
    }
    return true
}

/// Launches `/bin/true` over and over on a thread of its own until `stop` holds, counting the
/// launches; each must succeed.
func launchInALoop(counting launches: Count, until stop: @escaping @Sendable () -> Bool) {
    Thread {
        while !stop() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/true")
            let semaphore = DispatchSemaphore(value: 0)
            let promise = process.launch(.promise)
            promise.pipe { _ in semaphore.signal() }
            guard semaphore.wait(timeout: .now() + 60) == .success else { fail("a launch never ended") }
            if case .failure(let error) = promise.result { fail("a launch failed: \(error)") }
            launches.add()
        }
    }.start()
}

/// A set of the given signals.
func signalSet(_ signals: [Int32]) -> sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    return set
}

/// SIGUSR1 blocked in every thread, the main one first so that every thread made after inherits
/// it, and taken by one thread with `sigwait`: none may be lost, and none may kill the program.
func checkSigwait() {
    var usr1 = signalSet([SIGUSR1])
    pthread_sigmask(SIG_BLOCK, &usr1, nil)
    let received = Count()
    Thread {
        var set = signalSet([SIGUSR1])
        var signal: Int32 = 0
        while true {
            sigwait(&set, &signal)
            received.add()
        }
    }.start()
    let launches = Count()
    let done = Count()
    launchInALoop(counting: launches) { done.current > 0 }
    guard eventually({ launches.current > 0 }) else { fail("no launch finished") }
    let launchesBefore = launches.current
    for sent in 1...300 {
        // Each signal while a launch of its own is under way, so that they race.
        let launched = launches.current
        guard eventually({ launches.current > launched }) else { fail("the launches stopped") }
        kill(getpid(), SIGUSR1)
        // One at a time: a signal sent while another of its kind is pending merges with it.
        guard eventually({ received.current == sent }) else {
            fail("received \(received.current) of \(sent) SIGUSR1")
        }
    }
    done.add()
    let during = launches.current - launchesBefore
    guard during > 0 else { fail("no launch happened while the signals arrived") }
    print("received 300 of 300 SIGUSR1 during \(during) launches")
}

/// SIGHUP ignored, as `nohup` leaves it: a SIGHUP must change nothing, not even interrupt a
/// system call, while children are launched.
func checkNohup() {
    signal(SIGHUP, SIG_IGN)
    let launches = Count()
    let done = Count()
    launchInALoop(counting: launches) { done.current > 0 }
    guard eventually({ launches.current > 0 }) else { fail("no launch finished") }
    let launchesBefore = launches.current
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { fail("no pipe") }
    let sender = Count()
    Thread {
        for _ in 0..<100 {
            kill(getpid(), SIGHUP)
            usleep(20_000)
        }
        sender.add()
    }.start()
    var interrupted = 0
    var polls = 0
    while sender.current == 0 {
        var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 10) == -1 && errno == EINTR { interrupted += 1 }
        polls += 1
    }
    done.add()
    let during = launches.current - launchesBefore
    guard during > 0 else { fail("no launch happened while the signals arrived") }
    guard interrupted == 0 else { fail("\(interrupted) of \(polls) polls failed with EINTR") }
    print("no poll of \(polls) interrupted by 100 SIGHUP during \(during) launches")
}

/// The `SigBlk` and `SigIgn` lines of a child's `/proc/self/status`, as numbers.
func childSignalState() -> (blocked: UInt64, ignored: UInt64) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/cat")
    process.arguments = ["/proc/self/status"]
    let semaphore = DispatchSemaphore(value: 0)
    let promise = process.launch(.promise)
    promise.pipe { _ in semaphore.signal() }
    guard semaphore.wait(timeout: .now() + 60) == .success, case .success(let output)? = promise.result else {
        fail("cat /proc/self/status did not succeed: \(String(describing: promise.result))")
    }
    func field(_ name: String) -> UInt64 {
        let line = output.standardOutputText.split(separator: "\n").first { $0.hasPrefix("\(name):") }
        guard let line,
            let value = UInt64(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
        else { fail("no \(name) in the child's status") }
        return value
    }
    return (field("SigBlk"), field("SigIgn"))
}

/// A program that blocks and ignores signals hands none of that to its children, from any thread.
func checkInherit() {
    let stopSignals = [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE]
    var blocked = signalSet(stopSignals + [SIGUSR1, SIGUSR2])
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    for stopSignal in stopSignals { signal(stopSignal, SIG_IGN) }
    let mask = stopSignals.reduce(UInt64(0)) { $0 | (1 << UInt64($1 - 1)) }
    let fromMain = childSignalState()
    guard fromMain.blocked == 0 else { fail(String(format: "the child blocked %llx", fromMain.blocked)) }
    guard fromMain.ignored & mask == 0 else {
        fail(String(format: "the child ignored %llx", fromMain.ignored))
    }
    let fromWorker = DispatchQueue.global().sync { childSignalState() }
    guard fromWorker.blocked == 0 else {
        fail(String(format: "the child of a Dispatch worker blocked %llx", fromWorker.blocked))
    }
    // The parent's own state is as it set it.
    var now = sigset_t()
    pthread_sigmask(SIG_BLOCK, nil, &now)
    guard stopSignals.allSatisfy({ sigismember(&now, $0) == 1 }) else { fail("the parent's mask changed") }
    // With SIGPIPE ignored, the writer of this pipeline would loop for good once `head` left.
    let pipeline = Process()
    pipeline.executableURL = URL(fileURLWithPath: "/bin/sh")
    pipeline.arguments = ["-c", "while :; do echo y; done | head -n 1"]
    let semaphore = DispatchSemaphore(value: 0)
    let promise = pipeline.launch(.promise)
    promise.pipe { _ in semaphore.signal() }
    guard semaphore.wait(timeout: .now() + 30) == .success else {
        pipeline.terminate()
        fail("the pipeline did not end: its writer inherited the ignored SIGPIPE")
    }
    print("the children started with nothing blocked or ignored, and the pipeline ended")
}

switch CommandLine.arguments.dropFirst().first {
case "sigwait": checkSigwait()
case "nohup": checkNohup()
case "inherit": checkInherit()
default: fail("say which check: sigwait, nohup or inherit")
}
#endif
