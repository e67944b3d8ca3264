import Dispatch
import Foundation
import Vow

/// What a run of a program on Vow did.
struct Observation: Sendable {
    /// Each node's result at the end of the run, or `nil` if still pending.
    var outcomes: [Outcome?]
    /// For each slot the run completed, which nodes were resolved once it was quiet; `nil` for
    /// nodes not built yet.
    var resolvedAfterSlot: [[Bool?]]
    var entries: [Journal.Entry]
    /// What the run gave up waiting for; the rest of the observation stops there.
    var stall: String?
}

/// Runs programs on Vow.
///
/// The driver thread walks the program's steps. A build step builds each group of its stage,
/// group 0 on the driver and the others on global-queue workers at the same time; a resolve
/// step fulfils or rejects a deferred on the driver, on a test queue or on a global worker,
/// and a build step may do that too, on another thread, while the stage is built; a cancel
/// step cancels a node on the driver.
/// After every step the driver waits until the run is *quiet*, so that the model's slots are
/// the run's too:
///
/// 1. every side effect the model expects by then is recorded; each dispatched block records
///    one as it starts, so after this every block of the step has started;
/// 2. each test queue runs a marker block, so every block dispatched before has finished;
/// 3. the build workers or the global worker that resolved have returned.
///
/// Nothing else can still run: inline handlers run inside one of those. Every wait is
/// bounded, so a hang in Vow fails the case with its seed instead of hanging CI.
///
/// The execution holds a handle to every node, deferred and `catch` finalizer until the run
/// ends, so that a cancellation never travels up a chain: the model leaves that out.
final class Execution: Sendable {
    let program: Program
    let journal = Journal()
    let queues = ModelQueues()
    private let kinds: [Kind]
    private let patience: Double
    private let handles: Protected<[Handle?]>
    private let deferreds: Protected<[DeferredHandle?]>
    /// What each `catch` node's `catch` returned, which a cancel step cancels.
    private let finalizers: Protected<[Finalizer?]>

    private init(_ program: Program, kinds: [Kind], patience: Double) {
        self.program = program
        self.kinds = kinds
        self.patience = patience
        handles = Protected(program.nodes.map { _ in nil })
        deferreds = Protected(program.deferreds.map { _ in nil })
        finalizers = Protected(program.nodes.map { _ in nil })
    }

    /// Runs `program`, waiting at most `patience` seconds for each step to quiet down.
    static func run(_ program: Program, expecting expectation: Expectation, patience: Double) -> Observation {
        guard case .success(let kinds) = program.kinds() else {
            preconditionFailure("only well-formed programs run")
        }
        let execution = Execution(program, kinds: kinds, patience: patience)
        let observation = execution.run(expecting: expectation)
        if observation.stall != nil || !execution.cleanUp() {
            // Something may still hold or wait for this run. Releasing a pending resolver would
            // log an event, which another suite's log-capturing test would see; keep it.
            abandonedExecutions.withLock { $0.append(execution) }
        }
        return observation
    }

