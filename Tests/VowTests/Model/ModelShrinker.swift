import Foundation

/// Turns a failing program into a small one that still fails, by greedy simplification: try
/// each simpler variant in turn, keep the first that still fails, and start over from it,
/// until no variant fails or the budget is spent.
///
/// A failure may depend on timing, so each variant gets several runs, and a variant only
/// counts as passing when all of them pass. The variants, most drastic first: remove a node
/// nothing refers to; replace a node by a source with the outcome the model predicts for it
/// (resolved at once, or pending and resolved, or cancelled, in the step it resolved in); drop
/// a child of a `when` or `race`; simplify what a handler returns; run a closure inline; build
/// on the driver thread; resolve on the driver thread; never resolve a deferred; never cancel
/// a node; build a node a stage earlier.
struct Shrinker {
    /// Runs a program once; its failure, if it failed.
    var check: (Program) -> ModelFailure?
    var attemptsPerVariant = 3
    var maximumRuns = 400
    var timeLimit: TimeInterval = 90

    struct Result {
        var program: Program
        var failure: ModelFailure
        var runs: Int
    }

    func shrink(_ program: Program, failing failure: ModelFailure) -> Result {
        var best = Result(program: program, failure: failure, runs: 0)
        let deadline = Date(timeIntervalSinceNow: timeLimit)
        var improved = true
        while improved && best.runs < maximumRuns && Date() < deadline {
            improved = false
            for variant in variants(of: best.program, expecting: best.failure.expectation)
            where size(of: variant) < size(of: best.program) {
                guard variant.problem == nil, case .success = ReferenceModel.expectation(for: variant) else {
                    continue
                }
                guard best.runs < maximumRuns, Date() < deadline else { break }
                var failed: ModelFailure?
                for _ in 0..<attemptsPerVariant where failed == nil {
                    best.runs += 1
                    failed = check(variant)
                }
                if let failed {
                    best.program = variant
                    best.failure = failed
                    improved = true
                    break
                }
            }
        }
        return best
    }

    /// How complicated a program is; every variant must be smaller than what it varies.
    func size(of program: Program) -> Int {
        var size = program.nodes.count * 1000 + program.steps.count * 100 + program.deferreds.count * 50
        for node in program.nodes {
            // An operator costs more than a source, so that replacing one by the other shrinks.
            if case .source = node.op {} else { size += 200 }
            size += node.group * 20 + node.stage * 10 + node.op.places.count { $0 != .inline } * 10
            size += node.slow ? 3 : 0
            size += node.op.inputs.count * 5
            switch node.op.inner {
            case .deferred?, .node?: size += 8
            case .throwing?, .error?, .rethrow?: size += 2
            default: break
            }
        }
        for step in program.steps {
            if let resolution = step.resolution, resolution.thread != .driver { size += 5 }
            if case .build(racing: _?) = step { size += 20 }
        }
        return size
    }

    private func variants(of program: Program, expecting expectation: Expectation) -> [Program] {
        guard case .success(let kinds) = program.kinds() else { return [] }
        var variants: [Program] = []
        let nodes = program.nodes.indices.reversed()
        for node in nodes {
            if let fewer = program.removingNode(node) { variants.append(fewer) }
        }
        let buildSlots = program.buildSlots
        for node in nodes {
            let outcome = expectation.outcomes[node]
            if case .source(.pending) = program.nodes[node].op {
                if outcome != nil {
                    variants.append(program.replacingWithSource(node, outcome: outcome, kind: kinds[node]))
                }
                continue
            }
            guard !isPlainSource(program.nodes[node].op) else { continue }
            if let outcome, let slot = expectation.resolutionSlots[node] {
                variants.append(program.replacingWithSource(node, outcome: outcome, kind: kinds[node]))
                if slot > buildSlots[program.nodes[node].stage] {
                    variants.append(
                        program.replacingWithPendingSource(
                            node, outcome: outcome, kind: kinds[node], resolvedAfter: slot))
                }
            } else {
                let placeholder: Outcome = .value(0)
                variants.append(
                    program.replacingWithPendingSource(
                        node, outcome: placeholder, kind: kinds[node], resolvedAfter: nil))
            }
        }
        for node in nodes {
            let op = program.nodes[node].op
            if case .when(let children) = op, children.count > 1 {
                variants += children.indices.map {
                    program.replacing(node, with: op.withChildren(removing: $0))
                }
            } else if case .whenResolved(let children) = op, children.count > 1 {
                variants += children.indices.map {
                    program.replacing(node, with: op.withChildren(removing: $0))
                }
            } else if case .race(let children) = op, children.count > 1 {
                variants += children.indices.map {
                    program.replacing(node, with: op.withChildren(removing: $0))
                }
            }
            if let inner = op.inner, inner != .value(0), inner != .guaranteeValue(0) {
                for simpler in [Inner.value(0), .guaranteeValue(0)] {
                    variants.append(program.replacing(node, with: op.withInner(simpler)))
                }
            }
            if op.places.contains(where: { $0 != .inline }) {
                variants.append(program.replacing(node, with: op.moving(to: .inline)))
            }
        }
        for node in nodes where program.nodes[node].slow {
            var edited = program
            edited.nodes[node].slow = false
            variants.append(edited)
        }
        for node in nodes where program.nodes[node].group != 0 {
            var edited = program
            edited.nodes[node].group = 0
            variants.append(edited.normalized())
        }
        for (slot, step) in program.steps.enumerated() {
            guard let resolution = step.resolution else { continue }
            var edited = program
            // Never resolving the deferred.
            if let kept = step.with(nil) { edited.steps[slot] = kept } else { edited.steps.remove(at: slot) }
            variants.append(edited.normalized())
            if step.isBuild {
                // Resolving before the build instead of during it.
                edited = program
                edited.steps[slot] = .build(racing: nil)
                edited.steps.insert(.resolve(resolution), at: slot)
                variants.append(edited)
            } else if resolution.thread != .driver {
                edited = program
                edited.steps[slot] = .resolve(Resolution(deferred: resolution.deferred, thread: .driver))
                variants.append(edited)
            }
        }
        for slot in program.steps.indices where program.steps[slot].cancelled != nil {
            var edited = program
            edited.steps.remove(at: slot)
            variants.append(edited)
        }
        for node in nodes where program.nodes[node].stage > 0 {
            var edited = program
            edited.nodes[node].stage -= 1
            edited.nodes[node].group = 0
            variants.append(edited.normalized())
        }
        return variants
    }

    private func isPlainSource(_ op: Op) -> Bool {
        if case .source = op { return true }
        return false
    }
}

extension Op {
    /// A `when` or `race` without its child at `position`.
    func withChildren(removing position: Int) -> Op {
        var children = inputs
        children.remove(at: position)
        switch self {
        case .when: return .when(children)
        case .whenResolved: return .whenResolved(children)
        case .race: return .race(children)
        default: return self
        }
    }

    func withInner(_ inner: Inner) -> Op {
        switch self {
        case .then(let input, let place, _): .then(input, place, inner)
        case .recover(let input, let place, let policy, _): .recover(input, place, policy, inner)
        case .recoverGuarantee(let input, let place, _): .recoverGuarantee(input, place, inner)
        default: self
        }
    }
}
