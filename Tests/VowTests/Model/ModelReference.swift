/// What a program must do when run on Vow, as far as Vow promises anything.
struct Expectation: Sendable {
    /// Each node's final outcome, or `nil` if it never resolves.
    var outcomes: [Outcome?]
    /// The slot (step) during which each node resolves, or `nil` if it never does.
    var resolutionSlots: [Int?]
    /// Every side effect that must happen, and nothing else.
    var events: [EventID: ExpectedEvent]
    /// Pairs of side effects of one slot that must be recorded in this order. Effects of
    /// different slots are ordered by the slot each must be recorded in.
    var orders: [Ordering]

    /// How many effects happen in slots up to and including `slot`.
    func eventCount(throughSlot slot: Int) -> Int {
        events.values.count { $0.slot <= slot }
    }
}

struct ExpectedEvent: Hashable, Sendable {
    var slot: Int
    /// The queues the closure may observe itself on.
    var queues: Set<QueueTag>
}

struct Ordering: Hashable, Sendable {
    var before: EventID
    var after: EventID
}

/// The sequential reference model: an interpreter of Vow's documented semantics that runs a
/// program one slot at a time and predicts every outcome and the side effects with their order.
///
/// It interprets one possible interleaving, but only trusts what every interleaving shares.
/// Within a slot, each build group, step and dispatched block is a *context*: a sequential run
/// of work on one thread. Contexts that Vow or the executor does not order are independent,
/// and the model keeps track, in a ``CausalGraph``, of what happens before what:
///
/// - A handler attached to a promise before it resolves runs in the resolving context, in
///   attachment order, depth first (Documentation/Queues.md), but only when both facts are
///   certain: the attachment happened before the seal, and after every handler it follows.
/// - A handler attached after its promise resolved and finished running its handlers runs at
///   once, in the attaching context.
/// - Anything else is uncertain: the handler runs in a fresh context that follows only the
///   attachment and the seal. Vow is redefining where a handler attached while its promise is
///   still running handlers goes; the model assumes neither answer.
/// - A block dispatched to a queue runs in a fresh context after the dispatch, and after the
///   blocks dispatched earlier to the same serial queue.
///
/// A cancel step rejects its node, if still pending, with `PromiseError.cancelled`, as a
/// resolve step on the driver thread would, and the node's step never runs its body
/// afterwards: the node withdraws, taking its handler back from the nodes it waits for, whose
/// other handlers still run in their order. Cancellation goes no further up the chain: Vow cancels a promise from below only
/// once no handle to it is left, and the executor holds one to every node and deferred.
///
/// Outcomes of `race` and the rejection `when(fulfilled:)` reports depend on which result
/// arrives first. When the graph does not order the first against every other, the program
/// is refused as ambiguous: the generator and the shrinker only keep predictable programs.
enum ReferenceModel {
    static func expectation(for program: Program) -> Result<Expectation, ProgramProblem> {
        if let problem = program.problem { return .failure(problem) }
        return Simulation(program).run()
    }
}

private final class Simulation {
    /// Nested seals deeper than this are refused: Vow queues runs nested beyond its
    /// trampoline's 32 levels, which changes their order, and one simulated seal can stand for
    /// up to three of Vow's (the boxes inside `when`, `catch` and guarantee wrappers).
    static let maximumNesting = 10

    private struct Box {
        var outcome: Outcome?
        var resolvedAt = -1
        /// The point after the box's handlers ran; `nil` while they run.
        var drainEnd: Int?
        var handlers: [(point: Int, handler: Handler)] = []
    }

    /// What a handler does with the result of the box it is attached to.
    private enum Handler {
        /// The operator step of a node.
        case step(Int)
        /// Seals another box as this one resolved: `then` and `recover` following their inner.
        case follow(Int)
        /// Seals the box of a `firstly` node as its input resolved. Vow's `firstly` returns its
        /// input promise itself, but does not document it; PromiseKit's returns a new promise
        /// that follows it. The model assumes neither: when the input resolves, the node's
        /// handlers run in a context of their own, ordered with none of the input's handlers.
        case alias(Int)
        /// Delivers a child's result to a `when(fulfilled:)` node.
        case gather(Int, index: Int)
        /// Delivers a child's result to a `when(resolved:)` node.
        case gatherResult(Int, index: Int)
        case race(Int)
        /// The `finally` after a `catch`.
        case finally(Int)
    }

