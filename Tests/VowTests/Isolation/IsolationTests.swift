import Dispatch
import Foundation
import Testing
import Vow

@Suite struct IsolationTests {
    @Test @MainActor func everyOperatorRunsAMainActorHandlerOnTheMainActor() async {
        let model = MainActorModel()
        await model.runEveryOperator().async()
        #expect(model.visited.filter { !$0.isEmpty } == everyOperator)
        #expect(model.offMainQueue.isEmpty)
    }

    @Test func everyOperatorRunsAnActorsHandlerOnTheActor() async {
        let model = ActorModel()
        await model.runEveryOperator().async()
        #expect(await model.visited.filter { !$0.isEmpty } == everyOperator)
    }

    @Test @MainActor func aMainActorHandlerHopsToTheMainQueueEvenWhenResolvedElsewhere() async throws {
        let model = MainActorModel()
        let (promise, resolver) = Promise<Int>.pending()
        let shown = promise.done(model.show)
        DispatchQueue.global().async { resolver.fulfill(1) }
        try await shown.async()
        #expect(model.visited == ["done"])
        #expect(model.offMainQueue.isEmpty)
    }

    @Test @MainActor func mainActorHandlersOnOnePromiseRunInTheOrderTheyWereAttached() async {
        let model = MainActorModel()
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let attached = (0..<50).map { index in guarantee.done { _ in model.touch("\(index)") } }
        DispatchQueue.global().async { resolve(1) }
        await when(guarantees: attached).async()
        #expect(model.visited == (0..<50).map(String.init))
    }

    @Test @MainActor func aMainActorHandlerNeverRunsInsideTheCallThatAttachedIt() async {
        let model = MainActorModel()
        let shown = Guarantee.value(1).done { _ in model.touch("done") }
        #expect(model.visited.isEmpty)
        await shown.async()
        #expect(model.visited == ["done"])
    }

    @Test func anActorsHandlersRunOneAtATimeOnTheActor() async {
        let ledger = Ledger()
        let chains = (0..<200).map { _ in Guarantee.value(1) }
        await ledger.addAll(chains)
        #expect(await ledger.total == 200)
        #expect(await ledger.mostAtOnce == 1)
    }

    @Test @MainActor func aThrowingMainActorHandlerRejects() async {
        let model = MainActorModel()
        let rejected = Promise.value(1).map { _ -> Int in
            model.touch("map")
            throw TestError.boom
        }
        await #expect(throws: TestError.boom) { try await rejected.async() }
        #expect(model.visited == ["map"])
    }

    @Test func aHandlerWrittenForAnotherGlobalActorRunsOnIt() async throws {
        let store = Store()
        let count = try await store.load(Promise.value([1, 2, 3])).async()
        #expect(count == 3)
        #expect(await store.items == [1, 2, 3])
    }

    @Test func aClosureCallingAnActorsMethodRunsOnTheActor() async {
        let ledger = Ledger()
        await ledger.addThrough(Guarantee.value(7))
        #expect(await ledger.total == 1)
    }

    @Test @MainActor func handlersBoundForTheMainQueueTakeTheirTurnBehindOtherMainQueueWork() async {
        // A main-actor handler and one given `.mainActor` go to the queue that
        // `DispatchQueue.main` names, each behind the blocks sent there before it and ahead of
        // those sent after. (ConfigurationTests shows the same for the default queue.)
        let turns = Recorder<String>()
        DispatchQueue.main.async { turns.record("block 1") }
        let mainActor = Guarantee.value(1).done { _ in turns.record("main actor") }
        DispatchQueue.main.async { turns.record("block 2") }
        let dispatcher = Guarantee.value(1).done(on: .mainActor) { _ in turns.record("dispatcher") }
        let (last, lastRan) = Guarantee<Void>.pending()
        DispatchQueue.main.async {
            turns.record("block 3")
            lastRan(())
        }
        #expect(turns.all.isEmpty, "main-queue work ran inside the call that sent it")
        await when(guarantees: [mainActor, dispatcher, last]).async()
        #expect(turns.all == ["block 1", "main actor", "block 2", "dispatcher", "block 3"])
    }

    @Test func aNonisolatedHandlerWithoutAQueueRunsInline() {
        let mapped = Promise.value(1).map(on: nil) { $0 + 1 }
        #expect(mapped.value == 2)
        let done = Guarantee.value(1).done(on: nil) { _ in }
        #expect(done.isResolved)
    }

    // A nonisolated handler without `on:` runs on the default queue; ConfigurationTests checks
    // that, since it owns `conf`.

    @Test @MainActor func aNonisolatedHandlerWrittenInMainActorCodeRunsWhereItsQueueSays() async throws {
        // `on:` makes the handler nonisolated, so it runs on the queue named, off the main actor.
        let onMain = try await Promise.value(1).map(on: .global()) { _ in isOnMainQueue() }.async()
        #expect(!onMain)
    }
}

/// An actor that counts how many of its handlers ever overlap, to show they never do.
actor Ledger {
    var total = 0
    var running = 0
    var mostAtOnce = 0

    func add() {
        assertIsolated()
        running += 1
        mostAtOnce = max(mostAtOnce, running)
        total += 1
        running -= 1
    }

    func addOne(_: Int) {
        add()
    }

    func addThrough(_ value: Guarantee<Int>) async {
        // A closure, not `done(addOne)`: Swift 6.3 turns a reference to an actor's method into
        // a nonisolated function without a word (swiftlang/swift#86801), so that handler would
        // run off the actor. SwiftConcurrency.md tells users the same.
        await value.done { self.addOne($0) }.async()
    }

    func addAll(_ values: [Guarantee<Int>]) async {
        let done = values.map { value in value.done { _ in self.add() } }
        await when(guarantees: done).async()
    }
}

/// A global actor other than the main actor, for handlers written in code isolated to it.
@globalActor actor StorageActor {
    static let shared = StorageActor()
}

/// A model isolated to ``StorageActor``, whose handlers touch its state with no annotation.
@StorageActor final class Store {
    var items: [Int] = []

    func load(_ fetched: Promise<[Int]>) -> Promise<Int> {
        fetched.get { items in
            StorageActor.shared.assertIsolated()
            self.items = items
        }.map { _ in self.items.count }
    }
}
