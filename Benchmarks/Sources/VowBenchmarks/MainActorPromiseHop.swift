import Foundation
import Vow

/// A value that is not `Sendable`, carried by ``mainActorPromiseScenario()``.
private final class Page {
    let number: Int

    init(_ number: Int) {
        self.number = number
    }
}

/// "main-actor-promise": what a step of a ``MainActorPromise`` costs, against the same step of a
/// shared promise written in `@MainActor` code. Each operation starts a resolved promise and
/// attaches one main-actor handler; the benchmark thread, the main thread, then turns the main
/// run loop until every handler has run.
///
/// - Vow: `MainActorGuarantee.value(Page(i)).done { tally.add($0.number) }`, with a value
///   that is not `Sendable`.
/// - shared: `Guarantee.value(i).done(handler)`, where `handler` is a main-actor closure, as in
///   main-actor-hop.
func mainActorPromiseScenario() -> Scenario {
    let name = "main-actor-promise"
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "shared", atMost: 1.0))
    return Scenario(name: name) { context in
        let operations = context.size(full: 100_000, quick: 2_000)
        let rounds = context.size(full: 15, quick: 2)
        // The harness runs scenarios on the main thread, the main actor's.
        let tally = MainActor.assumeIsolated { MainActorTally(scenario: name, operations: operations) }
        let handler: @isolated(any) @Sendable (Int) -> Void = { @MainActor value in tally.add(value) }

        let vow = Contender.timed("Vow", divisor: operations) {
            MainActor.assumeIsolated {
                for index in 0..<operations {
                    MainActorGuarantee.value(Page(index)).done { tally.add($0.number) }
                }
            }
            tally.drain("Vow")
        }
        let shared = Contender.timed("shared", divisor: operations) {
            for index in 0..<operations {
                Guarantee.value(index).done(handler)
            }
            tally.drain("shared")
        }
        return measure(
            [vow, shared], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