    private struct Context {
        var tags: Set<QueueTag>
        var last: Int
    }

    private struct Job {
        var queue: QueueTag
        var dispatch: Int
        var body: (Int) -> Void
    }

    private struct SerialJob {
        var queue: QueueTag
        var dispatch: Int
        var start: Int
        var end: Int
    }

    private struct Gather {
        var results: [Outcome?]
        var deliveries: [Int] = []
    }

    private let program: Program
    private var graph = CausalGraph()
    private var contexts: [Context] = []
    private var slot = 0
    private var barrier: Int?
    private var contextsOfSlot: [Int] = []
    private var boxes: [Box] = []
    private var nodeBoxes: [Int] = []
    private var deferredBoxes: [Int] = []
    private var finalizerBoxes: [Int: Int] = [:]
    private var gathers: [Int: Gather] = [:]
    /// For each `race` and `when(fulfilled:)`, the points where a result competed to settle it.
    private var contenders: [Int: [Int]] = [:]
    private var jobs: [Job] = []
    private var serialJobs: [SerialJob] = []
    private var events: [EventID: (point: Int, context: Int)] = [:]
    private var nesting = 0
    private var problem: ProgramProblem?

    init(_ program: Program) {
        self.program = program
        deferredBoxes = program.deferreds.map { _ in newBox() }
        for (index, node) in program.nodes.enumerated() {
            switch node.op {
            case .source(.pending(let deferred)): nodeBoxes.append(deferredBoxes[deferred])
            case .catch:
                nodeBoxes.append(newBox())
                finalizerBoxes[index] = newBox()
            default: nodeBoxes.append(newBox())
            }
        }
    }

    private func newBox() -> Int {
        boxes.append(Box())
        return boxes.count - 1
    }

    func run() -> Result<Expectation, ProgramProblem> {
        var stage = 0
        for (slot, step) in program.steps.enumerated() {
            beginSlot(slot)
            // The build groups and a racing resolution are contexts of one slot: the model
            // runs them one after another, and trusts only what the causal graph orders.
            if let resolution = step.resolution {
                let context = newContext(tags: [resolution.thread.tag], after: [])
                seal(
                    deferredBoxes[resolution.deferred], program.deferreds[resolution.deferred].outcome,
                    in: context)
            }
            if let node = step.cancelled {
                cancel(node, in: newContext(tags: [.none], after: []))
            }
            if step.isBuild {
                for group in program.groups(ofStage: stage) {
                    let context = newContext(tags: [.none], after: [])
                    for (index, node) in program.nodes.enumerated()
                    where node.stage == stage && node.group == group {
                        build(index, in: context)
                    }
                }
                stage += 1
            }
            runJobs()
            if let problem { return .failure(problem) }
        }
        return finish()
    }

    // MARK: Contexts and points

    private func beginSlot(_ slot: Int) {
        self.slot = slot
        let ends = contextsOfSlot.map { contexts[$0].last } + (barrier.map { [$0] } ?? [])
        barrier = graph.addPoint(context: -1, slot: slot, after: ends)
        contextsOfSlot = []
    }

    private func newContext(tags: Set<QueueTag>, after: [Int]) -> Int {
        let context = contexts.count
        let start = graph.addPoint(context: context, slot: slot, after: (barrier.map { [$0] } ?? []) + after)
        contexts.append(Context(tags: tags, last: start))
        contextsOfSlot.append(context)
        return context
    }

    /// A context for work that runs after each of `points` and is ordered with nothing else:
    /// on whichever of their threads it lands.
    private func uncertainContext(after points: [Int]) -> Int {
        let tags = points.reduce(into: Set<QueueTag>()) { tags, point in
            tags.formUnion(contexts[graph.contexts[point]].tags)
        }
        return newContext(tags: tags, after: points)
    }

    private func advance(_ context: Int) -> Int {
        let point = graph.addPoint(context: context, slot: slot, after: [contexts[context].last])
        contexts[context].last = point
        return point
    }

    private func record(_ event: EventID, in context: Int) {
        precondition(events[event] == nil, "the model ran \(event) twice")
        events[event] = (advance(context), context)
    }

    // MARK: Boxes

