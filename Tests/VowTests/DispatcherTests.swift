import Dispatch
import Foundation
import Testing
import Vow

/// A thenable under test, seen through the two things a case asks of it.
struct Watched: Sendable {
    let isPending: @Sendable () -> Bool
    let outcome: @Sendable () -> String?

    /// Watches `thenable`, keeping `owner` alive as long as the watch: a ``Finalizer`` whose
    /// release would otherwise end the chain under test.
    init<U: Thenable>(_ thenable: U, keeping owner: (any Sendable)? = nil) {
        isPending = {
            withExtendedLifetime(owner) { thenable.isPending }
        }
        outcome = { thenable.result.map(described) }
    }
}

/// A result as text, naming a `PromiseError` by its case, so that a case can expect one.
func described<T>(_ result: Result<T, any Error>) -> String {
    switch result {
    case .success(let value): "\(value)"
    case .failure(let error as PromiseError): error.caseName
    case .failure(let error): "\(error)"
    }
}

/// One operator given a manual dispatcher: the chain it starts, what that resolves with and what
/// its handler records once the dispatcher has run the handler.
struct DispatchedCase: Sendable, CustomTestStringConvertible {
    let name: String
    let resolvesWith: String
    var records: [String] = []
    let start: @Sendable (ManualDispatcher, Recorder<String>) -> Watched

    var testDescription: String { name }
}

/// Counts what it is given and passes it to a queue: a dispatcher Vow does not know.
struct CountingDispatcher: Dispatcher {
    let target: TestQueue
    let dispatched = Counter()

    func dispatch(_ work: @escaping @Sendable () -> Void) {
        dispatched.increment()
        target.queue.async(execute: work)
    }
}

@Suite struct DispatcherTests {
    /// Checks that the handler `operation` attaches stays with the dispatcher, unrun, until the
    /// test runs it, and that the chain then resolves as the operator promises.
    func checkHandlerWaits(for operation: DispatchedCase) {
        let dispatcher = ManualDispatcher()
        let seen = Recorder<String>()
        let watched = operation.start(dispatcher, seen)
        #expect(watched.isPending())
        #expect(dispatcher.pending == 1)
        #expect(seen.all.isEmpty)
        #expect(dispatcher.runAll() == 1)
        #expect(dispatcher.pending == 0)
        #expect(watched.outcome() == operation.resolvesWith)
        #expect(seen.all == operation.records)
    }

    // MARK: Every operator family

    static let thenCases: [DispatchedCase] = [
        DispatchedCase(name: "Promise.then", resolvesWith: "21") { dispatcher, _ in
            Watched(Promise.value(20).then(on: dispatcher) { Promise.value($0 + 1) })
        },
        DispatchedCase(name: "Promise.then throwing", resolvesWith: "boom") { dispatcher, _ in
            Watched(Promise.value(1).then(on: dispatcher) { _ -> Promise<Int> in throw TestError.boom })
        },
        DispatchedCase(name: "Guarantee.then", resolvesWith: "10") { dispatcher, _ in
            let multiplied: Guarantee<Int> = Guarantee.value(2).then(on: dispatcher) {
                Guarantee.value($0 * 5)
            }
            return Watched(multiplied)
        },
    ]

