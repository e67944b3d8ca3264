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
//   SignalChecks launch PROGRAM [ARGUMENT …]
//                          launches PROGRAM from a Dispatch worker, where a child would inherit
//                          nearly every signal blocked, and prints what it wrote: for a run with
//                          privileges, an environment or a file system a test sets up
//   SignalChecks hold MARKER
//                          blocks SIGTERM, writes its identifier to MARKER and waits for good:
//                          a child that only SIGKILL stops
//   SignalChecks launch-when-told PROGRAM [ARGUMENT …]
//                          the same, once it has printed "ready" and read a line from its
//                          standard input: for a test that changes the file system meanwhile
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

/// A value one thread writes and another reads once it knows, through a `Count` or a semaphore,
/// that it was written.
// @unchecked: the writer writes before it adds to the `Count` or signals the semaphore, and the
// reader reads after seeing that, which orders the two.
final class Handoff<Value>: @unchecked Sendable {
    var value: Value?
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
    // `async`, since `sync` would run it on this thread.
    let fromWorker = Handoff<(blocked: UInt64, ignored: UInt64)>()
    let fromTask = Handoff<(blocked: UInt64, ignored: UInt64)>()
    let finished = Count()
    DispatchQueue.global().async {
        fromWorker.value = childSignalState()
        finished.add()
    }
    Task.detached {
        fromTask.value = childSignalState()
        finished.add()
    }
    guard eventually({ finished.current == 2 }) else {
        fail("the launches from a worker and a task never ended")
    }
    for (launcher, state) in [("a Dispatch worker", fromWorker.value!), ("a task", fromTask.value!)] {
        guard state.blocked == 0 else {
            fail(String(format: "the child of \(launcher) blocked %llx", state.blocked))
        }
        guard state.ignored & mask == 0 else {
            fail(String(format: "the child of \(launcher) ignored %llx", state.ignored))
        }
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
        promise.cancel()
        fail("the pipeline did not end: its writer inherited the ignored SIGPIPE")
    }
    print("the children started with nothing blocked or ignored, and the pipeline ended")
}

/// Launches `arguments[0]` with the rest as its arguments from a Dispatch worker, and prints its
/// standard output, or fails with the launch's error.
func launch(_ arguments: ArraySlice<String>) {
    guard let program = arguments.first else { fail("say which program to launch") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = Array(arguments.dropFirst())
    let semaphore = DispatchSemaphore(value: 0)
    let launched = Handoff<Promise<ProcessOutput>>()
    // `async`, since `sync` would run it on this thread.
    DispatchQueue.global().async {
        launched.value = process.launch(.promise)
        launched.value!.pipe { _ in semaphore.signal() }
    }
    guard semaphore.wait(timeout: .now() + 60) == .success, let result = launched.value?.result else {
        fail("the launch of \(program) never ended")
    }
    switch result {
    case .success(let output): print(output.standardOutputText, terminator: "")
    case .failure(let error): fail("the launch of \(program) failed: \(error)")
    }
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "sigwait": checkSigwait()
case "nohup": checkNohup()
case "inherit": checkInherit()
case "launch": launch(arguments.dropFirst())
case "hold":
    guard let marker = arguments.dropFirst().first else { fail("say where to write the identifier") }
    var term = signalSet([SIGTERM])
    pthread_sigmask(SIG_BLOCK, &term, nil)
    // Written whole, then renamed, so that a reader never sees half of it.
    try? Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: marker), options: .atomic)
    while true { sleep(1000) }
case "launch-when-told":
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    _ = readLine()
    launch(arguments.dropFirst())
default: fail("say which check: sigwait, nohup, inherit, launch or launch-when-told")
}
#endif
