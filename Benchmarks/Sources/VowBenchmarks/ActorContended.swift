import Dispatch
import Foundation
import Vow

/// One of the actors of ``actorContendedScenario()``: adds up the values its handlers bring, and
/// once it has run every handler the round sends it, checks the sum and leaves the round's group.
private actor Counter {
    private var sum = 0
    private var received = 0
    private var expected = (count: 0, sum: 0)
    private var group: DispatchGroup?

    /// Starts a round in which `count` handlers bring values adding up to `sum`; `group` is
    /// entered here and left once the last of them has run.
    func expect(_ count: Int, adding sum: Int, leaving group: DispatchGroup) {
        self.sum = 0
        received = 0
        expected = (count, sum)
        self.group = group
        if count > 0 { group.enter() }
    }

    /// The work of one hop: adds `value`, and ends the actor's part of the round after its last.
    func add(_ value: Int) {
        sum &+= value
        received += 1
        if received == expected.count {
            check(sum == expected.sum, "actor-contended: an actor's sum \(sum), expected \(expected.sum)")
            group?.leave()
        }
    }

    /// `add` as a handler written in this actor's method, so that Vow reads the actor from its
    /// isolation, as it does app code's.
    func handler() -> @isolated(any) @Sendable (Int) -> Void {
        isolated { self.add($0) }
    }
}

/// "actor-contended": many threads sending handlers to many actors at once, each hop one send to
/// a random actor: what the one lock around every actor's mailbox costs when many threads take
/// it at the same time.
///
/// Eight threads, started one after another, each send 10,000 handlers, every one to an actor picked at
/// random (the same picks every round) among 64; the batch ends when every actor has run all
/// that was sent to it. The machine has fewer cores than threads, so a thread can be preempted
/// holding the lock while the others wait for it, as on a loaded server.
///
/// - Vow: `Guarantee.value(k).done(handler)`, where `handler` was written in the actor's method.
/// - Tasks: `Task { await counter.add(k) }`: a task per hop, entering the actor through Swift's
///   own executor, which takes no lock shared between actors.
func actorContendedScenario() -> Scenario {
    let name = "actor-contended"
    let metric = Metric(name: name, unit: "ns/op", target: nil)
    return Scenario(name: name) { context in
        let threads = 8
        let actors = 64
        let perThread = context.size(full: 10_000, quick: 500)
        let operations = threads * perThread
        let rounds = context.size(full: 15, quick: 2)
        let counters = (0..<actors).map { _ in Counter() }
        let handlers = counters.map { counter in blocking { await counter.handler() } }
        // The actor each thread sends each of its handlers to, from a generator seeded with the
        // thread's number, so that every round and every revision send the same hops.
        let targets = (0..<threads).map { thread in
            var state = UInt64(thread + 1) &* 0x9E37_79B9_7F4A_7C15
            return (0..<perThread).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int(state >> 33) % actors
            }
        }
        var expected = Array(repeating: (count: 0, sum: 0), count: actors)
        for list in targets {
            for (k, target) in list.enumerated() {
                expected[target].count += 1
                expected[target].sum &+= k
            }
        }

        /// Readies every actor for a round and returns the group that is left once each has run
        /// all it was sent: set-up, not timed.
        func ready() -> DispatchGroup {
            let allRan = DispatchGroup()
            for (counter, expected) in zip(counters, expected) {
                blocking { await counter.expect(expected.count, adding: expected.sum, leaving: allRan) }
            }
            return allRan
        }

        /// Runs one round: every thread runs `send` for each of its hops, `k` being the hop's
        /// number in its thread; this returns once every handler has run.
        func round(_ allRan: DispatchGroup, _ send: @escaping @Sendable (_ actor: Int, _ k: Int) -> Void) {
            let sent = DispatchGroup()
            for list in targets {
                sent.enter()
                Thread {
                    for (k, actor) in list.enumerated() { send(actor, k) }
                    sent.leave()
                }.start()
            }
            sent.wait()
            allRan.wait()
        }

        let vow = Contender.timed("Vow", divisor: operations, setUp: ready) { allRan in
            round(allRan) { actor, k in Guarantee.value(k).done(handlers[actor]) }
        }
        let tasks = Contender.timed("Tasks", divisor: operations, setUp: ready) { allRan in
            round(allRan) { actor, k in
                Task { await counters[actor].add(k) }
            }
        }
        return measure(
            [vow, tasks], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
