/// Writes a random program from a seed: a few build stages, each node a source or an operator
/// on earlier nodes it can see, and resolve steps for the pending sources between the stages;
/// in three programs in ten, up to three steps that cancel a node.
///
/// The weights favour what finds bugs in a futures library: chains, several handlers on one
/// promise, inline and queued steps mixed, promises resolved before and after handlers are
/// attached, and handlers attached from several threads at once.
struct ProgramGenerator {
    /// The longest chain of operators: together with the reference model's nesting limit, it keeps
    /// inline handler runs well inside Vow's trampoline depth, where their order is specified.
    static let maximumDepth = 6

    private enum Choice {
        case source, map, then, recover, recoverGuarantee, ensure, get, tap, `catch`
        case when, whenResolved, race, firstly
    }

    private static let choices: [(weight: Int, choice: Choice)] = [
        (16, .source), (14, .map), (12, .then), (10, .recover), (3, .recoverGuarantee), (6, .ensure),
        (6, .get), (4, .tap), (5, .catch), (6, .when), (4, .whenResolved), (10, .race), (3, .firstly),
    ]

    private var random: SplitMix64
    private let stages: Int
    private var nodes: [Node] = []
    private var deferreds: [Deferred] = []
    private var kinds: [Kind] = []
    private var depths: [Int] = []
    /// The resolve steps that follow each build stage.
    private var resolutions: [[Step]]
    /// The resolution that races each build stage, if any.
    private var racing: [Resolution?]
    /// For each stage, the nodes that wait for the deferred its resolution races with, so the
    /// stage can favour attaching handlers to them: that is where attaching races resolving.
    private var racers: [Set<Int>]
    /// The racers of the stage being generated.
    private var currentRacers: Set<Int> = []