    private func attach(_ box: Int, _ handler: Handler, from context: Int) {
        let point = advance(context)
        guard let outcome = boxes[box].outcome else {
            boxes[box].handlers.append((point, handler))
            return
        }
        if let end = boxes[box].drainEnd, graph.happensBefore(end, point) {
            run(handler, outcome, in: context)
        } else {
            run(handler, outcome, in: uncertainContext(after: [point, boxes[box].resolvedAt]))
        }
    }

    private func seal(_ box: Int, _ outcome: Outcome, in context: Int) {
        guard boxes[box].outcome == nil else { return }
        let resolved = advance(context)
        boxes[box].outcome = outcome
        boxes[box].resolvedAt = resolved
        let batch = boxes[box].handlers
        boxes[box].handlers = []
        nesting += 1
        if nesting > Self.maximumNesting && problem == nil {
            problem = ProgramProblem(
                node: nodeBoxes.lastIndex(of: box), reason: "nests inline handlers too deeply to model")
        }
        var earlier: [Int] = []
        for (point, handler) in batch {
            let ordered =
                graph.happensBefore(point, resolved) && earlier.allSatisfy { graph.happensBefore($0, point) }
            earlier.append(point)
            if case .alias = handler {
                run(handler, outcome, in: uncertainContext(after: [point, resolved]))
            } else if ordered {
                run(handler, outcome, in: context)
            } else {
                run(handler, outcome, in: uncertainContext(after: [point, resolved]))
            }
        }
        nesting -= 1
        boxes[box].drainEnd = advance(context)
    }

    /// Runs `body` in `context` if `place` is inline, or queues it as a dispatched block.
    private func perform(on place: Place, from context: Int, _ body: @escaping (Int) -> Void) {
        guard place != .inline else { return body(context) }
        jobs.append(Job(queue: place.tag, dispatch: advance(context), body: body))
    }

    /// Runs the dispatched blocks of the slot, in the order they were dispatched.
    private func runJobs() {
        var next = 0
        while next < jobs.count {
            let job = jobs[next]
            next += 1
            let context = newContext(tags: [job.queue], after: [job.dispatch])
            let start = contexts[context].last
            job.body(context)
            if job.queue != .concurrent {
                serialJobs.append(
                    SerialJob(
                        queue: job.queue, dispatch: job.dispatch, start: start, end: contexts[context].last))
            }
        }
        jobs.removeAll()
    }

    // MARK: Nodes

    private func build(_ node: Int, in context: Int) {
        let box = nodeBoxes[node]
        switch program.nodes[node].op {
        case .source(.value(let value)), .source(.guaranteeValue(let value)):
            seal(box, .value(value), in: context)
        case .source(.error(let id)):
            seal(box, .error(id), in: context)
        case .source(.pending):
            break
        case .firstly(let input):
            attach(nodeBoxes[input], .alias(box), from: context)
        case .map(let input, _, _), .then(let input, _, _), .recover(let input, _, _, _),
            .recoverGuarantee(let input, _, _), .ensure(let input, _), .get(let input, _, _),
            .tap(let input, _):
            attach(nodeBoxes[input], .step(node), from: context)
        case .catch(let input, _, _, _):
            attach(nodeBoxes[input], .step(node), from: context)
            attach(finalizerBoxes[node]!, .finally(node), from: context)
        case .when(let children):
            gathers[node] = Gather(results: children.map { _ in nil })
            for (index, child) in children.enumerated() {
                attach(nodeBoxes[child], .gather(node, index: index), from: context)
            }
        case .whenResolved(let children):
            gathers[node] = Gather(results: children.map { _ in nil })
            for (index, child) in children.enumerated() {
                attach(nodeBoxes[child], .gatherResult(node, index: index), from: context)
            }
        case .race(let children):
            for child in children {
                attach(nodeBoxes[child], .race(node), from: context)
            }
        }
    }

    /// Cancels `node`, unless it has resolved: a promise rejects with `PromiseError.cancelled`;
    /// a `catch` finishes its chain at once, so its `finally` runs and its handler never will.
    private func cancel(_ node: Int, in context: Int) {
        let finalizer = finalizerBoxes[node]
        let box = finalizer ?? nodeBoxes[node]
        guard boxes[box].outcome == nil else { return }
        switch program.nodes[node].op {
        case .race, .when:
            // The cancellation settles the node first: the results that arrive later lose.
            contenders[node, default: []].append(advance(context))
        default:
            break
        }
        seal(box, finalizer == nil ? .cancelled : .value(0), in: context)
    }

