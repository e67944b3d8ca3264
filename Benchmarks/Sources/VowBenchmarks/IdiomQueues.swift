import Dispatch
import NIOCore
import Vow

/// "idiom-queues": the chain people write when the work moves between queues,
/// `firstly { … }.then(on: a) { … }.map(on: b) { … }.done(on: a) { … }.catch(on: a) { … }`, from
/// fulfilling its pending head to the moment `done` has run, as seen by the benchmark thread
/// blocked on a semaphore. Every contender makes three hops per operation between two serial
/// queues or loops, A, then B, then A again: fulfilling from the benchmark thread starts the
/// first.
///
/// Operation `i` starts from the value `i` and must end with `i + 2`.
///
/// - Vow: `Promise<Int>.pending()`, then `firstly { promise }`,
///   `then(on: queueA) { Promise.value($0 + 1) }`, `map(on: queueB) { $0 + 1 }`,
///   `done(on: queueA)`, which checks the value and signals, and `catch(on: queueA)`, which
///   stops the run; then `fulfill(i)` and the wait. `catch` has nothing to run on a fulfilled
///   chain, so it adds no hop.
/// - Dispatch: `queueA.async`, in it `queueB.async`, in it `queueA.async`, each passing the
///   value on plus 1; the innermost checks it and signals. The three hops, written by hand.
/// - SwiftNIO: the benchmark thread hands the operation to loop A with `execute` (the first
///   hop), where `loopA.makePromise(of: Int.self)` gets
///   `flatMap { loopA.makeSucceededFuture($0 + 1) }`, `hop(to: loopB)`, `map { $0 + 1 }`,
///   `hop(to: loopA)`, then `whenSuccess`, which checks and signals, and `whenFailure`, which
///   stops the run; then `succeed(i)`. Each loop has a thread of its own, and each `hop(to:)`
///   moves to the other. The chain is built on loop A because a callback attached to a future
///   from another thread is sent to the future's loop to be attached: built on the benchmark
///   thread, each of the chain's six callbacks would make a trip of its own.
///
/// Target ≤1.25 × Dispatch: latency-3 allows 1.20 for three hops on one queue, and the idiom
/// adds, per operation, a pending promise, the promise `then`'s body returns, and the `catch`:
/// inline work, which done-catch measures, small beside three thread switches.
func idiomQueuesScenario() -> Scenario {
    let name = "idiom-queues"
    let metric = Metric(name: name, unit: "µs/op", target: Target(baseline: "Dispatch", atMost: 1.25))
    return Scenario(name: name) { context in
        // Half latency's batch, still a tenth of a second or more per contender: three hops
        // each for three contenders would otherwise make this the longest scenario, and it may
        // run three times its rounds.
        let operations = context.size(full: 5_000, quick: 200)
        // As many as latency's: the target is as close.
        let rounds = context.size(full: 30, quick: 2)
        let queueA = DispatchQueue(label: "vow-benchmarks.idiom-queues.a")
        let queueB = DispatchQueue(label: "vow-benchmarks.idiom-queues.b")
        let loopA = context.loop
        let loopB = context.secondLoop
        let semaphore = DispatchSemaphore(value: 0)

        let vow = Contender.timed("Vow", divisor: operations, scale: 1e-3) {
            for index in 0..<operations {
                let (promise, resolver) = Promise<Int>.pending()
                firstly {
                    promise
                }.then(on: queueA) {
                    Promise.value($0 + 1)
                }.map(on: queueB) {
                    $0 + 1
                }.done(on: queueA) { value in
                    check(value == index + 2, "\(name) Vow: got \(value), expected \(index + 2)")
                    semaphore.signal()
                }.catch(on: queueA) { error in
                    fail("\(name) Vow: rejected with \(error)")
                }
                resolver.fulfill(index)
                semaphore.wait()
            }
        }
        let dispatch = Contender.timed("Dispatch", divisor: operations, scale: 1e-3) {
            for index in 0..<operations {
                queueA.async {
                    let first = index + 1
                    queueB.async {
                        let second = first + 1
                        queueA.async {
                            check(
                                second == index + 2, "\(name) Dispatch: got \(second), expected \(index + 2)")
                            semaphore.signal()
                        }
                    }
                }
                semaphore.wait()
            }
        }
        let nio = Contender.timed("SwiftNIO", divisor: operations, scale: 1e-3) {
            for index in 0..<operations {
                loopA.execute {
                    let promise = loopA.makePromise(of: Int.self)
                    let last = promise.futureResult.flatMap {
                        loopA.makeSucceededFuture($0 + 1)
                    }.hop(to: loopB).map {
                        $0 + 1
                    }.hop(to: loopA)
                    last.whenSuccess { value in
                        check(value == index + 2, "\(name) SwiftNIO: got \(value), expected \(index + 2)")
                        semaphore.signal()
                    }
                    last.whenFailure { error in fail("\(name) SwiftNIO: failed with \(error)") }
                    promise.succeed(index)
                }
                semaphore.wait()
            }
        }
        return measure(
            [vow, dispatch, nio], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
