import Foundation
import Vow

/// Counts the handlers that ran, on the main actor, for ``mainActorHopScenario()``.
@MainActor private final class MainActorCounter {
    var count = 0
    var sum = 0

    func add(_ value: Int) {
        count += 1
        sum &+= value
    }
}

/// "main-actor-hop": what a handler written in `@MainActor` code costs, against the hop it
/// replaces. Each operation hands one value to the main actor; the benchmark thread, which is
/// the main thread, then turns the main run loop until every handler has run.
///
/// - Vow: `Guarantee.value(i).done(handler)`, where `handler` is a main-actor closure, so
///   that `done` sends it to the main queue: one hop.
/// - Dispatch: `DispatchQueue.main.async { handler(i) }`, written by hand.
func mainActorHopScenario() -> Scenario {
    let name = "main-actor-hop"
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "Dispatch", atMost: 2.0))
    return Scenario(name: name) { context in
        let operations = context.size(full: 100_000, quick: 2_000)
        let rounds = context.size(full: 15, quick: 2)
        // The harness runs scenarios on the main thread, the main actor's.
        let counter = MainActor.assumeIsolated { MainActorCounter() }
        let handler: @isolated(any) @Sendable (Int) -> Void = { @MainActor value in counter.add(value) }
        let expectedSum = (0..<operations).reduce(0, &+)

        /// Turns the main run loop until every handler of the round has run, then checks them.
        func drain(_ contender: String) {
            let finished = {
                MainActor.assumeIsolated { counter.count == operations }
            }
            while !finished() {
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
            }
            MainActor.assumeIsolated {
                check(
                    counter.sum == expectedSum,
                    "\(name) \(contender): sum \(counter.sum), expected \(expectedSum)")
                counter.count = 0
                counter.sum = 0
            }
        }

        let vow = Contender.timed("Vow", divisor: operations) {
            for index in 0..<operations {
                Guarantee.value(index).done(handler)
            }
            drain("Vow")
        }
        let dispatch = Contender.timed("Dispatch", divisor: operations) {
            for index in 0..<operations {
                DispatchQueue.main.async { counter.add(index) }
            }
            drain("Dispatch")
        }
        return measure(
            [vow, dispatch], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
