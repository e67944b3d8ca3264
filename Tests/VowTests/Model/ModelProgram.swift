import Vow

// The vocabulary of the model test: a program is a list of nodes, each a source or an operator
// applied to earlier nodes, built in stages, with steps between the stages that resolve pending
// sources or cancel nodes. The generator writes programs, the reference model predicts them,
// the executor runs them on Vow, the shrinker simplifies them and the printer shows them as
// Swift.

/// What a node resolves with: a value, the id of the ``ModelError`` it rejects with, or the
/// `PromiseError.cancelled` that `cancel()` rejects with.
enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case value(Int)
    case error(Int)
    /// `PromiseError.cancelled`: a cancel step cancelled the node, or a node it follows.
    case cancelled
    /// An error other than a ``ModelError`` or a cancellation. The model never predicts one;
    /// seen in a run, it is always a discrepancy, so its description is kept for the report.
    case foreign(String)

    init(_ result: Result<Int, any Error>) {
        switch result {
        case .success(let value): self = .value(value)
        case .failure(let error as ModelError): self = .error(error.id)
        case .failure(let error as PromiseError) where error.isCancelled: self = .cancelled
        case .failure(let error): self = .foreign(String(describing: error))
        }
    }

    /// Whether this is a rejection, which `recover` and `catch` may handle.
    var isRejection: Bool {
        if case .value = self { return false }
        return true
    }

    /// Whether this is a rejection that means "cancelled", which the default catch policy of
    /// `recover` and `catch` lets pass.
    var isCancellation: Bool {
        switch self {
        case .value, .foreign: false
        case .error(let id): ModelError.isCancellation(id)
        case .cancelled: true
        }
    }

    /// The id a handler reads from this rejection's error with ``ModelError/id(of:)``: 0 for
    /// an error that is not a ``ModelError``, `PromiseError.cancelled` included.
    var errorID: Int {
        if case .error(let id) = self { return id }
        return 0
    }

    var description: String {
        switch self {
        case .value(let value): "\(value)"
        case .error(let id): "E\(id)"
        case .cancelled: "cancelled"
        case .foreign(let text): "foreign error \(text)"
        }
    }
}

/// The errors generated programs throw and reject with. Ids from ``firstCancelling`` on are
/// cancellations, so the default catch policy of `recover` and `catch` lets them pass.
struct ModelError: CancellableError, Hashable {
    static let firstCancelling = 8
    static let ids = 1...9

    let id: Int

    var isCancelled: Bool { id >= Self.firstCancelling }

    static func isCancellation(_ id: Int) -> Bool { id >= firstCancelling }

    /// The id of a generated error, or 0 for any other.
    static func id(of error: any Error) -> Int {
        (error as? ModelError)?.id ?? 0
    }
}

/// Whether a node's handle is a `Promise<Int>` or a `Guarantee<Int>`; operators that exist on
/// only one of them, or return the other, depend on it.
enum Kind: Hashable, Sendable {
    case promise
    case guarantee
}

/// Where an operator's closure runs: its `on:` argument.
enum Place: Hashable, Sendable {
    case inline
    case serial0
    case serial1
    case concurrent

    var tag: QueueTag {
        switch self {
        case .inline: .none
        case .serial0: .serial0
        case .serial1: .serial1
        case .concurrent: .concurrent
        }
    }
}

/// The queue a closure observes itself running on. Threads outside the test's own queues (the
/// driver thread, global-queue workers) cannot be told apart and share `.none`.
enum QueueTag: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
    case none
    case serial0
    case serial1
    case concurrent

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    var description: String {
        switch self {
        case .none: "no test queue"
        case .serial0: "serial0"
        case .serial1: "serial1"
        case .concurrent: "concurrent"
        }
    }
}

/// The `policy:` of a `recover` or `catch`, always passed explicitly: `conf.catchPolicy` is
/// global, and another suite changes it while tests run in parallel.
enum Policy: Hashable, Sendable {
    case allErrors
    case allErrorsExceptCancellation

    var vow: CatchPolicy {
        switch self {
        case .allErrors: .allErrors
        case .allErrorsExceptCancellation: .allErrorsExceptCancellation
        }
    }

    /// Whether a `recover` or `catch` with this policy runs its body for `rejection`.
    func handles(_ rejection: Outcome) -> Bool {
        self == .allErrors || !rejection.isCancellation
    }
}

/// The body of a `map`.
enum Transform: Hashable, Sendable {
    case add(Int)
    case throwing(Int)
}