    private func run(_ handler: Handler, _ outcome: Outcome, in context: Int) {
        switch handler {
        case .step(let node):
            step(node, input: outcome, in: context)
        case .follow(let box), .alias(let box):
            seal(box, outcome, in: context)
        case .gather(let node, let index):
            let point = advance(context)
            guard case .value = outcome else {
                contenders[node, default: []].append(point)
                return seal(nodeBoxes[node], outcome, in: context)
            }
            deliver(outcome, to: node, index: index, at: point, in: context) { results in
                .value(Fold.values(results.map { if case .value(let value)? = $0 { value } else { 0 } }))
            }
        case .gatherResult(let node, let index):
            let point = advance(context)
            deliver(outcome, to: node, index: index, at: point, in: context) { results in
                .value(Fold.results(results.compactMap { $0 }))
            }
        case .race(let node):
            contenders[node, default: []].append(advance(context))
            seal(nodeBoxes[node], outcome, in: context)
        case .finally(let node):
            guard case .catch(_, _, _, let place) = program.nodes[node].op else {
                preconditionFailure("only a catch has a finally")
            }
            perform(on: place, from: context) { context in
                self.record(EventID(node: node, part: .finally), in: context)
                self.seal(self.nodeBoxes[node], .value(0), in: context)
            }
        }
    }

    /// Stores a child's result in a `when`; the last delivery settles it. Deliveries are
    /// counted under a lock in Vow, so when the model cannot tell which came last, the node
    /// settles in a context that follows them all and nothing else.
    private func deliver(
        _ outcome: Outcome, to node: Int, index: Int, at point: Int, in context: Int,
        folding fold: ([Outcome?]) -> Outcome
    ) {
        gathers[node]!.results[index] = outcome
        gathers[node]!.deliveries.append(point)
        let gather = gathers[node]!
        guard gather.results.allSatisfy({ $0 != nil }) else { return }
        if gather.deliveries.dropLast().allSatisfy({ graph.happensBefore($0, point) }) {
            seal(nodeBoxes[node], fold(gather.results), in: context)
        } else {
            seal(nodeBoxes[node], fold(gather.results), in: uncertainContext(after: gather.deliveries))
        }
    }

    private func step(_ node: Int, input: Outcome, in context: Int) {
        let box = nodeBoxes[node]
        // Only a cancellation settles a step's promise, or a catch's finalizer, before the step
        // runs; a step cancelled before it could start never does.
        guard boxes[finalizerBoxes[node] ?? box].outcome == nil else { return }
        let body = EventID(node: node, part: .body)
        switch program.nodes[node].op {
        case .map(_, let place, let transform):
            guard case .value(let value) = input else { return seal(box, input, in: context) }
            perform(on: place, from: context) { context in
                self.record(body, in: context)
                switch transform {
                case .add(let offset): self.seal(box, .value(value &+ offset), in: context)
                case .throwing(let id): self.seal(box, .error(id), in: context)
                }
            }
        case .then(_, let place, let inner):
            guard case .value(let value) = input else { return seal(box, input, in: context) }
            perform(on: place, from: context) { context in
                self.record(body, in: context)
                self.resolve(node, with: inner, base: value, caught: nil, in: context)
            }
        case .recover(_, let place, let policy, let inner):
            guard input.isRejection, policy.handles(input) else { return seal(box, input, in: context) }
            perform(on: place, from: context) { context in
                self.record(body, in: context)
                self.resolve(node, with: inner, base: 1000 * input.errorID, caught: input, in: context)
            }
        case .recoverGuarantee(_, let place, let inner):
            guard input.isRejection else { return seal(box, input, in: context) }
            perform(on: place, from: context) { context in
                self.record(body, in: context)
                self.resolve(node, with: inner, base: 1000 * input.errorID, caught: input, in: context)
            }
        case .ensure(_, let place), .tap(_, let place):
            perform(on: place, from: context) { context in
                self.record(body, in: context)
                self.seal(box, input, in: context)
            }
        case .get(_, let place, let throwing):
            guard case .value = input else { return seal(box, input, in: context) }
            perform(on: place, from: context) { context in
                self.record(body, in: context)
                self.seal(box, throwing.map { .error($0) } ?? input, in: context)
            }
        case .catch(_, let place, let policy, _):
            let finalizer = finalizerBoxes[node]!
            guard input.isRejection, policy.handles(input) else {
                return seal(finalizer, .value(0), in: context)
            }
            perform(on: place, from: context) { context in
                self.record(body, in: context)
                self.seal(finalizer, .value(0), in: context)
            }
        case .source, .when, .whenResolved, .race, .firstly:
            preconditionFailure("node \(node) has no step")
        }
    }

