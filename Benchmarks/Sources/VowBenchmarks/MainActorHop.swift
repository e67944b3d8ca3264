import Foundation
import Vow

/// "main-actor-hop": what a handler written in `@MainActor` code costs, against the hop it
/// replaces. Each operation hands one value to the main actor; the benchmark thread, which is
/// the main thread, then turns the main run loop until every handler has run.
///
/// - Vow: `Guarantee.value(i).done(handler)`, where `handler` is a main-actor closure, so
///   that `done` sends it to the main queue: one hop.
/// - Dispatch: `DispatchQueue.main.async { handler(i) }`, written by hand.
func mainActorHopScenario() -> Scenario {
    let name = "main-actor-hop"
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "Dispatch", atMost: 1.5))
    return Scenario(name: name) { context in
        let operations = context.size(full: 100_000, quick: 2_000)
        let rounds = context.size(full: 15, quick: 2)
        // The harness runs scenarios on the main thread, the main actor's.
        let tally = MainActor.assumeIsolated { MainActorTally(scenario: name, operations: operations) }
        let handler: @isolated(any) @Sendable (Int) -> Void = { @MainActor value in tally.add(value) }

        let vow = Contender.timed("Vow", divisor: operations) {
            for index in 0..<operations {
                Guarantee.value(index).done(handler)
            }
            tally.drain("Vow")
        }
        let dispatch = Contender.timed("Dispatch", divisor: operations) {
            for index in 0..<operations {
                DispatchQueue.main.async { tally.add(index) }
            }
            tally.drain("Dispatch")
        }
        return measure(
            [vow, dispatch], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