/// What the body of a `then` or `recover` returns. Values are offsets from the body's input:
/// the value for `then`, 1000 times the error id for `recover`, so that every path through a
/// program leaves its mark on the outcome.
enum Inner: Hashable, Sendable {
    /// `Promise.value(input + k)`.
    case value(Int)
    /// `Promise<Int>(error: E)`, a rejected promise returned rather than thrown.
    case error(Int)
    case throwing(Int)
    /// Only in `recover`: throws the error it was given.
    case rethrow
    /// `Guarantee.value(input + k)`.
    case guaranteeValue(Int)
    /// A pending promise or guarantee that a step of the program resolves, made before the
    /// program starts so that a handler can return it whenever it runs.
    case deferred(Int)
    /// The handle of an earlier node.
    case node(Int)
}

/// A node with no input.
enum Source: Hashable, Sendable {
    case value(Int)
    case error(Int)
    case guaranteeValue(Int)
    /// `Promise.pending()` or `Guarantee.pending()`, per the deferred's kind, made when the node
    /// is built and resolved by a step of the program.
    case pending(Int)
}

/// A node's operation; `Int` payloads name earlier nodes.
enum Op: Hashable, Sendable {
    case source(Source)
    case map(Int, Place, Transform)
    case then(Int, Place, Inner)
    /// `recover(on:policy:)` on a promise, returning a promise.
    case recover(Int, Place, Policy, Inner)
    /// The non-throwing `recover` on a promise that returns a guarantee; its inner is always a
    /// guarantee, and it handles every error, cancellations included.
    case recoverGuarantee(Int, Place, Inner)
    case ensure(Int, Place)
    /// `get`, whose body throws the error when there is one.
    case get(Int, Place, throwing: Int?)
    case tap(Int, Place)
    /// `catch(on:policy:)` followed by `finally(on:)`. The node's handle is a guarantee that the
    /// `finally` body resolves with 0, so that the end of the pair can be waited for.
    case `catch`(Int, Place, Policy, finally: Place)
    /// `when(fulfilled:)`, its values folded into one `Int`.
    case when([Int])
    /// `when(resolved:)`, its results folded into one `Int`.
    case whenResolved([Int])
    case race([Int])
    /// `firstly { input }`.
    case firstly(Int)

    /// The earlier nodes this one attaches handlers to when built.
    var inputs: [Int] {
        switch self {
        case .source: []
        case .map(let input, _, _), .then(let input, _, _), .recover(let input, _, _, _),
            .recoverGuarantee(let input, _, _), .ensure(let input, _), .get(let input, _, _),
            .tap(let input, _), .catch(let input, _, _, _), .firstly(let input):
            [input]
        case .when(let children), .whenResolved(let children), .race(let children): children
        }
    }

    /// The inner result of a `then` or `recover`, if it has one.
    var inner: Inner? {
        switch self {
        case .then(_, _, let inner), .recover(_, _, _, let inner), .recoverGuarantee(_, _, let inner): inner
        default: nil
        }
    }

    /// Every earlier node this one refers to: its inputs and a node its handler returns.
    var references: [Int] {
        if case .node(let node)? = inner { return inputs + [node] }
        return inputs
    }

    /// The deferreds this node refers to.
    var deferreds: [Int] {
        if case .source(.pending(let deferred)) = self { return [deferred] }
        if case .deferred(let deferred)? = inner { return [deferred] }
        return []
    }
}

/// A node, built in build stage `stage` by build group `group`: group 0 on the driver thread,
/// the others on global-queue workers at the same time.
struct Node: Hashable, Sendable {
    var op: Op
    var stage: Int
    var group: Int
    /// Whether the node's closures pause briefly after recording: a slow handler keeps its
    /// promise busy running handlers, which widens the window for other threads to attach.
    var slow = false
}

/// A pending promise or guarantee and what a step resolves it with.
struct Deferred: Hashable, Sendable {
    var kind: Kind
    var outcome: Outcome
}

/// Where a step resolves a deferred.
enum ActionThread: Hashable, Sendable {
    /// The driver thread, which runs the program.
    case driver
    case serial0
    case concurrent
    /// A global-queue worker.
    case global

    var tag: QueueTag {
        switch self {
        case .driver, .global: .none
        case .serial0: .serial0
        case .concurrent: .concurrent
        }
    }
}

/// Fulfils or rejects a deferred, with the outcome it was made with, on `thread`.
struct Resolution: Hashable, Sendable {
    var deferred: Int
    var thread: ActionThread
}

/// A step of a program's timeline. The executor waits for everything a step sets off before
/// the next begins, so the steps are the model's unit of time: its *slots*.
enum Step: Hashable, Sendable {
    /// Builds the nodes of the next stage. With a resolution, another thread resolves a
    /// deferred meanwhile, so that attaching handlers races with resolving their promise.
    case build(racing: Resolution?)
    case resolve(Resolution)
    /// Cancels a node on the driver thread, racing nothing: which nodes are still pending, and
    /// so which the cancellation reaches, is then the same in every run.
    case cancel(Int)

    var isBuild: Bool {
        if case .build = self { return true }
        return false
    }

