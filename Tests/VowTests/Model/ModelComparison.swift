/// A program that ran differently from its model, and how.
struct ModelFailure: Sendable {
    var discrepancies: [String]
    var expectation: Expectation
    var observation: Observation
}

enum ModelCheck {
    /// Runs `program` on Vow and compares the run with the model; `nil` when they agree.
    ///
    /// - Precondition: the model can predict `program`.
    static func failure(of program: Program, patience: Double) -> ModelFailure? {
        guard case .success(let expectation) = ReferenceModel.expectation(for: program) else {
            preconditionFailure("only predictable programs are run")
        }
        return failure(of: program, expecting: expectation, patience: patience)
    }

    static func failure(of program: Program, expecting expectation: Expectation, patience: Double)
        -> ModelFailure?
    {
        let observation = Execution.run(program, expecting: expectation, patience: patience)
        let found = discrepancies(in: observation, expected: expectation, program: program)
        return found.isEmpty
            ? nil : ModelFailure(discrepancies: found, expectation: expectation, observation: observation)
    }

    /// Every way `observation` departs from `expected`, as sentences.
    static func discrepancies(in observation: Observation, expected: Expectation, program: Program)
        -> [String]
    {
        let names = ProgramPrinter.names(of: program)
        var found: [String] = []
        if let stall = observation.stall { found.append("the run stalled: \(stall)") }

        // Resolution times, after each quiet step, one sentence per node at most.
        var reported = Set<Int>()
        for (slot, resolved) in observation.resolvedAfterSlot.enumerated() {
            for (node, isResolved) in resolved.enumerated() where !reported.contains(node) {
                guard let isResolved else { continue }
                let due = expected.resolutionSlots[node]
                guard isResolved != (due.map { $0 <= slot } ?? false) else { continue }
                reported.insert(node)
                let when = due.map { "in step \($0)" } ?? "never"
                found.append(
                    "after step \(slot), \(names[node]) was \(isResolved ? "resolved" : "pending"); "
                        + "it should resolve \(when)")
            }
        }

        if observation.stall == nil {
            for (node, outcome) in observation.outcomes.enumerated() where outcome != expected.outcomes[node]
            {
                let predicted = describe(expected.outcomes[node])
                found.append("\(names[node]) ended \(describe(outcome)); the model says \(predicted)")
            }
        }

        // Side effects: each expected one exactly once, in its step, on an allowed queue.
        var positions: [EventID: Int] = [:]
        for (position, entry) in observation.entries.enumerated() {
            guard positions[entry.event] == nil else {
                found.append("\(entry.event) happened more than once")
                continue
            }
            positions[entry.event] = position
            guard let due = expected.events[entry.event] else {
                found.append("\(entry.event) happened in step \(entry.slot); the model says it never runs")
                continue
            }
            if entry.slot != due.slot {
                found.append("\(entry.event) happened in step \(entry.slot); the model says step \(due.slot)")
            }
            if !due.queues.contains(entry.queue) {
                let allowed = due.queues.sorted().map(\.description).joined(separator: " or ")
                found.append("\(entry.event) ran on \(entry.queue); the model says \(allowed)")
            }
        }
        if observation.stall == nil {
            for event in expected.events.keys.sorted() where positions[event] == nil {
                found.append("\(event) never happened; the model says step \(expected.events[event]!.slot)")
            }
        }
        for order in expected.orders {
            if let before = positions[order.before], let after = positions[order.after], before > after {
                found.append("\(order.after) happened before \(order.before); Vow promises the opposite")
            }
        }
        return found
    }

    private static func describe(_ outcome: Outcome?) -> String {
        switch outcome {
        case nil: "pending"
        case .value(let value)?: "fulfilled with \(value)"
        case .error(let id)?: "rejected with E\(id)"
        case .cancelled?: "cancelled"
        case .foreign(let text)?: "rejected with \(text)"
        }
    }
}
