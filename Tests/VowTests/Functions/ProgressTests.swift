import Dispatch
import Foundation
import Testing
import Vow

/// `when` and the parallel `map` report to the current `Progress`, as Foundation composes it.
@Suite struct ProgressTests {
    /// Runs `start` while a fresh progress of one unit is current, and returns that progress.
    private func reporting<R>(_ start: () -> R) -> (Progress, R) {
        let overall = Progress(totalUnitCount: 1)
        overall.becomeCurrent(withPendingUnitCount: 1)
        let started = start()
        overall.resignCurrent()
        return (overall, started)
    }

    @Test func whenFulfilledCompletesAUnitPerInput() {
        let pending = (0..<4).map { _ in Promise<Int>.pending() }
        let (overall, all) = reporting { when(fulfilled: pending.map(\.promise)) }
        #expect(overall.fractionCompleted == 0)
        pending[0].resolver.fulfill(0)
        pending[2].resolver.fulfill(2)
        #expect(overall.fractionCompleted == 0.5)
        pending[1].resolver.fulfill(1)
        pending[3].resolver.fulfill(3)
        #expect(all.value == [0, 1, 2, 3])
        #expect(overall.fractionCompleted == 1)
    }

    /// Inputs settling on many threads at once: each count is shown outside Vow's lock by one
    /// thread at a time, and none is lost.
    @Test func inputsSettlingOnManyThreadsAtOnceAreEachCounted() async {
        let count = 1_000
        let pending = (0..<count).map { _ in Promise<Int>.pending() }
        let (overall, all) = reporting { when(fulfilled: pending.map(\.promise)) }
        DispatchQueue.concurrentPerform(iterations: count) { pending[$0].resolver.fulfill($0) }
        #expect(all.value?.count == count)
        #expect(await eventually { overall.fractionCompleted == 1 }, "shown: \(overall.fractionCompleted)")
    }

    @Test func aRejectionCompletesTheWhole() {
        let pending = (0..<4).map { _ in Promise<Int>.pending() }
        let (overall, all) = reporting { when(fulfilled: pending.map(\.promise)) }
        pending[0].resolver.fulfill(0)
        #expect(overall.fractionCompleted == 0.25)
        pending[1].resolver.reject(TestError.boom)
        #expect(all.error != nil)
        #expect(overall.fractionCompleted == 1)
        pending[2].resolver.fulfill(2)
        pending[3].resolver.fulfill(3)
    }

    @Test func whenResolvedCountsRejectionsAsUnits() {
        let pending = (0..<2).map { _ in Promise<Int>.pending() }
        let (overall, all) = reporting { when(resolved: pending.map(\.promise)) }
        pending[0].resolver.reject(TestError.boom)
        #expect(overall.fractionCompleted == 0.5)
        pending[1].resolver.fulfill(1)
        #expect(all.value?.count == 2)
        #expect(overall.fractionCompleted == 1)
    }

    @Test func theParallelMapCompletesAUnitPerElement() {
        let work = ManualWork()
        let (overall, mapped) = reporting { map(1...4, as: .parallel(limit: 2)) { work.start($0) } }
        #expect(overall.fractionCompleted == 0)
        work.fulfil(1, with: 1)
        #expect(overall.fractionCompleted == 0.25, "the map's total was not known from the start")
        work.fulfil(2, with: 2)
        work.fulfil(3, with: 3)
        work.fulfil(4, with: 4)
        #expect(mapped.value == [1, 2, 3, 4])
        #expect(overall.fractionCompleted == 1)
    }

    @Test func aThrottledWhenLearnsItsTotalFromTheIterator() {
        let pending = (0..<3).map { _ in Promise<Int>.pending() }
        let (overall, all) = reporting {
            when(fulfilled: pending.map(\.promise).makeIterator(), concurrently: 3)
        }
        pending[0].resolver.fulfill(0)
        #expect(abs(overall.fractionCompleted - 1.0 / 3) < 1e-9)
        pending[1].resolver.fulfill(1)
        pending[2].resolver.fulfill(2)
        #expect(all.value == [0, 1, 2])
        #expect(overall.fractionCompleted == 1)
    }

    @Test func cancellingAThrottledWhenCompletesTheWhole() {
        let work = ManualWork()
        let (overall, mapped) = reporting { map(1...4, as: .series) { work.start($0) } }
        // Zero, not one: the map made a child progress, which took the pending unit.
        #expect(overall.fractionCompleted == 0)
        mapped.cancel()
        #expect(overall.fractionCompleted == 1)
    }

    @Test func aWhenReportsToTheProgressCurrentWhereItWasCalledAndNoOther() {
        let (promise, resolver) = Promise<Int>.pending()
        let all = when(fulfilled: [promise])
        let later = Progress(totalUnitCount: 1)
        later.becomeCurrent(withPendingUnitCount: 1)
        resolver.fulfill(1)
        #expect(all.value == [1])
        // Before resigning, which completes a pending unit that no child took.
        #expect(later.fractionCompleted == 0, "a when made with no progress current reported to a later one")
        later.resignCurrent()
    }
}
