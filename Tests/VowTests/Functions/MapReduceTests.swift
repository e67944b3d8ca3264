import Testing
import Vow

/// Work started per element whose promises the test settles by hand, recording what started,
/// how much ran at once, and what was cancelled.
final class ManualWork: Sendable {
    private struct State {
        var resolvers: [Int: Resolver<Int>] = [:]
        var started: [Int] = []
        var running = 0
        var mostRunning = 0
        var cancelled: [Int] = []
    }
    private let state = Protected(State())

    /// Starts the work for `element`: a pending promise.
    func start(_ element: Int) -> Promise<Int> {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.onCancel { [state] in state.withLock { $0.cancelled.append(element) } }
        state.withLock { state in
            state.resolvers[element] = resolver
            state.started.append(element)
            state.running += 1
            state.mostRunning = max(state.mostRunning, state.running)
        }
        return promise
    }

    func fulfil(_ element: Int, with value: Int) {
        finish(element).fulfill(value)
    }

    func reject(_ element: Int, with error: TestError = .boom) {
        finish(element).reject(error)
    }

    /// Rejects the work still running, which a test leaves pending on purpose: its resolvers,
    /// held here, would otherwise keep what waits on them alive, and this object with it, when
    /// the test's handlers capture this object.
    func rejectTheRest() {
        let rest = state.withLock { state in
            state.running = 0
            defer { state.resolvers = [:] }
            return state.resolvers.values
        }
        for resolver in rest { resolver.reject(TestError.boom) }
    }

    private func finish(_ element: Int) -> Resolver<Int> {
        state.withLock { state in
            state.running -= 1
            return state.resolvers.removeValue(forKey: element)!
        }
    }

    var started: [Int] { state.withLock { $0.started } }
    var mostRunning: Int { state.withLock { $0.mostRunning } }
    var cancelled: [Int] { state.withLock { $0.cancelled.sorted() } }
}

@Suite struct MapSequenceTests {
    @Test func seriesStartsEachElementOnceThePreviousHasFulfilled() {
        let work = ManualWork()
        let result = map([1, 2, 3], as: .series) { work.start($0) }
        #expect(work.started == [1])
        work.fulfil(1, with: 10)
        #expect(work.started == [1, 2])
        work.fulfil(2, with: 20)
        work.fulfil(3, with: 30)
        #expect(result.value == [10, 20, 30])
        #expect(work.mostRunning == 1)
    }

    @Test func aLimitKeepsThatManyInFlightAndTheResultsInInputOrder() {
        let work = ManualWork()
        let result = map(1...5, as: .parallel(limit: 2)) { work.start($0) }
        #expect(work.started == [1, 2])
        work.fulfil(2, with: 20)
        #expect(work.started == [1, 2, 3])
        work.fulfil(3, with: 30)
        work.fulfil(1, with: 10)
        #expect(work.started == [1, 2, 3, 4, 5])
        work.fulfil(5, with: 50)
        #expect(result.isPending)
        work.fulfil(4, with: 40)
        #expect(result.value == [10, 20, 30, 40, 50])
        #expect(work.mostRunning == 2)
    }

    @Test func parallelStartsEveryElementAtOnce() {
        let work = ManualWork()
        let result = map(1...100, as: .parallel) { work.start($0) }
        #expect(work.started == Array(1...100))
        for element in (1...100).reversed() { work.fulfil(element, with: -element) }
        #expect(result.value == (1...100).map { -$0 })
    }

    @Test func anEmptySequenceFulfilsWithNoValues() {
        #expect(map([Int](), as: .series) { Promise.value($0) }.value == [])
        #expect(map([Int](), as: .parallel(limit: 3)) { Promise.value($0) }.value == [])
    }

    @Test func theFirstRejectionRejectsAndCancelsWhatIsInFlight() {
        let work = ManualWork()
        let result = map(1...6, as: .parallel(limit: 3)) { work.start($0) }
        work.reject(2, with: .other)
        #expect(result.error as? TestError == .other)
        #expect(work.cancelled == [1, 3])
        #expect(work.started == [1, 2, 3], "an element started after the rejection")
    }

