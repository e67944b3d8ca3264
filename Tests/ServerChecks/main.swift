// A server's shape: the main thread sits in a loop of its own and never returns to the main
// queue, as an HTTP server's accept loop does. CI runs this program; it exits non-zero if a
// handler written in an actor's method does not run on the actor, if PromiseKit's server recipe
// (`conf.Q` set to a queue of the server's) does not answer, or if the stalled main queue is not
// reported exactly once.
import Dispatch
import Foundation
import Vow

/// Fails the run with `message`.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("server checks: \(message)\n".utf8))
    exit(1)
}

/// What happened, from any thread.
final class Events: @unchecked Sendable {
    // @unchecked: `entries` is only touched while holding `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    func record(_ entry: String) {
        lock.withLock { entries.append(entry) }
    }

    var all: [String] {
        lock.withLock { entries }
    }
}

let events = Events()
let stalls = Events()
conf.mainQueueStallThreshold = 0.5
conf.logHandler = { event in
    if case .report(_ as MainQueueStall) = event {
        stalls.record("\(event)")
    } else {
        events.record("unexpected log event: \(event)")
    }
}

/// Waits, as a server's loop does, on the main thread, without ever servicing the main queue.
func serve(until done: DispatchSemaphore, _ what: String) {
    if done.wait(timeout: .now() + 30) == .timedOut {
        fail("\(what) did not finish in 30 s; seen: \(events.all)")
    }
}

/// A service whose state lives in an actor; its handlers use `self`, only their argument, or
/// nothing at all, and each must run on the actor, since the main queue never runs here.
actor Directory {
    var names: [Int: String] = [:]

    func load(_ done: DispatchSemaphore) {
        Promise.value(1).map { id in
            self.names[id] = "Ada"
            return id
        }.map { id in
            id + 1
        }.then { id in
            Promise.value(id * 10)
        }.get { _ in
            events.record("get")
        }.done { _ in
            self.assertIsolated()
            events.record("actor chain")
            done.signal()
        }.catch { error in
            events.record("actor chain failed: \(error)")
            done.signal()
        }
    }
}

// 1. Handlers written in an actor's method run on the actor with the main queue stalled.
let loaded = DispatchSemaphore(value: 0)
let directory = Directory()
// Detached: a task made in top-level code would start on the main actor, which never runs here.
Task.detached { await directory.load(loaded) }
serve(until: loaded, "the actor's chain")
guard events.all == ["get", "actor chain"] else { fail("the actor's chain ran as \(events.all)") }

// 2. A handler written in top-level code is main-actor isolated: it waits for the main queue,
//    which never runs here, and Vow reports that once, however many such handlers wait.
for index in 0..<100 {
    Guarantee.value(index).done { _ in events.record("main-actor handler ran") }
}
let reported = DispatchSemaphore(value: 0)
DispatchQueue.global().async {
    // Three thresholds: time to report, and to report twice if it wrongly would.
    Thread.sleep(forTimeInterval: 1.5)
    reported.signal()
}
serve(until: reported, "the stall report")
guard stalls.all.count == 1 else { fail("the stalled main queue was reported \(stalls.all.count) times") }
guard stalls.all[0].contains("hang(") else { fail("the report names no fix: \(stalls.all[0])") }

// 3. PromiseKit's server recipe, `conf.Q = (q, q)`: nonisolated handlers answer on the queue.
let requests = DispatchQueue(label: "server.requests")
conf.Q = (map: requests, return: requests)

/// A request handler as a server writes it: nonisolated, so its handlers run on `conf.Q`.
nonisolated func respond(to path: String, _ answered: DispatchSemaphore) {
    firstly {
        Promise.value(path)
    }.map { path in
        "200 OK \(path)"
    }.done { response in
        events.record(response)
        answered.signal()
    }.catch { error in
        events.record("500 \(error)")
        answered.signal()
    }
}

let answered = DispatchSemaphore(value: 0)
respond(to: "/health", answered)
serve(until: answered, "the request")
let expected = ["get", "actor chain", "200 OK /health"]
guard events.all == expected else { fail("expected \(expected), saw \(events.all)") }
print(
    "server checks: the actor's handlers and the server recipe ran with the main queue stalled,",
    "which was reported once")
