import Foundation
import Vow

/// Every operator that takes a handler, by name, in the order the fixtures below attach them.
/// A fixture records each name from inside the handler, so a handler that did not run, or ran
/// twice, shows in the comparison with this list.
let everyOperator = [
    "firstly", "then", "map", "compactMap", "get", "tap", "mapValues", "flatMapValues", "compactMapValues",
    "filterValues", "sortedValues", "firstValue", "thenMap", "thenFlatMap", "done", "recover(thenable)",
    "recover(guarantee)", "recover(void, guarantee)", "recover(void)", "ensure", "ensureThen", "catch",
    "finally",
    "guarantee.then", "guarantee.map", "guarantee.get", "guarantee.tap", "guarantee.mapValues",
    "guarantee.done",
]

/// A `@MainActor` model, written the way an app's view model is: its handlers touch its own
/// state with no annotation. That this file compiles in the Swift 6 mode is half the test; the
/// other half is `visited` and `offMainQueue`, recorded from inside each handler.
@MainActor final class MainActorModel {
    var visited: [String] = []
    var offMainQueue: [String] = []

    func touch(_ name: String) {
        MainActor.assertIsolated()
        if !isOnMainQueue() { offMainQueue.append(name) }
        visited.append(name)
    }

    func show(_ value: Int) { touch("done") }

    /// Runs a chain through every operator; resolves once the last handler has run.
    func runEveryOperator() -> Guarantee<Void> {
        let failing = Promise<Int>(error: CocoaError(.fileNoSuchFile))
        let chain = firstly { () -> Promise<Int> in
            self.touch("firstly")
            return Promise.value(1)
        }.then { value -> Promise<Int> in
            self.touch("then")
            return Promise.value(value + 1)
        }.map { value in
            self.touch("map")
            return value * 10
        }.compactMap { value -> Int? in
            self.touch("compactMap")
            return value
        }.get { _ in
            self.touch("get")
        }.tap { _ in
            self.touch("tap")
        }.map { [$0, 3, 2] }.mapValues { value in
            self.touch(value == 20 ? "mapValues" : "")
            return value
        }.flatMapValues { value -> [Int] in
            self.touch(value == 20 ? "flatMapValues" : "")
            return [value]
        }.compactMapValues { value -> Int? in
            self.touch(value == 20 ? "compactMapValues" : "")
            return value
        }.filterValues { value in
            self.touch(value == 20 ? "filterValues" : "")
            return true
        }.sortedValues { lhs, rhs in
            if self.visited.last != "sortedValues" { self.touch("sortedValues") }
            return lhs < rhs
        }.firstValue { _ in
            if self.visited.last != "firstValue" { self.touch("firstValue") }
            return true
        }.map { [$0] }.thenMap { value -> Promise<Int> in
            self.touch("thenMap")
            return Promise.value(value)
        }.thenFlatMap { value -> Promise<[Int]> in
            self.touch("thenFlatMap")
            return Promise.value([value])
        }.map { $0[0] }.done(self.show)
        return chain.then { failing }.recover { _ -> Promise<Int> in
            self.touch("recover(thenable)")
            return failing
        }.recover { _ -> Guarantee<Int> in
            self.touch("recover(guarantee)")
            return Guarantee.value(0)
        }.then { _ in
            self.voidRecoveries(failing.asVoid())
        }.then { _ in
            failing.ensure {
                self.touch("ensure")
            }.ensureThen {
                self.touch("ensureThen")
                return Guarantee()
            }.catch { _ in
                self.touch("catch")
            }.finally {
                self.touch("finally")
            }
        }.then {
            self.guaranteeOperators()
        }
    }

    private func voidRecoveries(_ failing: Promise<Void>) -> Guarantee<Void> {
        failing.recover { _ in
            self.touch("recover(void, guarantee)")
        }.then {
            failing.recover { _ in
                self.touch("recover(void)")
            }.recover { _ in }
        }
    }