    @Test func aThrowFromTheTransformRejectsAndStartsNothingMore() {
        let work = ManualWork()
        let result = map(1...3, as: .series) { element -> Promise<Int> in
            if element == 2 { throw TestError.boom }
            return work.start(element)
        }
        work.fulfil(1, with: 1)
        #expect(result.error as? TestError == .boom)
        #expect(work.started == [1])
    }

    @Test func cancellingTheResultCancelsTheWorkInFlightAndStartsNoMore() {
        let work = ManualWork()
        let result = map(1...5, as: .parallel(limit: 2)) { work.start($0) }
        result.cancel()
        #expect(result.error.map { ($0 as? PromiseError)?.isCancelled } == true)
        #expect(work.cancelled == [1, 2])
        #expect(work.started == [1, 2])
    }

    @Test(arguments: [0, -1, Int.min])
    func aLimitBelowOneIsBadInputAndStartsNothing(limit: Int) {
        let work = ManualWork()
        let result = map(1...3, as: .parallel(limit: limit)) { work.start($0) }
        #expect(badInputReason(result.error)?.contains("\(limit)") == true)
        #expect(work.started.isEmpty)
    }

    @Test func aMainActorTransformRunsOnTheMainActor() async throws {
        let result = await MainActorMapper().run()
        #expect(try await bounded { try await result.async() } == [2, 4, 6])
    }

    @Test func parallelismDescribesItselfAsWritten() {
        #expect(Parallelism.series.description == "series")
        #expect(Parallelism.parallel.description == "parallel")
        #expect(Parallelism.parallel(limit: 4).description == "parallel(limit: 4)")
        #expect(Parallelism.parallel(limit: 1) == .series)
    }
}

@Suite struct ReduceTests {
    @Test func stepsRunInSeriesInOrderOfTheElements() {
        let work = ManualWork()
        let result = reduce([1, 2, 3], 100) { total, element in
            work.start(element).map(on: nil) { total + $0 }
        }
        #expect(work.started == [1])
        work.fulfil(1, with: 1)
        #expect(work.started == [1, 2])
        work.fulfil(2, with: 20)
        work.fulfil(3, with: 300)
        #expect(result.value == 421)
    }

    @Test func anEmptySequenceGivesTheInitialValue() {
        #expect(reduce([Int](), "start") { text, _ in Promise.value(text + "!") }.value == "start")
    }

    @Test func aRejectionSkipsTheRest() {
        let work = ManualWork()
        let result = reduce(1...4, 0) { total, element in work.start(element).map(on: nil) { total + $0 } }
        work.fulfil(1, with: 1)
        work.reject(2, with: .other)
        #expect(result.error as? TestError == .other)
        #expect(work.started == [1, 2])
    }

    @Test func aThrowSkipsTheRest() {
        let steps = Counter()
        let result = reduce(1...4, 0) { total, element -> Promise<Int> in
            steps.increment()
            if element == 2 { throw TestError.boom }
            return .value(total + element)
        }
        #expect(result.error as? TestError == .boom)
        #expect(steps.value == 2)
    }

    @Test func cancellingTheResultCancelsTheStepInFlightAndSkipsTheRest() {
        let work = ManualWork()
        let result = reduce(1...4, 0) { total, element in work.start(element).map(on: nil) { total + $0 } }
        work.fulfil(1, with: 1)
        result.cancel()
        #expect(result.error.map { ($0 as? PromiseError)?.isCancelled } == true)
        #expect(work.cancelled == [2])
        #expect(work.started == [1, 2])
    }

    @Test func aMainActorStepRunsOnTheMainActor() async throws {
        let result = await MainActorMapper().total()
        #expect(try await bounded { try await result.async() } == 6)
    }
}

@MainActor final class MainActorMapper {
    var calls = 0

    func run() -> Promise<[Int]> {
        map([1, 2, 3], as: .parallel(limit: 2)) { element in
            MainActor.assertIsolated()
            self.calls += 1
            return Guarantee.value(element * 2)
        }
    }

    func total() -> Promise<Int> {
        reduce([1, 2, 3], 0) { total, element in
            MainActor.assertIsolated()
            self.calls += 1
            return Guarantee.value(total + element)
        }
    }
}