    /// Settles a `then` or `recover` node with what its body returned; `caught` is the
    /// rejection a `recover` handles.
    private func resolve(_ node: Int, with inner: Inner, base: Int, caught: Outcome?, in context: Int) {
        let box = nodeBoxes[node]
        switch inner {
        case .value(let offset), .guaranteeValue(let offset):
            seal(box, .value(base &+ offset), in: context)
        case .error(let id), .throwing(let id):
            seal(box, .error(id), in: context)
        case .rethrow:
            seal(box, caught!, in: context)
        case .deferred(let deferred):
            attach(deferredBoxes[deferred], .follow(box), from: context)
        case .node(let other):
            attach(nodeBoxes[other], .follow(box), from: context)
        }
    }

    // MARK: Results

    private func finish() -> Result<Expectation, ProgramProblem> {
        linkSerialJobs()
        for (node, points) in contenders.sorted(by: { $0.key < $1.key }) {
            let first = points[0]
            if points.dropFirst().contains(where: { !graph.happensBefore(first, $0) }) {
                return .failure(
                    ProgramProblem(node: node, reason: "depends on which of two results comes first"))
            }
        }
        let outcomes = nodeBoxes.map { boxes[$0].outcome }
        let slots = nodeBoxes.map { boxes[$0].outcome == nil ? nil : graph.slots[boxes[$0].resolvedAt] }
        var expected: [EventID: ExpectedEvent] = [:]
        for (event, record) in events {
            expected[event] = ExpectedEvent(
                slot: graph.slots[record.point], queues: contexts[record.context].tags)
        }
        return .success(
            Expectation(outcomes: outcomes, resolutionSlots: slots, events: expected, orders: orderings()))
    }

    /// Blocks dispatched to one serial queue run one after another, in the order of their
    /// dispatches, when those are ordered themselves.
    private func linkSerialJobs() {
        var linked = Set<[Int]>()
        var changed = true
        while changed {
            changed = false
            for (position, first) in serialJobs.enumerated() {
                for second in serialJobs[(position + 1)...]
                where second.queue == first.queue && !linked.contains([first.start, second.start])
                    && graph.happensBefore(first.dispatch, second.dispatch)
                {
                    graph.addEdge(from: first.end, to: second.start)
                    linked.insert([first.start, second.start])
                    changed = true
                }
            }
        }
    }

    private func orderings() -> [Ordering] {
        let recorded = events.sorted { $0.value.point < $1.value.point }
        let points = recorded.map(\.value.point)
        let reach = graph.reachability(of: points)
        var orders: [Ordering] = []
        for (position, later) in recorded.enumerated() {
            for (earlierPosition, earlier) in recorded[..<position].enumerated()
            where graph.slots[earlier.value.point] == graph.slots[later.value.point]
                && reach[later.value.point].contains(earlierPosition)
            {
                orders.append(Ordering(before: earlier.key, after: later.key))
            }
        }
        return orders
    }
}

/// How `when` results become one `Int`, in the model and in the executor alike: order
/// matters, so a shuffled array shows.
enum Fold {
    static func values(_ values: [Int]) -> Int {
        values.reduce(7) { $0 &* 31 &+ $1 }
    }

    static func results(_ outcomes: [Outcome]) -> Int {
        outcomes.reduce(11) { folded, outcome in
            switch outcome {
            case .value(let value): folded &* 31 &+ value
            case .error(let id): folded &* 31 &- 1 &- id
            case .cancelled: folded &* 31 &- 500
            case .foreign: folded &* 31 &- 999
            }
        }
    }
}