    @Test(arguments: thenCases) func then(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let mapCases: [DispatchedCase] = [
        DispatchedCase(name: "Promise.map", resolvesWith: "42") { dispatcher, _ in
            Watched(Promise.value(21).map(on: dispatcher) { $0 * 2 })
        },
        DispatchedCase(name: "Guarantee.map", resolvesWith: "42") { dispatcher, _ in
            let doubled: Guarantee<Int> = Guarantee.value(21).map(on: dispatcher) { $0 * 2 }
            return Watched(doubled)
        },
        DispatchedCase(name: "compactMap", resolvesWith: "7") { dispatcher, _ in
            Watched(Promise.value("7").compactMap(on: dispatcher) { Int($0) })
        },
        DispatchedCase(name: "compactMap to nil", resolvesWith: "compactMap") { dispatcher, _ in
            Watched(Promise.value("x").compactMap(on: dispatcher) { Int($0) })
        },
    ]

    @Test(arguments: mapCases) func map(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let doneCases: [DispatchedCase] = [
        DispatchedCase(name: "Promise.done", resolvesWith: "()", records: ["3"]) { dispatcher, seen in
            Watched(Promise.value(3).done(on: dispatcher) { seen.record("\($0)") })
        },
        DispatchedCase(name: "Guarantee.done", resolvesWith: "()", records: ["8"]) { dispatcher, seen in
            let finished: Guarantee<Void> = Guarantee.value(8).done(on: dispatcher) { seen.record("\($0)") }
            return Watched(finished)
        },
    ]

    @Test(arguments: doneCases) func done(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let getCases: [DispatchedCase] = [
        DispatchedCase(name: "Promise.get", resolvesWith: "5", records: ["5"]) { dispatcher, seen in
            Watched(Promise.value(5).get(on: dispatcher) { seen.record("\($0)") })
        },
        DispatchedCase(name: "Guarantee.get", resolvesWith: "6", records: ["6"]) { dispatcher, seen in
            let got: Guarantee<Int> = Guarantee.value(6).get(on: dispatcher) { seen.record("\($0)") }
            return Watched(got)
        },
    ]

    @Test(arguments: getCases) func get(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let tapCases: [DispatchedCase] = [
        DispatchedCase(name: "Promise.tap", resolvesWith: "boom", records: ["boom"]) { dispatcher, seen in
            Watched(Promise<Int>(error: TestError.boom).tap(on: dispatcher) { seen.record(described($0)) })
        },
        DispatchedCase(name: "Guarantee.tap", resolvesWith: "4", records: ["4"]) { dispatcher, seen in
            let tapped: Guarantee<Int> = Guarantee.value(4).tap(on: dispatcher) { seen.record(described($0)) }
            return Watched(tapped)
        },
    ]

    @Test(arguments: tapCases) func tap(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let catchCases: [DispatchedCase] = [
        DispatchedCase(name: "catch", resolvesWith: "()", records: ["boom"]) { dispatcher, seen in
            let finalizer = Promise<Int>(error: TestError.boom).catch(on: dispatcher) {
                seen.record(described(Result<Void, any Error>.failure($0)))
            }
            return Watched(finalizer.finished, keeping: finalizer)
        },
        DispatchedCase(name: "catch of every error", resolvesWith: "()", records: ["cancelled"]) {
            dispatcher, seen in
            let finalizer = Promise<Int>(error: PromiseError.cancelled).catch(
                on: dispatcher, policy: .allErrors
            ) {
                seen.record(described(Result<Void, any Error>.failure($0)))
            }
            return Watched(finalizer.finished, keeping: finalizer)
        },
    ]

    @Test(arguments: catchCases) func `catch`(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let recoverCases: [DispatchedCase] = [
        DispatchedCase(name: "recover to a promise", resolvesWith: "9") { dispatcher, _ in
            Watched(Promise<Int>(error: TestError.boom).recover(on: dispatcher) { _ in Promise.value(9) })
        },
        DispatchedCase(name: "recover of every error to a promise", resolvesWith: "1") { dispatcher, _ in
            Watched(
                Promise<Int>(error: PromiseError.cancelled).recover(on: dispatcher, policy: .allErrors) { _ in
                    Promise.value(1)
                })
        },
        DispatchedCase(name: "recover to a guarantee", resolvesWith: "2") { dispatcher, _ in
            let recovered: Guarantee<Int> = Promise<Int>(error: TestError.boom).recover(on: dispatcher) { _ in
                Guarantee.value(2)
            }
            return Watched(recovered)
        },
        DispatchedCase(name: "Void recover to a guarantee", resolvesWith: "()", records: ["boom"]) {
            dispatcher, seen in
            let recovered: Guarantee<Void> = Promise<Void>(error: TestError.boom).recover(on: dispatcher) {
                seen.record(described(Result<Void, any Error>.failure($0)))
            }
            return Watched(recovered)
        },
        DispatchedCase(name: "Void recover that rethrows", resolvesWith: "other", records: ["boom"]) {
            dispatcher, seen in
            let recovered: Promise<Void> = Promise<Void>(error: TestError.boom).recover(on: dispatcher) {
                seen.record(described(Result<Void, any Error>.failure($0)))
                throw TestError.other
            }
            return Watched(recovered)
        },
    ]

    @Test(arguments: recoverCases) func recover(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let ensureCases: [DispatchedCase] = [
        DispatchedCase(name: "ensure", resolvesWith: "4", records: ["ensured"]) { dispatcher, seen in
            Watched(Promise.value(4).ensure(on: dispatcher) { seen.record("ensured") })
        },
        DispatchedCase(name: "ensureThen", resolvesWith: "boom", records: ["ensured"]) { dispatcher, seen in
            Watched(
                Promise<Int>(error: TestError.boom).ensureThen(on: dispatcher) {
                    seen.record("ensured")
                    return Guarantee()
                })
        },
    ]

    @Test(arguments: ensureCases) func ensure(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let finallyCases: [DispatchedCase] = [
        DispatchedCase(name: "finally", resolvesWith: "()", records: ["finally"]) { dispatcher, seen in
            let finalizer = Promise.value(1).catch(on: .inline) { _ in seen.record("caught") }
            return Watched(finalizer.finally(on: dispatcher) { seen.record("finally") }, keeping: finalizer)
        }
    ]

    @Test(arguments: finallyCases) func finally(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let validateCases: [DispatchedCase] = [
        DispatchedCase(name: "validate accepting", resolvesWith: "5") { dispatcher, _ in
            Watched(Promise.value(5).validate(on: dispatcher) { $0 > 3 })
        },
        DispatchedCase(name: "validate rejecting", resolvesWith: "validationFailed") { dispatcher, _ in
            Watched(Promise.value(1).validate(on: dispatcher) { $0 > 3 })
        },
        DispatchedCase(name: "validate rejecting with an error", resolvesWith: "other") { dispatcher, _ in
            Watched(Promise.value(1).validate(on: dispatcher, rejecting: TestError.other) { $0 > 3 })
        },
    ]

    @Test(arguments: validateCases) func validate(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let promiseSequenceCases: [DispatchedCase] = [
        DispatchedCase(name: "mapValues", resolvesWith: "[2, 4]") { dispatcher, _ in
            Watched(Promise.value([1, 2]).mapValues(on: dispatcher) { $0 * 2 })
        },
        DispatchedCase(name: "flatMapValues", resolvesWith: "[1, 1, 2, 2]") { dispatcher, _ in
            Watched(Promise.value([1, 2]).flatMapValues(on: dispatcher) { [$0, $0] })
        },
        DispatchedCase(name: "compactMapValues", resolvesWith: "[1, 3]") { dispatcher, _ in
            Watched(Promise.value(["1", "x", "3"]).compactMapValues(on: dispatcher) { Int($0) })
        },
        DispatchedCase(name: "thenMap", resolvesWith: "[10, 20]") { dispatcher, _ in
            Watched(Promise.value([1, 2]).thenMap(on: dispatcher) { Promise.value($0 * 10) })
        },
        DispatchedCase(name: "thenFlatMap", resolvesWith: "[1, 1, 2, 2]") { dispatcher, _ in
            Watched(Promise.value([1, 2]).thenFlatMap(on: dispatcher) { Promise.value([$0, $0]) })
        },
        DispatchedCase(name: "filterValues", resolvesWith: "[2, 3]") { dispatcher, _ in
            Watched(Promise.value([1, 2, 3]).filterValues(on: dispatcher) { $0 > 1 })
        },
        DispatchedCase(name: "firstValue", resolvesWith: "4") { dispatcher, _ in
            Watched(Promise.value([1, 4, 6]).firstValue(on: dispatcher) { $0 > 3 })
        },
        DispatchedCase(name: "firstValue of none", resolvesWith: "emptySequence") { dispatcher, _ in
            Watched(Promise.value([1, 2]).firstValue(on: dispatcher) { $0 > 3 })
        },
        DispatchedCase(name: "sortedValues by a predicate", resolvesWith: "[5, 3, 2]") { dispatcher, _ in
            Watched(Promise.value([5, 2, 3]).sortedValues(on: dispatcher) { $0 > $1 })
        },
        DispatchedCase(name: "sortedValues", resolvesWith: "[2, 3, 5]") { dispatcher, _ in
            Watched(Promise.value([5, 2, 3]).sortedValues(on: dispatcher))
        },
    ]

    @Test(arguments: promiseSequenceCases) func promiseSequenceOperators(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    static let guaranteeSequenceCases: [DispatchedCase] = [
        DispatchedCase(name: "mapValues", resolvesWith: "[2, 4]") { dispatcher, _ in
            let mapped: Guarantee<[Int]> = Guarantee.value([1, 2]).mapValues(on: dispatcher) { $0 * 2 }
            return Watched(mapped)
        },
        DispatchedCase(name: "flatMapValues", resolvesWith: "[1, 1, 2, 2]") { dispatcher, _ in
            let mapped: Guarantee<[Int]> = Guarantee.value([1, 2]).flatMapValues(on: dispatcher) { [$0, $0] }
            return Watched(mapped)
        },
        DispatchedCase(name: "compactMapValues", resolvesWith: "[1, 3]") { dispatcher, _ in
            let mapped: Guarantee<[Int]> = Guarantee.value(["1", "x", "3"]).compactMapValues(on: dispatcher) {
                Int($0)
            }
            return Watched(mapped)
        },
        DispatchedCase(name: "thenMap", resolvesWith: "[10, 20]") { dispatcher, _ in
            let mapped: Guarantee<[Int]> = Guarantee.value([1, 2]).thenMap(on: dispatcher) {
                Guarantee.value($0 * 10)
            }
            return Watched(mapped)
        },
        DispatchedCase(name: "thenFlatMap", resolvesWith: "[1, 1, 2, 2]") { dispatcher, _ in
            let mapped: Guarantee<[Int]> = Guarantee.value([1, 2]).thenFlatMap(on: dispatcher) {
                Guarantee.value([$0, $0])
            }
            return Watched(mapped)
        },
        DispatchedCase(name: "filterValues", resolvesWith: "[2, 3]") { dispatcher, _ in
            let filtered: Guarantee<[Int]> = Guarantee.value([1, 2, 3]).filterValues(on: dispatcher) {
                $0 > 1
            }
            return Watched(filtered)
        },
        DispatchedCase(name: "sortedValues by a predicate", resolvesWith: "[5, 3, 2]") { dispatcher, _ in
            let sorted: Guarantee<[Int]> = Guarantee.value([5, 2, 3]).sortedValues(on: dispatcher) { $0 > $1 }
            return Watched(sorted)
        },
        DispatchedCase(name: "sortedValues", resolvesWith: "[2, 3, 5]") { dispatcher, _ in
            let sorted: Guarantee<[Int]> = Guarantee.value([5, 2, 3]).sortedValues(on: dispatcher)
            return Watched(sorted)
        },
    ]

    @Test(arguments: guaranteeSequenceCases) func guaranteeSequenceOperators(_ operation: DispatchedCase) {
        checkHandlerWaits(for: operation)
    }

    // MARK: When a handler is dispatched

    @Test func aPendingThenableDispatchesItsHandlerOnlyOnceResolved() {
        let dispatcher = ManualDispatcher()
        let (start, resolver) = Promise<Int>.pending()
        let doubled = start.map(on: dispatcher) { $0 * 2 }
        #expect(dispatcher.pending == 0)
        resolver.fulfill(4)
        #expect(dispatcher.pending == 1)
        #expect(doubled.isPending)
        dispatcher.runAll()
        #expect(doubled.value == 8)
    }

    @Test func theDefaultPolicyLeavesACancellationUndispatched() {
        let dispatcher = ManualDispatcher()
        let caught = Counter()
        let finalizer = Promise<Int>(error: PromiseError.cancelled).catch(on: dispatcher) { _ in
            caught.increment()
        }
        #expect(dispatcher.pending == 0)
        #expect(finalizer.finished.isResolved)
        #expect(caught.value == 0)
    }

    @Test func aStepCancelledWhileItsHandlerWaitsInTheDispatcherSkipsIt() {
        let dispatcher = ManualDispatcher()
        let runs = Counter()
        let step = Promise.value(1).map(on: dispatcher) { value -> Int in
            runs.increment()
            return value
        }
        #expect(dispatcher.pending == 1)
        step.cancel()
        #expect(step.result?.isCancellation == true)
        dispatcher.runAll()
        #expect(runs.value == 0, "the handler of a cancelled step ran")
    }

    // MARK: ManualDispatcher

    @Test func runNextRunsTheOldestWorkFirst() {
        let dispatcher = ManualDispatcher()
        let order = Recorder<Int>()
        for index in 1...3 { dispatcher.dispatch { order.record(index) } }
        #expect(dispatcher.runNext())
        #expect(order.all == [1])
        #expect(dispatcher.pending == 2)
        #expect(dispatcher.runNext())
        #expect(dispatcher.runNext())
        #expect(order.all == [1, 2, 3])
    }

    @Test func runNextReturnsFalseWhenThereIsNoWork() {
        let dispatcher = ManualDispatcher()
        #expect(!dispatcher.runNext())
        dispatcher.dispatch {}
        #expect(dispatcher.runNext())
        #expect(!dispatcher.runNext())
    }

    @Test func runAllRunsWorkThatWorkDispatchesAndCountsIt() {
        let dispatcher = ManualDispatcher()
        let order = Recorder<String>()
        dispatcher.dispatch {
            order.record("outer")
            dispatcher.dispatch { order.record("inner") }
        }
        dispatcher.dispatch { order.record("second") }
        #expect(dispatcher.runAll() == 3)
        #expect(order.all == ["outer", "second", "inner"])
        #expect(dispatcher.pending == 0)
        #expect(dispatcher.runAll() == 0)
    }

    @Test func runAllRunsEveryStepOfAChain() {
        let dispatcher = ManualDispatcher()
        let total = Promise.value(1).map(on: dispatcher) { $0 + 1 }.map(on: dispatcher) { $0 * 10 }
        #expect(dispatcher.pending == 1)
        #expect(dispatcher.runAll() == 2)
        #expect(total.value == 20)
    }

    // MARK: Vow's other dispatchers

    @Test func inlineRunsTheHandlerAtOnce() {
        let tripled = Promise.value(2).map(on: .inline) { $0 * 3 }
        #expect(tripled.value == 6)

        let (start, resolver) = Promise<Int>.pending()
        let doubled = start.map(on: .inline) { $0 * 2 }
        #expect(doubled.isPending)
        resolver.fulfill(5)
        #expect(doubled.value == 10)
    }

    @Test func mainActorRunsTheHandlerOnTheMainQueue() throws {
        let onMain = Promise.value(1).map(on: .mainActor) { _ in isOnMainQueue() }
        #expect(try value(of: onMain))
        let seen = Recorder<Bool>()
        let finished: Guarantee<Void> = Guarantee.value(()).done(on: .mainActor) {
            seen.record(isOnMainQueue())
        }
        try value(of: finished)
        #expect(seen.all == [true])
    }

    @Test func anOperationQueueRunsTheHandlerAsAnOperation() throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let onQueue = Promise.value(1).map(on: queue) { _ in OperationQueue.current === queue }
        #expect(try value(of: onQueue))
    }

    @Test func aDispatcherOfTheUsersRunsEveryHandlerItIsGiven() throws {
        let dispatcher = CountingDispatcher(target: TestQueue("vow.tests.dispatcher.counting"))
        let onTarget = Recorder<Bool>()
        let total = Promise.value(1)
            .map(on: dispatcher) { value -> Int in
                onTarget.record(dispatcher.target.isCurrent)
                return value + 1
            }
            .done(on: dispatcher) { _ in onTarget.record(dispatcher.target.isCurrent) }
        try value(of: total)
        #expect(dispatcher.dispatched.value == 2)
        #expect(onTarget.all == [true, true])
    }

    @Test func aDispatcherChosenAtRunTimeIsUsed() {
        let manual = ManualDispatcher()
        let chosen: any Dispatcher = manual
        let doubled = Promise.value(4).map(on: chosen) { $0 * 2 }
        #expect(doubled.isPending)
        #expect(manual.pending == 1)
        manual.runAll()
        #expect(doubled.value == 8)
    }

    // MARK: Queues, as before

    @Test func aQueueStillRunsTheHandler() throws {
        let queue = TestQueue("vow.tests.dispatcher.queue")
        let onQueue = Promise.value(1).then(on: queue.queue) { _ in Promise.value(queue.isCurrent) }
        #expect(try value(of: onQueue))
        let flagged = Promise.value(1).then(on: queue.queue, flags: .barrier) { _ in
            Promise.value(queue.isCurrent)
        }
        #expect(try value(of: flagged))
    }

    @Test func theMainQueueStillRunsTheHandler() throws {
        let onMain = Promise.value(1).then(on: .main) { _ in Promise.value(isOnMainQueue()) }
        #expect(try value(of: onMain))
    }

    @Test func noQueueStillRunsTheHandlerInline() {
        let next = Promise.value(1).then(on: nil) { Promise.value($0 + 1) }
        #expect(next.value == 2)
        let none: DispatchQueue? = nil
        let doubled = Promise.value(3).map(on: none) { $0 * 2 }
        #expect(doubled.value == 6)
    }

    @Test func sortedValuesWithoutADispatcherStillSortsOnTheDefaultQueue() throws {
        #expect(try value(of: Promise.value([3, 1, 2]).sortedValues()) == [1, 2, 3])
        let sorted: Guarantee<[Int]> = Guarantee.value([3, 1, 2]).sortedValues()
        #expect(try value(of: sorted) == [1, 2, 3])
    }
}
