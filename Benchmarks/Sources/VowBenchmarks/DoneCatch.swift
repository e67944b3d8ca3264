import NIOCore
import Vow

/// "done-catch": the chain people write, `firstly { … }.map { … }.done { … }.catch { … }`, inline
/// on one thread, against the same number of `map` steps: ending a chain in `done` and `catch`
/// must cost little more than mapping.
///
/// - Vow: `Promise<Int>.pending()`, then `firstly { promise }`, `map(on: nil) { $0 + 1 }`,
///   `done(on: nil)` adding the value to a sink, and `catch(on: nil)`; `fulfill(1)`.
/// - map steps: inline-map3's Vow chain, `Promise<Int>.pending()` and three `map(on: nil)`,
///   `fulfill(1)`, then the last promise's value added to a sink: the same count of steps.
/// - SwiftNIO: on the loop's own thread, `makePromise`, one `map`, then `whenSuccess` adding to
///   the total and `whenFailure`, and `succeed(1)`.
func doneCatchScenario() -> Scenario {
    let name = "done-catch"
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "map steps", atMost: 1.2))
    return Scenario(name: name) { context in
        let operations = context.size(full: 20_000, quick: 2_000)
        let rounds = context.size(full: 15, quick: 2)
        let loop = context.loop

        let vow = Contender.timed("Vow", divisor: operations) {
            let sink = InlineSink()
            for _ in 0..<operations {
                let (promise, resolver) = Promise<Int>.pending()
                firstly {
                    promise
                }.map(on: nil) {
                    $0 + 1
                }.done(on: nil) {
                    sink.add($0)
                }.catch(on: nil) { error in
                    // The scenario's name spelled out: a closure capturing `name` would allocate
                    // its context on every operation, a cost of this closure and not of Vow,
                    // which the map steps' closures, capturing nothing, do not pay.
                    fail("done-catch Vow: rejected with \(error)")
                }
                resolver.fulfill(1)
            }
            check(sink.total == 2 * operations, "\(name) Vow: total \(sink.total)")
        }
        let maps = Contender.timed("map steps", divisor: operations) {
            let sink = InlineSink()
            for _ in 0..<operations {
                let (promise, resolver) = Promise<Int>.pending()
                let last = promise.map(on: nil) { $0 + 1 }.map(on: nil) { $0 + 1 }.map(on: nil) { $0 + 1 }
                resolver.fulfill(1)
                guard case .success(let value)? = last.result else {
                    fail("\(name) map steps: result \(String(describing: last.result))")
                }
                sink.add(value)
            }
            check(sink.total == 4 * operations, "\(name) map steps: total \(sink.total)")
        }
        let nio = Contender.timed("SwiftNIO", divisor: operations) {
            let submitted = loop.submit {
                let total = NIOLoopBoundBox(0, eventLoop: loop)
                for _ in 0..<operations {
                    let promise = loop.makePromise(of: Int.self)
                    let mapped = promise.futureResult.map { $0 + 1 }
                    mapped.whenSuccess { total.value += $0 }
                    mapped.whenFailure { error in fail("done-catch SwiftNIO: failed with \(error)") }
                    promise.succeed(1)
                }
                return total.value
            }
            let total = waitFor(submitted, "\(name) SwiftNIO")
            check(total == 2 * operations, "\(name) SwiftNIO: total \(total)")
        }
        return measure(
            [vow, maps, nio], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}

/// A sum that handlers add to, on the one thread that runs the whole chain inline.
// @unchecked: every step of the chains that use it runs inline, on the benchmark's own thread,
// so `total` is never touched by two threads.
private final class InlineSink: @unchecked Sendable {
    private(set) var total = 0

    @inline(never)
    func add(_ value: Int) {
        total &+= value
    }
}