    private init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        stages = random.int(in: 1...4)
        resolutions = Array(repeating: [], count: stages)
        racing = Array(repeating: nil, count: stages)
        racers = Array(repeating: [], count: stages)
    }

    /// A program the model can predict, of at most `maximumNodes` nodes.
    static func program(seed: UInt64, maximumNodes: Int) -> Program {
        var generator = ProgramGenerator(seed: seed)
        return repaired(generator.generate(maximumNodes: maximumNodes))
    }

    private mutating func generate(maximumNodes: Int) -> Program {
        let count = random.int(in: 1...maximumNodes)
        let stageOfNode = (0..<count).map { _ in random.int(in: 0..<stages) }.sorted()
        let groupsOfStage = (0..<stages).map { _ in random.chance(30) ? random.int(in: 2...3) : 1 }
        for index in 0..<count {
            let stage = stageOfNode[index]
            // Stages before a racing one favour the racers too: their handlers are the ones
            // the resolution runs while the racing stage attaches more.
            currentRacers = racers[stage...].reduce(into: []) { $0.formUnion($1) }
            // The placeholder lets `candidates` see the new node's stage and group.
            nodes.append(
                Node(
                    op: .source(.value(0)), stage: stage, group: random.int(in: 0..<groupsOfStage[stage]),
                    slow: random.chance(15)))
            let op = operation(for: index)
            nodes[index].op = op
            let partial = Program(nodes: nodes, deferreds: deferreds, steps: [])
            guard let kind = partial.kind(of: op, kinds: kinds) else {
                preconditionFailure("the generator wrote an ill-typed node: \(op)")
            }
            kinds.append(kind)
            depths.append((op.references.map { depths[$0] }.max()).map { $0 + 1 } ?? 0)
            for later in racers.indices {
                guard let racer = racing[later] else { continue }
                if op.deferreds.contains(racer.deferred)
                    || op.references.contains(where: racers[later].contains)
                {
                    racers[later].insert(index)
                    // Slow handlers already attached keep the racing resolution busy while the
                    // later stage attaches more.
                    if later > stage && random.chance(50) { nodes[index].slow = true }
                }
            }
        }
        // Drawn after the nodes, so that the nodes of a seed stay as they were without them.
        // A cancelled node withdraws: its handler leaves the nodes it waits for while their
        // other consumers go on waiting, and the model checks that it never runs.
        if random.chance(30) {
            for _ in 0..<random.int(in: 1...3) { addCancellation() }
        }
        let steps = (0..<stages).flatMap { [Step.build(racing: racing[$0])] + resolutions[$0] }
        return Program(nodes: nodes, deferreds: deferreds, steps: steps).normalized()
    }

    /// Adds a step that cancels a node, among the resolve steps of a stage from the node's on.
    /// Cancelling a resolved node does nothing, so it favours nodes that wait for a deferred
    /// still pending once they are built, and a step before the last of those is resolved.
    private mutating func addCancellation() {
        let program = Program(nodes: nodes, deferreds: deferreds, steps: [])
        // The deferreds each node waits for, itself or through the nodes it refers to, that no
        // step before its build resolves.
        var waitsFor: [Set<Int>] = []
        for node in nodes {
            let all = node.op.references.reduce(into: Set(node.op.deferreds)) { $0.formUnion(waitsFor[$1]) }
            waitsFor.append(all.filter { resolutionPlace(of: $0).map { $0.stage >= node.stage } ?? true })
        }
        let cancellable = nodes.indices.filter { program.isCancellable($0, kinds: kinds) }
        guard !cancellable.isEmpty else { return }
        let waiting = cancellable.filter { !waitsFor[$0].isEmpty }
        let node = random.element(of: !waiting.isEmpty && random.chance(90) ? waiting : cancellable)
        var latest = (stage: stages - 1, position: resolutions[stages - 1].count)
        let places = waitsFor[node].sorted().map(resolutionPlace)
        if !places.isEmpty, !places.contains(where: { $0 == nil }), random.chance(85) {
            latest = places.compactMap { $0 }.max { ($0.stage, $0.position) < ($1.stage, $1.position) }!
        }
        let stage = random.int(in: nodes[node].stage...latest.stage)
        let position = random.int(
            in: 0...(stage == latest.stage ? latest.position : resolutions[stage].count))
        resolutions[stage].insert(.cancel(node), at: position)
    }

    /// Where the step that resolves `deferred` is, as a stage and a position among the resolve
    /// steps after its build, or `nil` if no step resolves it. A resolution racing a build,
    /// never the first, is at the end of the stage before.
    private func resolutionPlace(of deferred: Int) -> (stage: Int, position: Int)? {
        if let stage = racing.firstIndex(where: { $0?.deferred == deferred }) {
            return (stage - 1, resolutions[stage - 1].count)
        }
        for (stage, steps) in resolutions.enumerated() {
            if let position = steps.firstIndex(where: { $0.resolution?.deferred == deferred }) {
                return (stage, position)
            }
        }
        return nil
    }

    /// Edits away what the model cannot predict: a `race` or `when` whose first result depends
    /// on timing loses its last child, or, when it has one, becomes a source; so does a node
    /// nested too deeply.
    static func repaired(_ program: Program) -> Program {
        var program = program
        // Each edit makes the program simpler, so this ends; the bound only guards the test.
        for _ in 0..<(4 * program.nodes.count + 4) {
            guard case .failure(let problem) = ReferenceModel.expectation(for: program) else {
                return program
            }
            guard case .success(let kinds) = program.kinds() else {
                preconditionFailure("the generator wrote an ill-formed program: \(problem)")
            }
            let node = problem.node ?? program.depths.indices.max { program.depths[$0] < program.depths[$1] }!
            var fewer: Program?
            switch program.nodes[node].op {
            case .race(let children) where children.count > 1:
                fewer = program.replacing(node, with: .race(Array(children.dropLast())))
            case .when(let children) where children.count > 1:
                fewer = program.replacing(node, with: .when(Array(children.dropLast())))
            default:
                break
            }
            if let fewer, fewer.problem == nil {
                program = fewer
            } else {
                program = program.replacingWithSource(node, outcome: nil, kind: kinds[node])
            }
        }
        preconditionFailure("the generator could not repair a program")
    }

    // MARK: Nodes

    private mutating func operation(for index: Int) -> Op {
        let stage = nodes[index].stage
        for _ in 0..<4 {
            switch random.weighted(Self.choices) {
            case .source:
                return .source(source(stage: stage))
            case .map:
                guard let input = pick(candidates(for: index)) else { continue }
                return .map(input, place(), random.chance(85) ? .add(offset()) : .throwing(errorID()))
            case .then:
                guard let input = pick(candidates(for: index)) else { continue }
                return .then(input, place(), inner(for: index, recovering: false))
            case .recover:
                guard let input = pick(candidates(for: index, kind: .promise)) else { continue }
                return .recover(input, place(), policy(), inner(for: index, recovering: true))
            case .recoverGuarantee:
                guard let input = pick(candidates(for: index, kind: .promise)) else { continue }
                return .recoverGuarantee(input, place(), guaranteeInner(for: index))
            case .ensure:
                guard let input = pick(candidates(for: index, kind: .promise)) else { continue }
                return .ensure(input, place())
            case .get:
                guard let input = pick(candidates(for: index)) else { continue }
                return .get(input, place(), throwing: random.chance(20) ? errorID() : nil)
            case .tap:
                guard let input = pick(candidates(for: index)) else { continue }
                return .tap(input, place())
            case .catch:
                guard let input = pick(candidates(for: index, kind: .promise)) else { continue }
                return .catch(input, place(), policy(), finally: place())
            case .when:
                guard let children = children(for: index, count: random.int(in: 2...4)) else { continue }
                return .when(children)
            case .whenResolved:
                guard let children = children(for: index, count: random.int(in: 2...4)) else { continue }
                return .whenResolved(children)
            case .race:
                guard let children = children(for: index, count: random.int(in: 1...4)) else { continue }
                return .race(children)
            case .firstly:
                guard let input = pick(candidates(for: index)) else { continue }
                return .firstly(input)
            }
        }
        return .source(source(stage: stage))
    }

    /// The nodes node `index` may refer to: visible, shallow enough, of the kind asked for.
    private func candidates(for index: Int, kind: Kind? = nil) -> [Int] {
        let program = Program(nodes: nodes, deferreds: deferreds, steps: [])
        return (0..<index).filter { earlier in
            program.isVisible(earlier, from: index) && depths[earlier] < Self.maximumDepth
                && (kind == nil || kinds[earlier] == kind)
        }
    }

    /// Mostly one of the newest candidates, which makes chains; otherwise any, which makes
    /// several handlers on one promise.
    private mutating func pick(_ candidates: [Int]) -> Int? {
        guard !candidates.isEmpty else { return nil }
        let racing = candidates.filter(currentRacers.contains)
        if !racing.isEmpty && random.chance(50) {
            // The first racer is the one the resolution resolves directly.
            return random.chance(50) ? racing[0] : random.element(of: racing)
        }
        return random.chance(60)
            ? random.element(of: Array(candidates.suffix(3))) : random.element(of: candidates)
    }

    private mutating func children(for index: Int, count: Int) -> [Int]? {
        let candidates = candidates(for: index)
        guard !candidates.isEmpty else { return nil }
        return (0..<count).map { _ in pick(candidates)! }
    }

    private mutating func source(stage: Int) -> Source {
        switch random.int(in: 0..<100) {
        case ..<32: .value(value())
        case ..<44: .error(errorID())
        case ..<60: .guaranteeValue(value())
        case ..<88: .pending(deferred(kind: .promise, resolvedFrom: stage))
        default: .pending(deferred(kind: .guarantee, resolvedFrom: stage))
        }
    }

    /// What a `then` or promise-returning `recover` body returns.
    private mutating func inner(for index: Int, recovering: Bool) -> Inner {
        switch random.int(in: 0..<100) {
        case ..<28: return .value(offset())
        case ..<34: return .error(errorID())
        case ..<42: return .throwing(errorID())
        case ..<52: return recovering ? .rethrow : .guaranteeValue(offset())
        case ..<60: return .guaranteeValue(offset())
        case ..<82:
            return .deferred(deferred(kind: random.chance(75) ? .promise : .guarantee, resolvedFrom: 0))
        default: return pick(candidates(for: index)).map(Inner.node) ?? .value(offset())
        }
    }

    /// What a guarantee-returning `recover` body returns.
    private mutating func guaranteeInner(for index: Int) -> Inner {
        switch random.int(in: 0..<100) {
        case ..<55: return .guaranteeValue(offset())
        case ..<80: return .deferred(deferred(kind: .guarantee, resolvedFrom: 0))
        default:
            return pick(candidates(for: index, kind: .guarantee)).map(Inner.node) ?? .guaranteeValue(offset())
        }
    }

    /// A new deferred, resolved after build stage `stage` or a later one, or, rarely, never.
    private mutating func deferred(kind: Kind, resolvedFrom stage: Int) -> Int {
        let outcome: Outcome = kind == .guarantee || random.chance(70) ? .value(value()) : .error(errorID())
        deferreds.append(Deferred(kind: kind, outcome: outcome))
        let deferred = deferreds.count - 1
        guard !random.chance(5) else { return deferred }
        let after = random.int(in: stage..<stages)
        if after + 1 < stages, racing[after + 1] == nil, random.chance(50) {
            // Resolved on another thread while the next stage attaches handlers.
            let thread = random.weighted([(1, ActionThread.serial0), (1, .concurrent), (1, .global)])
            racing[after + 1] = Resolution(deferred: deferred, thread: thread)
            return deferred
        }
        let thread = random.weighted([
            (40, ActionThread.driver), (20, .serial0), (20, .concurrent), (20, .global),
        ])
        let step = Step.resolve(Resolution(deferred: deferred, thread: thread))
        resolutions[after].insert(step, at: random.int(in: 0...resolutions[after].count))
        return deferred
    }

    private mutating func place() -> Place {
        random.weighted([(50, Place.inline), (18, .serial0), (12, .serial1), (20, .concurrent)])
    }

    private mutating func policy() -> Policy {
        random.chance(65) ? .allErrorsExceptCancellation : .allErrors
    }

    private mutating func value() -> Int { random.int(in: 0..<100) }
    private mutating func offset() -> Int { random.int(in: 1...9) }
    private mutating func errorID() -> Int { random.int(in: ModelError.ids) }
}
