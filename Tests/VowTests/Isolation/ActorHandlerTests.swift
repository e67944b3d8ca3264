import Dispatch
import Foundation
import Testing
import Vow

/// Handlers written in an actor's method: where they run when they never mention `self`, and
/// in what order.
@Suite struct ActorHandlerTests {
    @Test func everyOperatorRunsAHandlerThatNeverMentionsSelfOnTheActor() async throws {
        let model = CaptureFreeModel()
        await model.runEveryOperator().async()
        let names = try await model.runTheRest().async()
        let theRest = [
            "retry", "retry.if", "retry", "lazy", "reduce", "map(_:as:)", "validate", "done(owner:)",
        ]
        #expect(names == everyOperator + theRest)
        let offTheActor = captureFreeVisits.all.filter { !$0.onActor }.map(\.name)
        #expect(offTheActor.isEmpty, "ran off the actor: \(offTheActor)")
    }

    @Test func anActorsHandlersOnOnePromiseRunInTheOrderTheyWereAttached() async {
        let ledger = OrderLedger()
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let attached = await ledger.attach(count: 500, to: guarantee)
        DispatchQueue.global().async { resolve(1) }
        await attached.async()
        #expect(await ledger.order == Array(0..<500))
    }

    @Test func theStepsOfAChainOnAnActorRunInOrderEachAfterTheOneBefore() async {
        let ledger = OrderLedger()
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let chain = await ledger.chain(steps: 200, from: guarantee)
        DispatchQueue.global().async { resolve(0) }
        #expect(await chain.async() == 200)
        #expect(await ledger.order == Array(0..<200))
    }

    @Test func aLongRunOfHandlersLetsOtherWorkOnTheActorIn() async {
        // Work sent to the actor while its handlers run is not held back until the last of
        // them: the task running them steps aside now and then.
        let ledger = OrderLedger()
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let attached = await ledger.attachLettingOthersIn(count: 1000, to: guarantee)
        resolve(1)
        await attached.async()
        let position = await ledger.otherWorkRanAfter
        #expect(
            position != nil && position! < 1000,
            "other work ran after \(String(describing: position)) handlers")
    }
}

/// An actor recording the order its handlers ran in.
actor OrderLedger {
    var order: [Int] = []
    var otherWorkRanAfter: Int?

    func attach(count: Int, to guarantee: Guarantee<Int>) -> Guarantee<Void> {
        let handlers = (0..<count).map { index in
            guarantee.done { _ in self.order.append(index) }
        }
        return when(guarantees: handlers)
    }

    func chain(steps: Int, from guarantee: Guarantee<Int>) -> Guarantee<Int> {
        (0..<steps).reduce(guarantee) { chain, _ in
            chain.map { step in
                self.order.append(step)
                return step + 1
            }
        }
    }

    func attachLettingOthersIn(count: Int, to guarantee: Guarantee<Int>) -> Guarantee<Void> {
        let handlers = (0..<count).map { index in
            guarantee.done { _ in
                if index == 0 {
                    // A task started here enters the actor as soon as it is free.
                    Task { self.otherWorkRanAfter = self.order.count }
                }
                self.order.append(index)
            }
        }
        return when(guarantees: handlers)
    }
}
