import Foundation
import Vow

/// A value that is not `Sendable`, carried by ``mainActorPromiseScenario()``.
private final class Page {
    let number: Int

    init(_ number: Int) {
        self.number = number
    }
}

/// Counts the handlers that ran, on the main actor, for ``mainActorPromiseScenario()``.
@MainActor private final class PageCounter {
    var count = 0
    var sum = 0

    func add(_ value: Int) {
        count += 1
        sum &+= value
    }
}

/// "main-actor-promise": what a step of a ``MainActorPromise`` costs, against the same step of a
/// shared promise written in `@MainActor` code. Each operation starts a resolved promise and
/// attaches one main-actor handler; the benchmark thread, the main thread, then turns the main
/// run loop until every handler has run.
///
/// - Vow: `MainActorGuarantee.value(Page(i)).done { counter.add($0.number) }`, with a value
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
        let counter = MainActor.assumeIsolated { PageCounter() }
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
            MainActor.assumeIsolated {
                for index in 0..<operations {
                    MainActorGuarantee.value(Page(index)).done { counter.add($0.number) }
                }
            }
            drain("Vow")
        }
        let shared = Contender.timed("shared", divisor: operations) {
            for index in 0..<operations {
                Guarantee.value(index).done(handler)
            }
            drain("shared")
        }
        return measure(
            [vow, shared], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}
