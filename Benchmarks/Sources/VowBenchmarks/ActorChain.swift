import Dispatch
import Vow

/// The actor of ``actorChainScenario()``: three steps of work on its own state, and a signal
/// once the round's last chain has finished.
private actor Tally {
    private var sum = 0
    private var finished = 0
    private var expected = 0
    private var allFinished: DispatchSemaphore?

    func expect(_ count: Int, signalling semaphore: DispatchSemaphore) {
        sum = 0
        finished = 0
        expected = count
        allFinished = semaphore
    }

    func scale(_ value: Int) -> Int { value &* 3 }

    func offset(_ value: Int) -> Int { value &+ 1 }

    func finish(_ value: Int) {
        sum &+= value
        finished += 1
        if finished == expected { allFinished?.signal() }
    }

    var total: Int { sum }

    /// The three steps as handlers written in this actor's method, as app code writes them, so
    /// that Vow reads the actor from each one's isolation.
    func handlers() -> (
        scale: @isolated(any) @Sendable (Int) -> Int, offset: @isolated(any) @Sendable (Int) -> Int,
        finish: @isolated(any) @Sendable (Int) -> Void
    ) {
        (isolated { self.scale($0) }, isolated { self.offset($0) }, isolated { self.finish($0) })
    }
}

/// `handler`, with the isolation of the code that wrote it, as an operator of Vow reads it.
func isolated<A, R>(
    @_inheritActorContext(always) _ handler: @escaping @isolated(any) @Sendable (A) -> R
) -> @isolated(any) @Sendable (A) -> R {
    handler
}

/// "actor-chain-3": chains of three steps on one actor, started from outside it, as code that
/// keeps its state in an actor runs them.
///
/// - Vow: `Guarantee.value(i).map(scale).map(offset).done(finish)`, each handler written in the
///   actor's method: the steps of a chain, and of chains started meanwhile, run in one task on
///   the actor, in order.
/// - Tasks: `Task { await finish(await offset(await scale(i))) }`, three hand-written calls
///   into the actor from one task.
func actorChainScenario() -> Scenario {
    let name = "actor-chain-3"
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "Tasks", atMost: 1.0))
    return Scenario(name: name) { context in
        let operations = context.size(full: 50_000, quick: 1_000)
        let rounds = context.size(full: 15, quick: 2)
        let tally = Tally()
        let handlers = blocking { await tally.handlers() }
        let expectedSum = (0..<operations).reduce(0) { $0 &+ ($1 &* 3 &+ 1) }

        /// Runs one round: `start` begins every chain; this waits for the last to finish and
        /// checks what they added up.
        func round(_ contender: String, _ start: () -> Void) {
            let allFinished = DispatchSemaphore(value: 0)
            blocking { await tally.expect(operations, signalling: allFinished) }
            start()
            allFinished.wait()
            let total = blocking { await tally.total }
            check(total == expectedSum, "\(name) \(contender): sum \(total), expected \(expectedSum)")
        }

        let vow = Contender.timed("Vow", divisor: operations) {
            round("Vow") {
                for index in 0..<operations {
                    Guarantee.value(index).map(handlers.scale).map(handlers.offset).done(handlers.finish)
                }
            }
        }
        let tasks = Contender.timed("Tasks", divisor: operations) {
            round("Tasks") {
                for index in 0..<operations {
                    Task {
                        let scaled = await tally.scale(index)
                        let offset = await tally.offset(scaled)
                        await tally.finish(offset)
                    }
                }
            }
        }
        return measure(
            [vow, tasks], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}

/// Runs `body` in a task and blocks this thread until it returns: for the set-up calls into an
/// actor, which are not measured.
func blocking<R: Sendable>(_ body: @escaping @Sendable () async -> R) -> R {
    Guarantee { await body() }.wait()
}