    private func guaranteeOperators() -> Guarantee<Void> {
        let looked = Guarantee.value(1).then { value -> Guarantee<Int> in
            self.touch("guarantee.then")
            return Guarantee.value(value)
        }.map { value -> Int in
            self.touch("guarantee.map")
            return value
        }.get { _ in
            self.touch("guarantee.get")
        }.tap { _ in
            self.touch("guarantee.tap")
        }
        return looked.map { [$0] }.mapValues { value -> Int in
            self.touch("guarantee.mapValues")
            return value
        }.done { _ in
            self.touch("guarantee.done")
        }
    }
}

/// The same chain from an actor's method: each handler touches the actor's own state.
actor ActorModel {
    var visited: [String] = []

    func touch(_ name: String) {
        assertIsolated()
        visited.append(name)
    }

    func runEveryOperator() -> Guarantee<Void> {
        let failing = Promise<Int>(error: CocoaError(.fileNoSuchFile))
        let chain = firstly { () -> Promise<Int> in
            self.touch("firstly")
            return Promise.value(1)
        }.then { value -> Promise<Int> in
            self.touch("then")
            return Promise.value(value + 1)
        }.map { value in
            self.touch("map")
            return value * 10
        }.compactMap { value -> Int? in
            self.touch("compactMap")
            return value
        }.get { _ in
            self.touch("get")
        }.tap { _ in
            self.touch("tap")
        }.map { [$0, 3, 2] }.mapValues { value in
            self.touch(value == 20 ? "mapValues" : "")
            return value
        }.flatMapValues { value -> [Int] in
            self.touch(value == 20 ? "flatMapValues" : "")
            return [value]
        }.compactMapValues { value -> Int? in
            self.touch(value == 20 ? "compactMapValues" : "")
            return value
        }.filterValues { value in
            self.touch(value == 20 ? "filterValues" : "")
            return true
        }.sortedValues { lhs, rhs in
            if self.visited.last != "sortedValues" { self.touch("sortedValues") }
            return lhs < rhs
        }.firstValue { _ in
            if self.visited.last != "firstValue" { self.touch("firstValue") }
            return true
        }.map { [$0] }.thenMap { value -> Promise<Int> in
            self.touch("thenMap")
            return Promise.value(value)
        }.thenFlatMap { value -> Promise<[Int]> in
            self.touch("thenFlatMap")
            return Promise.value([value])
        }.map { $0[0] }.done { _ in
            self.touch("done")
        }
        return chain.then { failing }.recover { _ -> Promise<Int> in
            self.touch("recover(thenable)")
            return failing
        }.recover { _ -> Guarantee<Int> in
            self.touch("recover(guarantee)")
            return Guarantee.value(0)
        }.then { _ in
            failing.asVoid().recover { _ in
                self.touch("recover(void, guarantee)")
            }
        }.then {
            failing.asVoid().recover { _ in
                self.touch("recover(void)")
            }.recover { _ in }
        }.then { _ in
            failing.ensure {
                self.touch("ensure")
            }.ensureThen {
                self.touch("ensureThen")
                return Guarantee()
            }.catch { _ in
                self.touch("catch")
            }.finally {
                self.touch("finally")
            }
        }.then {
            self.guaranteeOperators()
        }
    }

    private func guaranteeOperators() -> Guarantee<Void> {
        let looked = Guarantee.value(1).then { value -> Guarantee<Int> in
            self.touch("guarantee.then")
            return Guarantee.value(value)
        }.map { value -> Int in
            self.touch("guarantee.map")
            return value
        }.get { _ in
            self.touch("guarantee.get")
        }.tap { _ in
            self.touch("guarantee.tap")
        }
        return looked.map { [$0] }.mapValues { value -> Int in
            self.touch("guarantee.mapValues")
            return value
        }.done { _ in
            self.touch("guarantee.done")
        }
    }
}
