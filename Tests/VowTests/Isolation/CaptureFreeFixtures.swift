import Dispatch
import Foundation
import Vow

/// A serial executor on a dispatch queue of its own, so that code can tell it runs on the
/// executor without touching the actor (the handlers below capture nothing that could say so),
/// and that counts the jobs it is given, to show whether awaiting left the actor.
final class QueueExecutor: SerialExecutor {
    let place = TestQueue("vow.tests.actor-executor")
    let enqueued = Protected(0)

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.withLock { $0 += 1 }
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        place.queue.async { job.runSynchronously(on: executor) }
    }
}

/// What the handlers of ``CaptureFreeModel`` recorded: each one's name, and whether it ran on
/// the model's executor. A global, because a handler that captured a recorder would no longer
/// capture nothing.
let captureFreeVisits = Recorder<(name: String, onActor: Bool)>()

/// The executor of ``CaptureFreeModel``, a global for the same reason.
let captureFreeExecutor = QueueExecutor()

/// Records that the handler `name` ran, and where; a run of one handler called several times
/// (a sort's comparator) counts once.
func visit(_ name: String) {
    if captureFreeVisits.all.last?.name != name {
        captureFreeVisits.record((name, captureFreeExecutor.place.isCurrent))
    }
}

/// An actor whose handlers never mention `self`: each uses its argument or nothing, which
/// before `@_inheritActorContext(always)` left it nonisolated and sent it to the main queue.
actor CaptureFreeModel {
    /// Kept here, since a chain holds its owner weakly.
    let owner = CaptureFreeOwner()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        captureFreeExecutor.asUnownedSerialExecutor()
    }

    func runEveryOperator() -> Guarantee<Void> {
        let failing = Promise<Int>(error: CocoaError(.fileNoSuchFile))
        let chain = firstly { () -> Promise<Int> in
            visit("firstly")
            return Promise.value(1)
        }.then { value -> Promise<Int> in
            visit("then")
            return Promise.value(value + 1)
        }.map { value in
            visit("map")
            return value * 10
        }.compactMap { value -> Int? in
            visit("compactMap")
            return value
        }.get { _ in
            visit("get")
        }.tap { _ in
            visit("tap")
        }.map { [$0, 3, 2] }.mapValues { value in
            if value == 20 { visit("mapValues") }
            return value
        }.flatMapValues { value -> [Int] in
            if value == 20 { visit("flatMapValues") }
            return [value]
        }.compactMapValues { value -> Int? in
            if value == 20 { visit("compactMapValues") }
            return value
        }.filterValues { _ in
            visit("filterValues")
            return true
        }.sortedValues { lhs, rhs in
            visit("sortedValues")
            return lhs < rhs
        }.firstValue { _ in
            visit("firstValue")
            return true
        }.map { [$0] }.thenMap { value -> Promise<Int> in
            visit("thenMap")
            return Promise.value(value)
        }.thenFlatMap { value -> Promise<[Int]> in
            visit("thenFlatMap")
            return Promise.value([value])
        }.map { $0[0] }.done { _ in
            visit("done")
        }
        return chain.then { failing }.recover { _ -> Promise<Int> in
            visit("recover(thenable)")
            return failing
        }.recover { _ -> Guarantee<Int> in
            visit("recover(guarantee)")
            return Guarantee.value(0)
        }.then { _ in
            failing.asVoid().recover { _ in
                visit("recover(void, guarantee)")
            }
        }.then {
            failing.asVoid().recover { _ in
                visit("recover(void)")
            }.recover { _ in }
        }.then { _ in
            failing.ensure {
                visit("ensure")
            }.ensureThen {
                visit("ensureThen")
                return Guarantee()
            }.catch { _ in
                visit("catch")
            }.finally {
                visit("finally")
            }
        }.then {
            Guarantee.value(1).then { value -> Guarantee<Int> in
                visit("guarantee.then")
                return Guarantee.value(value)
            }.map { value -> Int in
                visit("guarantee.map")
                return value
            }.get { _ in
                visit("guarantee.get")
            }.tap { _ in
                visit("guarantee.tap")
            }
        }.map { [$0] }.mapValues { value -> Int in
            visit("guarantee.mapValues")
            return value
        }.done { _ in
            visit("guarantee.done")
        }
    }

    /// The other operators that inherit their closure's isolation: `retry`'s predicate and
    /// body, `Guarantee.lazy`, `reduce`, `map(_:as:)`, `validate`, and a handler bound to an
    /// owner that is not the actor. Resolves with the names visited, in order.
    func runTheRest() -> Promise<[String]> {
        let attempts = retry(
            attempts: 2,
            if: { _ in
                visit("retry.if")
                return true
            }
        ) { () -> Promise<Int> in
            visit("retry")
            return Promise<Int>(error: CocoaError(.fileNoSuchFile))
        }.recover { _ in Guarantee.value(1) }
        let lazy = Guarantee<Int>.lazy { resolve in
            visit("lazy")
            resolve(2)
        }
        return attempts.then { _ in lazy }.then { _ in
            reduce([1, 2], 0) { sum, value -> Promise<Int> in
                visit("reduce")
                return Promise.value(sum + value)
            }
        }.then { _ in
            map([1], as: .series) { value -> Promise<Int> in
                visit("map(_:as:)")
                return Promise.value(value)
            }
        }.validate { _ in
            visit("validate")
            return true
        }.done(owner: owner) { _, _ in
            visit("done(owner:)")
        }.map { _ in captureFreeVisits.all.map(\.name) }
    }
}

/// An owner for an owner-bound handler written in an actor's method.
final class CaptureFreeOwner: Sendable {}
