import NIOCore
import Vow

/// The floor for creating a promise: one heap object holding an `Int`.
private final class IntBox {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }
}

/// The floor both creation scenarios share: allocating and releasing one small object per
/// operation, each kept by a ``Sink`` as the promises are.
private func allocationFloor(scenario name: String, operations: Int) -> Contender {
    Contender.timed("allocation", divisor: operations) {
        let sink = Sink()
        for index in 0..<operations {
            sink.keep(IntBox(index))
        }
        let value = (sink.object as? IntBox)?.value
        check(value == operations - 1, "\(name) allocation: last value \(String(describing: value))")
    }
}

/// "creation-resolved": creating and releasing a promise that is resolved from the start.
///
/// Each object goes to a ``Sink``, which holds it until the next one replaces it, so every
/// contender allocates on the heap and releases, and nothing can be kept on the stack.
///
/// - Vow: `Promise.value(i)`.
/// - allocation: one small object holding `i`.
/// - SwiftNIO: `loop.makeSucceededFuture(i)`, from the benchmark thread.
func creationResolvedScenario() -> Scenario {
    let name = "creation-resolved"
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "allocation", atMost: 2.0))
    return Scenario(name: name) { context in
        let operations = context.size(full: 1_000_000, quick: 20_000)
        let rounds = context.size(full: 15, quick: 2)
        let loop = context.loop

        let vow = Contender.timed("Vow", divisor: operations) {
            let sink = Sink()
            for index in 0..<operations {
                sink.keep(Promise.value(index))
            }
            let value = (sink.object as? Promise<Int>)?.value
            check(value == operations - 1, "\(name) Vow: last value \(String(describing: value))")
        }
        let allocation = allocationFloor(scenario: name, operations: operations)
        let nio = Contender.timed("SwiftNIO", divisor: operations) {
            let sink = Sink()
            for index in 0..<operations {
                sink.keep(loop.makeSucceededFuture(index))
            }
            check(sink.object is EventLoopFuture<Int>, "\(name) SwiftNIO: no future kept")
        }
        return measure(
            [vow, allocation, nio], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}

/// "creation-pending": creating a pending promise with its resolver, fulfilling it, and
/// releasing both. It is fulfilled because a resolver released while pending is reported.
///
/// - Vow: `Promise<Int>.pending()`, then `resolver.fulfill(i)`; the promise goes to the sink.
/// - allocation: one small object holding `i`, as for "creation-resolved".
func creationPendingScenario() -> Scenario {
    let name = "creation-pending"
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "allocation", atMost: 4.0))
    return Scenario(name: name) { context in
        let operations = context.size(full: 1_000_000, quick: 20_000)
        let rounds = context.size(full: 15, quick: 2)

        let vow = Contender.timed("Vow", divisor: operations) {
            let sink = Sink()
            for index in 0..<operations {
                let (promise, resolver) = Promise<Int>.pending()
                resolver.fulfill(index)
                sink.keep(promise)
            }
            let value = (sink.object as? Promise<Int>)?.value
            check(value == operations - 1, "\(name) Vow: last value \(String(describing: value))")
        }
        let allocation = allocationFloor(scenario: name, operations: operations)
        return measure(
            [vow, allocation], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
