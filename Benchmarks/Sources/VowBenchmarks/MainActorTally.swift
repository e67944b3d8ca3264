import Foundation

/// Counts the handlers that a main-actor scenario's round ran, on the main actor, and lets the
/// benchmark thread, which is the main thread, wait for them all.
@MainActor final class MainActorTally {
    private let scenario: String
    private let operations: Int
    private let expectedSum: Int
    private var count = 0
    private var sum = 0

    /// A tally for rounds of `operations` handlers, handed the values `0..<operations`.
    init(scenario: String, operations: Int) {
        self.scenario = scenario
        self.operations = operations
        self.expectedSum = (0..<operations).reduce(0, &+)
    }

    /// Records one handler's value.
    func add(_ value: Int) {
        count += 1
        sum &+= value
    }

    /// Turns the main run loop until every handler of the round has run, checks that each value
    /// arrived once, and starts the next round from zero.
    ///
    /// It is nonisolated so that a timed closure, which is not, can call it; the harness runs
    /// scenarios on the main thread, so each read of the tally is on the main actor.
    nonisolated func drain(_ contender: String) {
        while !MainActor.assumeIsolated({ count == operations }) {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 1))
        }
        MainActor.assumeIsolated {
            check(sum == expectedSum, "\(scenario) \(contender): sum \(sum), expected \(expectedSum)")
            count = 0
            sum = 0
        }
    }
}