    private func run(expecting expectation: Expectation) -> Observation {
        let owners = program.sourceOfDeferred
        for deferred in program.deferreds.indices where owners[deferred] == nil {
            let made = DeferredHandle(kind: program.deferreds[deferred].kind)
            deferreds.withLock { $0[deferred] = made }
        }
        var observation = Observation(outcomes: [], resolvedAfterSlot: [], entries: [], stall: nil)
        var stage = 0
        for (slot, step) in program.steps.enumerated() {
            journal.begin(slot: slot)
            let workers = DispatchGroup()
            // Every thread of a step waits at the gate until all have started, so that a
            // resolution racing a build overlaps it instead of finishing before it begins.
            let gate = StartGate(threads: (step.isBuild ? 1 : 0) + (step.resolution == nil ? 0 : 1))
            if let resolution = step.resolution {
                let deferred = resolution.deferred
                switch resolution.thread {
                case .driver: gate.pass { resolve(deferred) }
                case .serial0: queues.serial0.async { gate.pass { self.resolve(deferred) } }
                case .concurrent: queues.concurrent.async { gate.pass { self.resolve(deferred) } }
                case .global:
                    DispatchQueue.global().async(group: workers) { gate.pass { self.resolve(deferred) } }
                }
            }
            if step.isBuild {
                let groups = program.groups(ofStage: stage)
                for group in groups where group != 0 {
                    DispatchQueue.global().async(group: workers) { [stage] in
                        self.build(stage: stage, group: group)
                    }
                }
                gate.pass { if groups.contains(0) { build(stage: stage, group: 0) } }
                stage += 1
            }
            if let node = step.cancelled { cancel(node) }
            if let stall = quiesce(slot: slot, workers: workers, expecting: expectation) {
                observation.stall = stall
                break
            }
            let resolved = handles.withLock { $0.map { $0.map { $0.result != nil } } }
            observation.resolvedAfterSlot.append(resolved)
        }
        observation.outcomes = handles.withLock { $0.map { $0?.result.map(Outcome.init) } }
        observation.entries = journal.entries
        return observation
    }

    /// Waits until the run is quiet after `slot`; returns what it gave up on, if it did.
    private func quiesce(slot: Int, workers: DispatchGroup, expecting expectation: Expectation) -> String? {
        let deadline = Date(timeIntervalSinceNow: patience)
        if workers.wait(timeout: .now() + patience) == .timedOut {
            return "step \(slot): a build or resolve on a global worker did not return within \(patience) s"
        }
        let expected = expectation.eventCount(throughSlot: slot)
        guard journal.wait(forCount: expected, until: deadline) else {
            let missing = expectation.events.filter { $0.value.slot <= slot }.keys
                .filter { event in !journal.entries.contains { $0.event == event } }.sorted()
            return "step \(slot): \(missing.map(\.description).joined(separator: ", ")) did not happen "
                + "within \(patience) s"
        }
        guard queues.drain(within: patience) else {
            return "step \(slot): a test queue did not drain within \(patience) s"
        }
        return nil
    }

