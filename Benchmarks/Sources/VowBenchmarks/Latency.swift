import Dispatch
import NIOCore
import Vow

/// "latency-N", google/promises' benchmark: the time from creating a resolved promise to the
/// moment the last of `steps` handlers, all on one serial queue, has run, as seen by a thread
/// blocked on a semaphore. Every contender makes exactly `steps` queue hops per operation.
///
/// - Vow: `Promise.value(0)`, `steps - 1` `map(on: queue) { $0 + 1 }`, then
///   `done(on: queue)`, which checks the value and signals.
/// - Dispatch: `steps` nested `queue.async` blocks passing the value on; the innermost checks
///   it and signals.
/// - Swift concurrency: one `Task.detached` per operation (the first hop, onto the global
///   executor), whose body awaits an actor method `steps - 1` times, then checks and signals.
///   An actor call is a hop in the language's sense; when the actor is idle the runtime may
///   run it on the same thread rather than switching threads.
/// - SwiftNIO: `loop.makeSucceededFuture(0)`, `steps - 1` `map`, then `whenSuccess`, issued
///   from the benchmark thread onto a loop with a thread of its own: called off the loop,
///   each of those schedules its callback onto the loop.
func latencyScenario(steps: Int) -> Scenario {
    let targets = [1: 1.10, 2: 1.15, 3: 1.20]
    let name = "latency-\(steps)"
    let metric = Metric(
        name: name, unit: "µs/op",
        target: targets[steps].map { Target(baseline: "Dispatch", atMost: $0) })
    return Scenario(name: name) { context in
        let operations = context.size(full: 10_000, quick: 200)
        // More rounds than elsewhere: a round is short, and the targets are within 10–20%.
        let rounds = context.size(full: 30, quick: 2)
        let queue = DispatchQueue(label: "vow-benchmarks.latency")
        let semaphore = DispatchSemaphore(value: 0)
        let relay = Relay()
        let loop = context.loop
        let last = steps - 1

        let vow = Contender.timed("Vow", divisor: operations, scale: 1e-3) {
            for _ in 0..<operations {
                var chain = Promise.value(0)
                for _ in 0..<last {
                    chain = chain.map(on: queue) { $0 + 1 }
                }
                _ = chain.done(on: queue) { value in
                    check(value == last, "\(name) Vow: got \(value), expected \(last)")
                    semaphore.signal()
                }
                semaphore.wait()
            }
        }
        let dispatch = Contender.timed("Dispatch", divisor: operations, scale: 1e-3) {
            for _ in 0..<operations {
                hop(on: queue, value: 0, remaining: steps) { value in
                    check(value == last, "\(name) Dispatch: got \(value), expected \(last)")
                    semaphore.signal()
                }
                semaphore.wait()
            }
        }
        let tasks = Contender.timed("Swift concurrency", divisor: operations, scale: 1e-3) {
            for _ in 0..<operations {
                Task.detached {
                    var value = 0
                    for _ in 0..<last {
                        value = await relay.step(value)
                    }
                    check(value == last, "\(name) Swift concurrency: got \(value), expected \(last)")
                    semaphore.signal()
                }
                semaphore.wait()
            }
        }
        let nio = Contender.timed("SwiftNIO", divisor: operations, scale: 1e-3) {
            for _ in 0..<operations {
                var future = loop.makeSucceededFuture(0)
                for _ in 0..<last {
                    future = future.map { $0 + 1 }
                }
                future.whenSuccess { value in
                    check(value == last, "\(name) SwiftNIO: got \(value), expected \(last)")
                    semaphore.signal()
                }
                semaphore.wait()
            }
        }
        return measure(
            [vow, dispatch, tasks, nio], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}

/// Runs `body` with `value + remaining - 1` after `remaining` nested hops onto `queue`, each
/// passing the value on, as hand-written Dispatch code would.
private func hop(
    on queue: DispatchQueue, value: Int, remaining: Int, _ body: @escaping @Sendable (Int) -> Void
) {
    queue.async {
        if remaining == 1 {
            body(value)
        } else {
            hop(on: queue, value: value + 1, remaining: remaining - 1, body)
        }
    }
}

/// The actor each Swift concurrency step awaits, so that every step is an actor hop.
private actor Relay {
    func step(_ value: Int) -> Int {
        value + 1
    }
}