    var resolution: Resolution? {
        switch self {
        case .build(let racing): racing
        case .resolve(let resolution): resolution
        case .cancel: nil
        }
    }

    /// The node a cancel step cancels.
    var cancelled: Int? {
        if case .cancel(let node) = self { return node }
        return nil
    }

    /// The step with its resolution replaced, or removed if `resolution` is `nil`; `nil` for a
    /// resolve step left with nothing to do. A cancel step has none and stays as it is.
    func with(_ resolution: Resolution?) -> Step? {
        switch self {
        case .build: .build(racing: resolution)
        case .resolve: resolution.map(Step.resolve)
        case .cancel: self
        }
    }
}

/// Which side effect: the body of the node's operator, or the `finally` after a `catch`.
enum Part: Int, Hashable, Sendable {
    case body
    case finally
}

/// A side effect: every closure in a program records one when it starts.
struct EventID: Hashable, Sendable, Comparable, CustomStringConvertible {
    var node: Int
    var part: Part

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.node, lhs.part.rawValue) < (rhs.node, rhs.part.rawValue)
    }

    var description: String {
        part == .body ? "record(\(node))" : "record(\(node), .finally)"
    }
}

struct Program: Hashable, Sendable {
    var nodes: [Node]
    var deferreds: [Deferred]
    var steps: [Step]

    /// The slot of each build stage.
    var buildSlots: [Int] {
        steps.indices.filter { steps[$0].isBuild }
    }

    /// The build groups of `stage`, in order.
    func groups(ofStage stage: Int) -> [Int] {
        Array(Set(nodes.filter { $0.stage == stage }.map(\.group))).sorted()
    }

    /// Whether node `earlier` exists, with its handle published, by the time node `later` is
    /// built: it was built in an earlier stage, or earlier by the same group.
    func isVisible(_ earlier: Int, from later: Int) -> Bool {
        guard earlier < later else { return false }
        let (first, second) = (nodes[earlier], nodes[later])
        return first.stage < second.stage || (first.stage == second.stage && first.group == second.group)
    }

    /// The deferreds made by source nodes, which exist from their node's build on; the others
    /// exist from the start.
    var sourceOfDeferred: [Int: Int] {
        var owners: [Int: Int] = [:]
        for (index, node) in nodes.enumerated() {
            if case .source(.pending(let deferred)) = node.op { owners[deferred] = index }
        }
        return owners
    }

    /// The kind a handler's inner result has, given the kinds of the nodes before it.
    func kind(of inner: Inner, kinds: [Kind]) -> Kind {
        switch inner {
        case .value, .error, .throwing, .rethrow: .promise
        case .guaranteeValue: .guarantee
        case .deferred(let deferred): deferreds[deferred].kind
        case .node(let node): kinds[node]
        }
    }

    /// The kind of every node, or a description of the first ill-formed node.
    func kinds() -> Result<[Kind], ProgramProblem> {
        var kinds: [Kind] = []
        for (index, node) in nodes.enumerated() {
            guard node.op.references.allSatisfy({ isVisible($0, from: index) }) else {
                return .failure(ProgramProblem(node: index, reason: "refers to a node it cannot see"))
            }
            guard let kind = kind(of: node.op, kinds: kinds) else {
                return .failure(ProgramProblem(node: index, reason: "applies an operator its input lacks"))
            }
            kinds.append(kind)
        }
        return .success(kinds)
    }

    /// The kind of a node doing `op`, or `nil` if its inputs lack the operator.
    func kind(of op: Op, kinds: [Kind]) -> Kind? {
        switch op {
        case .source(.value), .source(.error): return .promise
        case .source(.guaranteeValue): return .guarantee
        case .source(.pending(let deferred)): return deferreds[deferred].kind
        case .map(let input, _, let transform):
            if case .add = transform, kinds[input] == .guarantee { return .guarantee }
            return .promise
        case .then(let input, _, let inner):
            if inner == .rethrow { return nil }
            return kinds[input] == .guarantee && kind(of: inner, kinds: kinds) == .guarantee
                ? .guarantee : .promise
        case .recover(let input, _, _, _):
            return kinds[input] == .promise ? .promise : nil
        case .recoverGuarantee(let input, _, let inner):
            return kinds[input] == .promise && kind(of: inner, kinds: kinds) == .guarantee ? .guarantee : nil
        case .ensure(let input, _):
            return kinds[input] == .promise ? .promise : nil
        case .get(let input, _, let throwing):
            return kinds[input] == .guarantee && throwing == nil ? .guarantee : .promise
        case .tap(let input, _), .firstly(let input):
            return kinds[input]
        case .catch(let input, _, _, _):
            return kinds[input] == .promise ? .guarantee : nil
        case .when(let children):
            return children.isEmpty ? nil : .promise
        case .whenResolved(let children):
            return children.isEmpty ? nil : .guarantee
        case .race(let children):
            if children.isEmpty { return nil }
            return children.allSatisfy { kinds[$0] == .guarantee } ? .guarantee : .promise
        }
    }

