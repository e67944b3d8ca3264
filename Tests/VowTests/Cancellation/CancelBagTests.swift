import Dispatch
import Testing

@testable import Vow

/// A `CancelBag` cancels what it holds when it goes away or is told to, holds nothing that has
/// finished, and runs no handler while it holds its lock.
@Suite struct CancelBagTests {
    @Test func aBagGoingAwayCancelsItsChains() {
        let (input, resolver) = Promise<Int>.pending()
        let ended = Recorder<String>()
        var bag: CancelBag? = CancelBag()
        let step = input.map(on: nil) { $0 + 1 }.store(in: bag!)
        let finalizer = input.done(on: nil) { _ in ended.record("done") }
            .catch(on: nil) { _ in ended.record("catch") }
            .store(in: bag!)
        finalizer.finally(on: nil) { ended.record("finally") }
        bag = nil
        #expect(step.result?.isCancellation == true)
        #expect(ended.all == ["finally"], "the cancelled chain ran \(ended.all)")
        #expect(input.isPending, "the input had no other consumer, but a handle kept it")
        resolver.fulfill(1)
        #expect(ended.all == ["finally"])
    }

    @Test func cancelAllCancelsWhatIsStoredAndHoldsWhatComesAfter() {
        let (input, resolver) = Promise<Int>.pending()
        let bag = CancelBag()
        let first = input.map(on: nil) { $0 }.store(in: bag)
        bag.cancelAll()
        #expect(first.result?.isCancellation == true)
        let second = input.map(on: nil) { $0 * 2 }.store(in: bag)
        #expect(second.isPending, "a chain stored after cancelAll was cancelled with the earlier ones")
        resolver.fulfill(4)
        #expect(second.value == 8)
    }

    /// The shared-consumer rule holds: a bag cancels its own consumer, never a promise someone
    /// else still waits for.
    @Test func aBagCancelsOnlyWhatNothingElseWaitsFor() {
        let (input, resolver) = Promise<Int>.pending()
        let staying = input.map(on: nil) { $0 }
        do {
            let bag = CancelBag()
            input.map(on: nil) { $0 }.store(in: bag)
        }
        #expect(input.isPending)
        resolver.fulfill(3)
        #expect(staying.value == 3)
    }

    /// Chains that finished are not kept: the values they resolved with, and what those hold,
    /// are released as other chains are stored.
    @Test func finishedChainsAreLetGo() {
        let live = LiveObjects()
        let bag = CancelBag()
        for _ in 0..<1_000 {
            let (promise, resolver) = Promise<Captured>.pending()
            promise.store(in: bag)
            resolver.fulfill(Captured(live))
        }
        #expect(live.count < 16, "the bag kept \(live.count) finished chains' values")
        Promise.value(Captured(live)).store(in: bag)
        #expect(live.count < 16, "the bag kept a chain that had finished before it was stored")
        withExtendedLifetime(bag) {}
    }

    /// Cancelling runs handlers, which may use the bag again: they run outside its lock.
    @Test func handlersRunByCancellingMayUseTheBag() {
        let bag = CancelBag()
        let (input, resolver) = Promise<Int>.pending()
        let stored = input.map(on: nil) { $0 }.store(in: bag)
        let later = Protected<Promise<Int>?>(nil)
        stored.catch(on: nil, policy: .allErrors) { _ in
            later.withLock { $0 = input.map(on: nil) { $0 }.store(in: bag) }
        }
        let returned = returnsWithinPatience { bag.cancelAll() }
        #expect(returned, "cancelAll deadlocked on a handler that stored into the bag")
        #expect(later.withLock { $0?.isPending } == true)
        resolver.fulfill(1)
    }

    /// A chain stored as another thread cancels the bag is either cancelled with the others or
    /// held: never lost, never cancelled twice, never left in a bag that forgot it.
    @Test func aStoreRacingCancelAllIsCancelledOrHeld() async throws {
        let tally = try await stressTest {
            raceRounds(atMost: 2_000, sanitized: 400) { round in
                let (input, resolver) = Promise<Int>.pending()
                let bag = CancelBag()
                let first = input.map(on: nil) { $0 }.store(in: bag)
                let racing = Protected<Promise<Int>?>(nil)
                let raced = runTogether(
                    round: round, { bag.cancelAll() },
                    { racing.withLock { $0 = input.map(on: nil) { $0 }.store(in: bag) } })
                let second = racing.withLock { $0! }
                #expect(
                    first.result?.isCancellation == true, "round \(round): the first chain was not cancelled")
                if second.isPending {
                    // Stored after the cancellation: the bag holds it, and cancels it next time.
                    bag.cancelAll()
                }
                #expect(second.result?.isCancellation == true, "round \(round): the racing chain was lost")
                resolver.fulfill(round)
                return raced
            }
        }
        #expect(tally.raced > 0, "the store and the cancellation never overlapped in \(tally.rounds) rounds")
    }
}
