// Edits of a program, shared by the generator, which repairs programs the model cannot
// predict, and the shrinker, which simplifies failing ones. Each returns a program with no
// unused deferreds, no empty stages and no cancel step for a node that can no longer be
// cancelled; whether the result is valid is for `problem` to say.

extension Program {
    /// The program with node `node` doing `op` instead.
    func replacing(_ node: Int, with op: Op) -> Program {
        var edited = self
        edited.nodes[node].op = op
        return edited.normalized()
    }

    /// The program with node `node` resolving to `outcome` at once, as a source of its kind.
    func replacingWithSource(_ node: Int, outcome: Outcome?, kind: Kind) -> Program {
        switch (outcome, kind) {
        case (.value(let value)?, .promise): replacing(node, with: .source(.value(value)))
        case (.error(let id)?, .promise): replacing(node, with: .source(.error(id)))
        case (.value(let value)?, .guarantee): replacing(node, with: .source(.guaranteeValue(value)))
        default: replacing(node, with: kind == .promise ? .source(.value(0)) : .source(.guaranteeValue(0)))
        }
    }

    /// The program with node `node` a pending source that a step after `slot` resolves with
    /// `outcome`, or that never resolves if `slot` is `nil`. A cancelled node is cancelled
    /// there instead, unless a step cancels it already.
    func replacingWithPendingSource(_ node: Int, outcome: Outcome, kind: Kind, resolvedAfter slot: Int?)
        -> Program
    {
        var edited = self
        let isCancelled = outcome == .cancelled
        edited.deferreds.append(Deferred(kind: kind, outcome: isCancelled ? .value(0) : outcome))
        let deferred = edited.deferreds.count - 1
        edited.nodes[node].op = .source(.pending(deferred))
        if let slot, !isCancelled {
            edited.steps.insert(.resolve(Resolution(deferred: deferred, thread: .driver)), at: slot + 1)
        } else if let slot, !steps.contains(.cancel(node)) {
            edited.steps.insert(.cancel(node), at: slot + 1)
        }
        return edited.normalized()
    }

    /// The program without node `node` and the steps that cancel it, or `nil` if another node
    /// refers to it.
    func removingNode(_ node: Int) -> Program? {
        guard !nodes.contains(where: { $0.op.references.contains(node) }) else { return nil }
        var edited = self
        edited.nodes.remove(at: node)
        for index in edited.nodes.indices {
            edited.nodes[index].op = edited.nodes[index].op.renumberingNodes { $0 > node ? $0 - 1 : $0 }
        }
        edited.steps = steps.compactMap { step in
            guard let cancelled = step.cancelled else { return step }
            return cancelled == node ? nil : .cancel(cancelled > node ? cancelled - 1 : cancelled)
        }
        return edited.normalized()
    }

    /// Drops deferreds no node uses, with their steps, and build steps of stages without nodes.
    func normalized() -> Program {
        var edited = self
        let used = Set(nodes.flatMap(\.op.deferreds))
        let kept = deferreds.indices.filter { used.contains($0) }
        var newIndex: [Int: Int] = [:]
        for (position, deferred) in kept.enumerated() { newIndex[deferred] = position }
        edited.deferreds = kept.map { deferreds[$0] }
        for index in edited.nodes.indices {
            edited.nodes[index].op = edited.nodes[index].op.renumberingDeferreds { newIndex[$0]! }
        }
        edited.steps = steps.compactMap { step in
            guard let resolution = step.resolution else { return step }
            return step.with(
                newIndex[resolution.deferred].map { Resolution(deferred: $0, thread: resolution.thread) })
        }
        // Stages without nodes lose their build step; later stages move down.
        let stages = buildSlots.count
        let occupied = (0..<stages).filter { stage in edited.nodes.contains { $0.stage == stage } }
        if occupied.count < stages {
            var newStage: [Int: Int] = [:]
            for (position, stage) in occupied.enumerated() { newStage[stage] = position }
            var stage = 0
            edited.steps = edited.steps.compactMap { step in
                guard step.isBuild else { return step }
                defer { stage += 1 }
                // An empty stage built while resolving leaves the resolving.
                return newStage[stage] != nil ? step : step.resolution.map(Step.resolve)
            }
            for index in edited.nodes.indices {
                edited.nodes[index].stage = newStage[edited.nodes[index].stage]!
            }
        }
        // An edit can turn the node a step cancels into one that cannot be cancelled, such as
        // a `catch` replaced by the guarantee it resolved.
        if case .success(let kinds) = edited.kinds() {
            let unrunnable = Set(
                edited.steps.indices.filter { edited.cancelProblem(at: $0, kinds: kinds) != nil })
            edited.steps = edited.steps.indices.filter { !unrunnable.contains($0) }.map { edited.steps[$0] }
        }
        return edited
    }
}