    /// Resolves every deferred the program left pending and waits for the consequences, so that
    /// no resolver is released unresolved. Returns whether everything settled.
    private func cleanUp() -> Bool {
        for deferred in program.deferreds.indices {
            deferreds.withLock { $0[deferred] }?.resolveIfPending(with: program.deferreds[deferred].outcome)
        }
        let deadline = Date(timeIntervalSinceNow: patience)
        while handles.withLock({ $0.contains { $0 != nil && $0?.result == nil } }) {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.0005)
        }
        guard queues.drain(within: patience), queues.drain(within: patience) else { return false }
        // Handlers capture this execution and the execution holds the promises: break the cycle.
        handles.withLock { $0 = [] }
        deferreds.withLock { $0 = [] }
        finalizers.withLock { $0 = [] }
        return true
    }

    // MARK: Steps

    private func resolve(_ deferred: Int) {
        let made = deferreds.withLock { $0[deferred] }
        made!.resolve(with: program.deferreds[deferred].outcome)
    }

    /// Cancels a promise node, or the chain a `catch` node ends.
    private func cancel(_ node: Int) {
        if let finalizer = finalizers.withLock({ $0[node] }) { return finalizer.cancel() }
        guard case .promise(let promise) = handle(node) else {
            preconditionFailure("only promises and catches are cancelled")
        }
        promise.cancel()
    }

    private func build(stage: Int, group: Int) {
        for (index, node) in program.nodes.enumerated() where node.stage == stage && node.group == group {
            let made = build(index, node.op)
            handles.withLock { $0[index] = made }
        }
    }

    private func handle(_ node: Int) -> Handle {
        handles.withLock { $0[node] }!
    }

    private func deferredHandle(_ deferred: Int) -> Handle {
        deferreds.withLock { $0[deferred] }!.handle
    }

    /// Records a side effect with the queue it ran on, then pauses if asked to.
    private func recorder(_ node: Int, _ part: Part = .body, pausing: Bool = false) -> @Sendable () -> Void {
        let (journal, queues) = (journal, queues)
        return {
            journal.record(EventID(node: node, part: part), queue: queues.current)
            if pausing { Thread.sleep(forTimeInterval: 0.0002) }
        }
    }

    private func build(_ index: Int, _ op: Op) -> Handle {
        let record = recorder(index, pausing: program.nodes[index].slow)
        switch op {
        case .source(.value(let value)):
            return .promise(.value(value))
        case .source(.error(let id)):
            return .promise(Promise(error: ModelError(id: id)))
        case .source(.guaranteeValue(let value)):
            return .guarantee(.value(value))
        case .source(.pending(let deferred)):
            let made = DeferredHandle(kind: program.deferreds[deferred].kind)
            deferreds.withLock { $0[deferred] = made }
            return made.handle
        case .map(let input, let place, let transform):
            let queue = queues.queue(for: place)
            if case .guarantee(let guarantee) = handle(input), case .add(let offset) = transform {
                let mapped: Guarantee<Int> = guarantee.map(on: queue) { value in
                    record()
                    return value &+ offset
                }
                return .guarantee(mapped)
            }
            return .promise(
                handle(input).map(on: queue) { value throws -> Int in
                    record()
                    switch transform {
                    case .add(let offset): return value &+ offset
                    case .throwing(let id): throw ModelError(id: id)
                    }
                })
        case .then(let input, let place, let inner):
            return then(handle(input), on: queues.queue(for: place), inner, record)
        case .recover(let input, let place, let policy, let inner):
            return recover(handle(input).promise, on: queues.queue(for: place), policy, inner, record)
        case .recoverGuarantee(let input, let place, let inner):
            let recovered: Guarantee<Int> = handle(input).promise.recover(on: queues.queue(for: place)) {
                error in
                record()
                return self.innerGuarantee(inner, base: 1000 * ModelError.id(of: error))
            }
            return .guarantee(recovered)
        case .ensure(let input, let place):
            return .promise(handle(input).promise.ensure(on: queues.queue(for: place)) { record() })
        case .get(let input, let place, let throwing):
            let queue = queues.queue(for: place)
            if case .guarantee(let guarantee) = handle(input), throwing == nil {
                let got: Guarantee<Int> = guarantee.get(on: queue) { _ in record() }
                return .guarantee(got)
            }
            return .promise(
                handle(input).get(on: queue) { _ throws in
                    record()
                    if let throwing { throw ModelError(id: throwing) }
                })
        case .tap(let input, let place):
            let queue = queues.queue(for: place)
            switch handle(input) {
            case .promise(let promise): return .promise(promise.tap(on: queue) { _ in record() })
            case .guarantee(let guarantee): return .guarantee(guarantee.tap(on: queue) { _ in record() })
            }
        case .catch(let input, let place, let policy, let finallyPlace):
            let (caught, resolve) = Guarantee<Int>.pending()
            let recordFinally = recorder(index, .finally, pausing: program.nodes[index].slow)
            let finalizer = handle(input).promise.catch(on: queues.queue(for: place), policy: policy.vow) {
                _ in record()
            }
            finalizer.finally(on: queues.queue(for: finallyPlace)) {
                recordFinally()
                resolve(0)
            }
            finalizers.withLock { $0[index] = finalizer }
            return .guarantee(caught)
        case .when(let children):
            return .promise(gathered(children.map(handle)).map(on: nil) { Fold.values($0) })
        case .whenResolved(let children):
            return .guarantee(
                settled(children.map(handle)).map(on: nil) { Fold.results($0.map(Outcome.init)) })
        case .race(let children):
            return raced(children.map(handle))
        case .firstly(let input):
            switch handle(input) {
            case .promise(let promise): return .promise(firstly { promise })
            case .guarantee(let guarantee): return .guarantee(firstly { guarantee })
            }
        }
    }

    private func then(
        _ input: Handle, on queue: DispatchQueue?, _ inner: Inner, _ record: @escaping @Sendable () -> Void
    ) -> Handle {
        switch (input, program.kind(of: inner, kinds: kinds)) {
        case (.guarantee(let guarantee), .guarantee):
            // Guarantee.then: the body cannot fail and the result stays a guarantee.
            let next: Guarantee<Int> = guarantee.then(on: queue) { value in
                record()
                return self.innerGuarantee(inner, base: value)
            }
            return .guarantee(next)
        case (_, .guarantee):
            return .promise(
                input.then(on: queue) { value throws -> Guarantee<Int> in
                    record()
                    return self.innerGuarantee(inner, base: value)
                })
        case (_, .promise):
            return .promise(
                input.then(on: queue) { value throws -> Promise<Int> in
                    record()
                    return try self.innerPromise(inner, base: value, caught: nil)
                })
        }
    }

    private func recover(
        _ input: Promise<Int>, on queue: DispatchQueue?, _ policy: Policy, _ inner: Inner,
        _ record: @escaping @Sendable () -> Void
    ) -> Handle {
        switch program.kind(of: inner, kinds: kinds) {
        case .guarantee:
            return .promise(
                input.recover(on: queue, policy: policy.vow) { error throws -> Guarantee<Int> in
                    record()
                    return self.innerGuarantee(inner, base: 1000 * ModelError.id(of: error))
                })
        case .promise:
            return .promise(
                input.recover(on: queue, policy: policy.vow) { error throws -> Promise<Int> in
                    record()
                    return try self.innerPromise(inner, base: 1000 * ModelError.id(of: error), caught: error)
                })
        }
    }

    /// What a promise-returning body returns or throws.
    private func innerPromise(_ inner: Inner, base: Int, caught: (any Error)?) throws -> Promise<Int> {
        switch inner {
        case .value(let offset): return .value(base &+ offset)
        case .error(let id): return Promise(error: ModelError(id: id))
        case .throwing(let id): throw ModelError(id: id)
        case .rethrow: throw caught!
        case .deferred(let deferred): return deferredHandle(deferred).promise
        case .node(let node): return handle(node).promise
        case .guaranteeValue: preconditionFailure("a guarantee inner in a promise body")
        }
    }

    /// What a guarantee-returning body returns.
    private func innerGuarantee(_ inner: Inner, base: Int) -> Guarantee<Int> {
        switch inner {
        case .guaranteeValue(let offset): return .value(base &+ offset)
        case .deferred(let deferred): return deferredHandle(deferred).guarantee
        case .node(let node): return handle(node).guarantee
        default: preconditionFailure("a promise inner in a guarantee body")
        }
    }

    // `when` and `race` take one type of thenable: guarantees mixed with promises are wrapped.

    private func gathered(_ children: [Handle]) -> Promise<[Int]> {
        if let guarantees = Handle.guarantees(children) { return when(fulfilled: guarantees) }
        return when(fulfilled: children.map(\.promise))
    }

    private func settled(_ children: [Handle]) -> Guarantee<[Result<Int, any Error>]> {
        if let guarantees = Handle.guarantees(children) { return when(resolved: guarantees) }
        return when(resolved: children.map(\.promise))
    }

    private func raced(_ children: [Handle]) -> Handle {
        guard let guarantees = Handle.guarantees(children) else {
            return .promise(race(children.map(\.promise)))
        }
        // Only the variadic race of guarantees returns a guarantee.
        switch guarantees.count {
        case 1: return .guarantee(race(guarantees[0]))
        case 2: return .guarantee(race(guarantees[0], guarantees[1]))
        case 3: return .guarantee(race(guarantees[0], guarantees[1], guarantees[2]))
        default: return .guarantee(race(guarantees[0], guarantees[1], guarantees[2], guarantees[3]))
        }
    }
}

/// Executions that could not be cleaned up, kept alive for the rest of the process.
private let abandonedExecutions = Protected<[Execution]>([])
