import NIOCore
import Vow

/// "inline-map3": the cost of the promise machinery alone, with no thread switch: a pending
/// promise, three inline steps, resolution, and reading the result, all on one thread.
///
/// - Vow: `Promise<Int>.pending()`, three `map(on: nil) { $0 + 1 }`, `fulfill(1)`, then the
///   last promise's `result`, which must be `.success(4)`.
/// - hand-written floor: four ``FloorCell``s, a callback attached to each of the first three
///   that hands `value + 1` to the next; the first is fulfilled with 1 and the last one read.
/// - SwiftNIO: on the loop's own thread, in one submitted block per batch:
///   `loop.makePromise(of: Int.self)`, three `futureResult.map { $0 + 1 }`, `succeed(1)`,
///   and the value read through `whenSuccess`.
func inlineMap3Scenario() -> Scenario {
    let name = "inline-map3"
    let metric = Metric(
        name: name, unit: "ns/op", target: Target(baseline: "hand-written floor", atMost: 2.0))
    return Scenario(name: name) { context in
        let operations = context.size(full: 20_000, quick: 2_000)
        let rounds = context.size(full: 15, quick: 2)
        let loop = context.loop

        let vow = Contender.timed("Vow", divisor: operations) {
            let sink = Sink()
            for _ in 0..<operations {
                let (promise, resolver) = Promise<Int>.pending()
                let last = promise.map(on: nil) { $0 + 1 }.map(on: nil) { $0 + 1 }.map(on: nil) { $0 + 1 }
                resolver.fulfill(1)
                guard case .success(let value)? = last.result, value == 4 else {
                    fail("\(name) Vow: result \(String(describing: last.result)), expected .success(4)")
                }
                sink.add(value)
            }
            check(sink.total == 4 * operations, "\(name) Vow: total \(sink.total)")
        }
        let floor = Contender.timed("hand-written floor", divisor: operations) {
            let sink = Sink()
            for _ in 0..<operations {
                let first = FloorCell.make()
                var last = first
                for _ in 0..<3 {
                    let next = FloorCell.make()
                    last.attach { Handoff(cell: next, value: $0 + 1) }
                    last = next
                }
                FloorCell.settle(first, with: 1)
                guard let value = last.value, value == 4 else {
                    fail("\(name) floor: value \(String(describing: last.value)), expected 4")
                }
                sink.add(value)
            }
            check(sink.total == 4 * operations, "\(name) floor: total \(sink.total)")
        }
        let nio = Contender.timed("SwiftNIO", divisor: operations) {
            let submitted = loop.submit {
                let total = NIOLoopBoundBox(0, eventLoop: loop)
                for _ in 0..<operations {
                    let promise = loop.makePromise(of: Int.self)
                    let last = promise.futureResult.map { $0 + 1 }.map { $0 + 1 }.map { $0 + 1 }
                    promise.succeed(1)
                    last.whenSuccess { total.value += $0 }
                }
                return total.value
            }
            let total = waitFor(submitted, "\(name) SwiftNIO")
            check(total == 4 * operations, "\(name) SwiftNIO: total \(total)")
        }
        return measure(
            [vow, floor, nio], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