extension Op {
    func renumberingNodes(_ renumber: (Int) -> Int) -> Op {
        func inner(_ inner: Inner) -> Inner {
            if case .node(let node) = inner { return .node(renumber(node)) }
            return inner
        }
        switch self {
        case .source: return self
        case .map(let input, let place, let transform): return .map(renumber(input), place, transform)
        case .then(let input, let place, let body): return .then(renumber(input), place, inner(body))
        case .recover(let input, let place, let policy, let body):
            return .recover(renumber(input), place, policy, inner(body))
        case .recoverGuarantee(let input, let place, let body):
            return .recoverGuarantee(renumber(input), place, inner(body))
        case .ensure(let input, let place): return .ensure(renumber(input), place)
        case .get(let input, let place, let throwing): return .get(renumber(input), place, throwing: throwing)
        case .tap(let input, let place): return .tap(renumber(input), place)
        case .catch(let input, let place, let policy, let finally):
            return .catch(renumber(input), place, policy, finally: finally)
        case .when(let children): return .when(children.map(renumber))
        case .whenResolved(let children): return .whenResolved(children.map(renumber))
        case .race(let children): return .race(children.map(renumber))
        case .firstly(let input): return .firstly(renumber(input))
        }
    }

    func renumberingDeferreds(_ renumber: (Int) -> Int) -> Op {
        func inner(_ inner: Inner) -> Inner {
            if case .deferred(let deferred) = inner { return .deferred(renumber(deferred)) }
            return inner
        }
        switch self {
        case .source(.pending(let deferred)): return .source(.pending(renumber(deferred)))
        case .then(let input, let place, let body): return .then(input, place, inner(body))
        case .recover(let input, let place, let policy, let body):
            return .recover(input, place, policy, inner(body))
        case .recoverGuarantee(let input, let place, let body):
            return .recoverGuarantee(input, place, inner(body))
        default: return self
        }
    }

    /// The op with its closure, or closures, on `place` instead.
    func moving(to place: Place) -> Op {
        switch self {
        case .map(let input, _, let transform): .map(input, place, transform)
        case .then(let input, _, let inner): .then(input, place, inner)
        case .recover(let input, _, let policy, let inner): .recover(input, place, policy, inner)
        case .recoverGuarantee(let input, _, let inner): .recoverGuarantee(input, place, inner)
        case .ensure(let input, _): .ensure(input, place)
        case .get(let input, _, let throwing): .get(input, place, throwing: throwing)
        case .tap(let input, _): .tap(input, place)
        case .catch(let input, _, let policy, _): .catch(input, place, policy, finally: place)
        default: self
        }
    }

    /// Where its closures run, if it has any.
    var places: [Place] {
        switch self {
        case .map(_, let place, _), .then(_, let place, _), .recover(_, let place, _, _),
            .recoverGuarantee(_, let place, _), .ensure(_, let place), .get(_, let place, _),
            .tap(_, let place):
            [place]
        case .catch(_, let place, _, let finally): [place, finally]
        default: []
        }
    }
}