    /// Whether a step can cancel node `node`: a promise through `cancel()`, and a `catch`
    /// through the `Finalizer` it returns. Not a guarantee, which has no `cancel()`, and not a
    /// `firstly`: Vow's returns its input promise itself, which it does not document, so
    /// cancelling it would cancel its input too, and the model assumes nothing either way.
    func isCancellable(_ node: Int, kinds: [Kind]) -> Bool {
        switch nodes[node].op {
        case .catch: true
        case .firstly: false
        default: kinds[node] == .promise
        }
    }

    /// Why the cancel step at `slot` cannot run, or `nil` if it can: its node must exist, be
    /// built by an earlier step and be cancellable.
    func cancelProblem(at slot: Int, kinds: [Kind]) -> ProgramProblem? {
        guard let node = steps[slot].cancelled else { return nil }
        guard node < nodes.count else {
            return ProgramProblem(node: nil, reason: "step \(slot) cancels a missing node")
        }
        let buildSlots = buildSlots
        guard nodes[node].stage < buildSlots.count, buildSlots[nodes[node].stage] < slot else {
            return ProgramProblem(node: node, reason: "is cancelled by step \(slot) before it is built")
        }
        guard isCancellable(node, kinds: kinds) else {
            return ProgramProblem(node: node, reason: "is cancelled by step \(slot) but cannot be")
        }
        return nil
    }

    /// The longest chain of operators ending at each node.
    var depths: [Int] {
        var depths: [Int] = []
        for node in nodes {
            let below = node.op.references.map { depths[$0] }.max()
            depths.append(below.map { $0 + 1 } ?? 0)
        }
        return depths
    }

    /// Why the program cannot run, or `nil` if it can: every reference is visible and typed,
    /// every deferred is used and resolved at most once, after the node that makes it, and
    /// every cancel step cancels a cancellable node built before it.
    var problem: ProgramProblem? {
        let kinds: [Kind]
        switch self.kinds() {
        case .success(let typed): kinds = typed
        case .failure(let problem): return problem
        }
        if let problem = steps.indices.lazy.compactMap({ cancelProblem(at: $0, kinds: kinds) }).first {
            return problem
        }
        let owners = sourceOfDeferred
        let buildSlots = buildSlots
        if let index = nodes.firstIndex(where: { $0.stage >= buildSlots.count }) {
            return ProgramProblem(node: index, reason: "belongs to a stage the timeline lacks")
        }
        var resolved = Set<Int>()
        for (slot, step) in steps.enumerated() {
            guard let resolution = step.resolution else { continue }
            let deferred = resolution.deferred
            guard deferred < deferreds.count, resolved.insert(deferred).inserted else {
                return ProgramProblem(
                    node: nil, reason: "step \(slot) resolves a deferred twice or a missing one")
            }
            // A deferred resolved while a stage is built must exist before that stage starts.
            let made = owners[deferred].map { buildSlots[nodes[$0].stage] + (step.isBuild ? 1 : 0) } ?? 0
            if made > slot {
                return ProgramProblem(
                    node: owners[deferred], reason: "is resolved by step \(slot) before it is built")
            }
            if step.isBuild && resolution.thread == .driver {
                return ProgramProblem(
                    node: nil, reason: "step \(slot) builds and resolves on the driver at once")
            }
        }
        var uses = Array(repeating: 0, count: deferreds.count)
        for node in nodes {
            for deferred in node.op.deferreds where deferred < deferreds.count { uses[deferred] += 1 }
        }
        for (deferred, count) in uses.enumerated() where count == 0 || (owners[deferred] != nil && count > 1)
        {
            return ProgramProblem(
                node: nil, reason: "deferred \(deferred) is unused or shared with its source")
        }
        for (index, deferred) in deferreds.enumerated() {
            switch (deferred.kind, deferred.outcome) {
            case (.promise, .value), (.promise, .error), (.guarantee, .value): continue
            case (.guarantee, .error):
                return ProgramProblem(node: nil, reason: "deferred \(index) is a guarantee that rejects")
            default:
                // A resolver can only fulfil or reject with a ``ModelError``; cancelling is a step.
                return ProgramProblem(
                    node: nil, reason: "deferred \(index) resolves with \(deferred.outcome)")
            }
        }
        return nil
    }
}

/// Why a program cannot run or cannot be predicted.
struct ProgramProblem: Error, Hashable, Sendable, CustomStringConvertible {
    var node: Int?
    var reason: String

    var description: String {
        node.map { "node \($0) \(reason)" } ?? reason
    }
}
