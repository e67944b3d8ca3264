import Foundation
import Vow

/// "main-actor-chain-3": a chain of three steps written in `@MainActor` code, against three
/// hops to the main queue written by hand. Each step hops, as every queued handler does, so the
/// figure per step should be that of main-actor-hop. The benchmark thread, the main thread,
/// enqueues every chain, then turns the main run loop until every last step has run.
///
/// - Vow: `Guarantee.value(i).map(first).map(second).done(last)`, where each handler is a
///   main-actor closure: three hops.
/// - Dispatch: `DispatchQueue.main.async`, nested three deep, the innermost handing the value
///   on.
func mainActorChainScenario() -> Scenario {
    let name = "main-actor-chain-3"
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "Dispatch", atMost: 1.5))
    return Scenario(name: name) { context in
        let operations = context.size(full: 50_000, quick: 1_000)
        let rounds = context.size(full: 15, quick: 2)
        // The harness runs scenarios on the main thread, the main actor's.
        let tally = MainActor.assumeIsolated { MainActorTally(scenario: name, operations: operations) }
        let first: @isolated(any) @Sendable (Int) -> Int = { @MainActor value in value &+ 1 }
        let second: @isolated(any) @Sendable (Int) -> Int = { @MainActor value in value &- 1 }
        let last: @isolated(any) @Sendable (Int) -> Void = { @MainActor value in tally.add(value) }

        let vow = Contender.timed("Vow", divisor: operations) {
            for index in 0..<operations {
                Guarantee.value(index).map(first).map(second).done(last)
            }
            tally.drain("Vow")
        }
        let dispatch = Contender.timed("Dispatch", divisor: operations) {
            for index in 0..<operations {
                DispatchQueue.main.async {
                    let plusOne = index &+ 1
                    DispatchQueue.main.async {
                        let back = plusOne &- 1
                        DispatchQueue.main.async { tally.add(back) }
                    }
                }
            }
            tally.drain("Dispatch")
        }
        return measure(
            [vow, dispatch], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
