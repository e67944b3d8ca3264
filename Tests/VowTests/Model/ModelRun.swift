import Foundation

/// The cases of one test run, and what they found.
struct ModelRun {
    struct Report: Sendable {
        var summary: String
        var failure: String?
    }

    let settings: ModelSettings

    /// Programs grow with the case index, cycling, so small programs, which are quick and whose
    /// failures read easily, come first and often.
    static func maximumNodes(forCase index: Int) -> Int {
        4 + (index % 6) * 5
    }

    func run() -> Report {
        let started = Date()
        var statistics = Statistics()
        for seed in settings.seeds {
            let cases = settings.onlyCase.map { [$0] } ?? Array(0..<settings.casesPerSeed)
            for index in cases {
                let program = ProgramGenerator.program(
                    seed: SplitMix64.caseSeed(seed, index: index),
                    maximumNodes: Self.maximumNodes(forCase: index))
                guard case .success(let expectation) = ReferenceModel.expectation(for: program) else {
                    preconditionFailure("the generator only writes predictable programs")
                }
                for _ in 0..<settings.repeats {
                    statistics.count(program, expectation)
                    if let failure = ModelCheck.failure(
                        of: program, expecting: expectation, patience: settings.patience)
                    {
                        let summary = statistics.summary(seeds: settings.seeds, since: started)
                        return Report(
                            summary: summary, failure: report(failure, of: program, seed: seed, index: index))
                    }
                }
            }
        }
        return Report(summary: statistics.summary(seeds: settings.seeds, since: started), failure: nil)
    }

    private func report(_ failure: ModelFailure, of program: Program, seed: UInt64, index: Int) -> String {
        // Small programs quiet down within milliseconds; a shorter patience keeps shrinking a
        // hang from taking minutes. At worst a slow run passes for a failing one, and the
        // reruns below show how reliably the result fails.
        let patience = min(settings.patience, 2)
        let shrinker = Shrinker { ModelCheck.failure(of: $0, patience: patience) }
        let shrunk = shrinker.shrink(program, failing: failure)
        let reruns = 10
        let failedReruns = (0..<reruns).count { _ in
            ModelCheck.failure(of: shrunk.program, patience: patience) != nil
        }
        let seedText = "0x" + String(seed, radix: 16, uppercase: true)
        let names = ProgramPrinter.names(of: shrunk.program)
        let (minimal, runs) = (shrunk.program, shrunk.runs)
        return """
            Vow disagrees with the reference model: seed \(seedText), case \(index).
            Replay: VOW_MODEL_SEED=\(seedText) VOW_MODEL_CASE=\(index) swift test --filter ModelTests
            Shrunk from \(program.nodes.count) nodes and \(program.steps.count) steps to \
            \(minimal.nodes.count) nodes and \(minimal.steps.count) steps in \(runs) runs; \
            the minimal program failed \(failedReruns) of \(reruns) reruns.

            Discrepancies:
            \(shrunk.failure.discrepancies.map { "  - " + $0 }.joined(separator: "\n"))
            (The original program's first: \(failure.discrepancies[0]))

            Minimal reproduction:
            \(ProgramPrinter.swift(shrunk.program))

            The model predicts: \(ProgramPrinter.expectations(shrunk.failure.expectation, names: names))
            The run recorded:
            \(ProgramPrinter.journal(shrunk.failure.observation.entries))
            """
    }
}

/// What the cases covered, for the summary line.
struct Statistics {
    var cases = 0
    var nodes = 0
    var events = 0
    var orders = 0
    var races = 0
    var threadedStages = 0
    var racingResolutions = 0
    var cancellations = 0
    /// Cancellations that found their node pending, and so settled it.
    var effectiveCancellations = 0

    mutating func count(_ program: Program, _ expectation: Expectation) {
        cases += 1
        nodes += program.nodes.count
        events += expectation.events.count
        orders += expectation.orders.count
        races += program.nodes.count {
            if case .race(let children) = $0.op { children.count > 1 } else { false }
        }
        threadedStages += program.buildSlots.indices.count { program.groups(ofStage: $0).count > 1 }
        racingResolutions += program.steps.count { $0.isBuild && $0.resolution != nil }
        for (slot, step) in program.steps.enumerated() {
            guard let node = step.cancelled else { continue }
            cancellations += 1
            // Nothing else happens in a cancel step's slot: a node settled then was cancelled.
            if expectation.resolutionSlots[node] == slot { effectiveCancellations += 1 }
        }
    }

    func summary(seeds: [UInt64], since start: Date) -> String {
        let seedList = seeds.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ", ")
        let seconds = String(format: "%.1f", Date().timeIntervalSince(start))
        return
            "Vow model test: \(cases) cases from seeds \(seedList): \(nodes) nodes, \(events) side effects, "
            + "\(orders) ordering constraints, \(races) races of several contenders, "
            + "\(threadedStages) stages built on several threads, "
            + "\(racingResolutions) resolutions racing a build, "
            + "\(cancellations) cancellations (\(effectiveCancellations) of pending nodes), "
            + "in \(seconds) s"
    }
}
