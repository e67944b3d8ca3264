import Dispatch
import Testing
import Vow

@Suite struct WhenConcurrentlyTests {
    @Test func valuesComeInIteratorOrder() throws {
        let supply = Supply(count: 6)
        let all = when(fulfilled: supply.makeIterator(), concurrently: 3)
        supply.resolveEverything(newestFirst: true) { $0 * 10 }
        #expect(try value(of: all) == [0, 10, 20, 30, 40, 50])
    }

    @Test func alreadyResolvedElementsComeInIteratorOrder() throws {
        let elements = (0..<5).map { Promise.value("element \($0)") }
        let all = when(fulfilled: elements.makeIterator(), concurrently: 2)
        #expect(try value(of: all) == (0..<5).map { "element \($0)" })
    }

    @Test func guaranteesCanBeThrottledToo() throws {
        let elements = (0..<4).map { index in after(seconds: 0).map { index } }
        let all = when(fulfilled: elements.makeIterator(), concurrently: 2)
        #expect(try value(of: all) == [0, 1, 2, 3])
    }

    @Test func theIteratorIsAdvancedLazily() throws {
        let limit = 3
        let supply = Supply(count: 10)
        let all = when(fulfilled: supply.makeIterator(), concurrently: limit)
        let pulledAtFirst = supply.pulled
        #expect(pulledAtFirst <= limit, "pulled \(pulledAtFirst) elements before any resolved")
        #expect(pulledAtFirst >= 1, "pulled nothing to start with")
        supply.resolve(0, with: 0)
        #expect(supply.pulled == pulledAtFirst + 1, "one fulfilment should free exactly one slot")
        #expect(all.isPending)
        supply.resolveEverything(newestFirst: false) { $0 }
        #expect(try value(of: all) == Array(0..<10))
        #expect(supply.pulled == 10)
    }

    @Test func aLazyMappedIteratorIsPulledOnDemand() throws {
        let supply = Supply(count: 4)
        let pulls = Recorder<Int>()
        let iterator = (0..<4).lazy.map { index -> Promise<Int> in
            pulls.record(index)
            return supply.next()!
        }.makeIterator()
        let all = when(fulfilled: iterator, concurrently: 1)
        #expect(pulls.all == [0])
        supply.resolve(0, with: 100)
        #expect(pulls.all == [0, 1])
        supply.resolveEverything(newestFirst: false) { 100 + $0 }
        #expect(try value(of: all) == [100, 101, 102, 103])
        #expect(pulls.all == [0, 1, 2, 3])
    }

    @Test func neverMoreThanTheLimitArePending() throws {
        for limit in 1...4 {
            let tracker = InFlight()
            let elements = (0..<40).lazy.map { index in tracker.start(index) }
            let all = when(fulfilled: elements.makeIterator(), concurrently: limit)
            #expect(try value(of: all) == Array(0..<40))
            #expect(tracker.waitForAll(), "some background work never finished")
            #expect(
                tracker.maximum <= limit, "\(tracker.maximum) were pending at once with a limit of \(limit)")
            #expect(tracker.started == 40)
        }
    }

    @Test(arguments: [0, -1, Int.min])
    func aLimitBelowOneIsBadInput(limit: Int) throws {
        let all = when(fulfilled: [Promise.value(1)].makeIterator(), concurrently: limit)
        let failure = try error(of: all)
        #expect(
            badInputReason(failure) == "the concurrency limit must be at least 1, not \(limit)",
            "rejected with \(String(describing: failure))")
    }

    @Test func aLimitBelowOneDoesNotAdvanceTheIterator() throws {
        let supply = Supply(count: 3)
        let all = when(fulfilled: supply.makeIterator(), concurrently: 0)
        _ = try error(of: all)
        #expect(supply.pulled == 0)
    }

    @Test func anEmptyIteratorFulfilsWithNoValues() throws {
        let all = when(fulfilled: [Promise<Int>]().makeIterator(), concurrently: 2)
        #expect(try value(of: all) == [])
    }

    @Test func aLimitAboveTheCountPullsEverything() throws {
        let supply = Supply(count: 3)
        let all = when(fulfilled: supply.makeIterator(), concurrently: 10)
        #expect(supply.pulled == 3)
        supply.resolveEverything(newestFirst: true) { $0 + 1 }
        #expect(try value(of: all) == [1, 2, 3])
    }

    @Test func aRejectionRejectsTheWholeAndStopsPulling() throws {
        let supply = Supply(count: 10)
        let all = when(fulfilled: supply.makeIterator(), concurrently: 2)
        #expect(supply.pulled == 2)
        supply.reject(0, with: TestError.boom)
        #expect(try error(of: all) as? TestError == .boom)
        supply.resolve(1, with: 1)
        #expect(supply.pulled == 2, "pulled more elements after the rejection")
        #expect(try error(of: all) as? TestError == .boom)
    }

    @Test func anAlreadyRejectedElementStopsThePulling() throws {
        let pulls = Recorder<Int>()
        let elements = (0..<10).lazy.map { index -> Promise<Int> in
            pulls.record(index)
            return index == 2 ? Promise(error: TestError.other) : Promise.value(index)
        }
        let all = when(fulfilled: elements.makeIterator(), concurrently: 2)
        #expect(try error(of: all) as? TestError == .other)
        #expect(pulls.all == [0, 1, 2])
    }

    @Test func aRejectionFromTheBackgroundStopsThePulling() throws {
        let tracker = InFlight(rejecting: 5)
        let elements = (0..<30).lazy.map { index in tracker.start(index) }
        let all = when(fulfilled: elements.makeIterator(), concurrently: 3)
        let pulledAtRejection = Recorder<Int>()
        all.pipe { _ in pulledAtRejection.record(tracker.started) }
        #expect(try error(of: all) as? TestError == .boom)
        #expect(tracker.waitForAll(), "some background work never finished")
        let atRejection = try #require(pulledAtRejection.all.first)
        // A thread that reserved a slot just before the rejection may still pull one element.
        #expect(tracker.started <= atRejection + 1, "pulled \(tracker.started) after \(atRejection)")
    }

    @Test func manyRoundsWithRandomCompletionOrder() throws {
        let rounds = 200
        var problems: [String] = []
        var outOfOrderRounds = 0
        var maximumSeen = [Int: Int]()
        for round in 0..<rounds {
            let limit = Int.random(in: 1...4)
            let count = Int.random(in: 0...24)
            let tracker = InFlight(randomDelays: true)
            let elements = (0..<count).lazy.map { index in tracker.start(index) }
            let all = when(fulfilled: elements.makeIterator(), concurrently: limit)
            let values = try value(of: all)
            let finished = tracker.waitForAll()
            if values != Array(0..<count) { problems.append("round \(round): values \(values)") }
            if !finished { problems.append("round \(round): background work did not finish") }
            if tracker.maximum > limit {
                problems.append("round \(round): \(tracker.maximum) pending with limit \(limit)")
            }
            if tracker.started != count {
                problems.append("round \(round): pulled \(tracker.started) of \(count)")
            }
            if tracker.completionOrder != tracker.completionOrder.sorted() { outOfOrderRounds += 1 }
            maximumSeen[limit] = max(maximumSeen[limit] ?? 0, tracker.maximum)
        }
        let seen = maximumSeen.sorted { $0.key < $1.key }.map { "limit \($0.key): \($0.value)" }
        #expect(
            problems.isEmpty,
            """
            \(problems.count) of \(rounds) rounds failed: \(problems.prefix(5)); \
            \(outOfOrderRounds) rounds completed out of order; most pending at once: \(seen)
            """)
        print(
            "WhenConcurrentlyTests: \(rounds) rounds, \(outOfOrderRounds) completed out of order, "
                + "most pending at once: \(seen)")
    }

    // MARK: when(resolved:concurrently:)

    @Test func resolvedResultsComeInIteratorOrder() throws {
        let supply = Supply(count: 5)
        let all = when(resolved: supply.makeIterator(), concurrently: 2)
        #expect(supply.pulled == 2)
        supply.reject(1, with: TestError.boom)
        supply.resolve(2, with: 20)
        supply.reject(3, with: TestError.other)
        supply.resolve(4, with: 40)
        #expect(all.isPending, "resolved while element 0 was still pending")
        supply.resolve(0, with: 0)
        #expect(try value(of: all).map(summary) == ["0", "boom", "20", "other", "40"])
    }

    /// PromiseKit's `testWhenResolvedContinuesWhenRejected`, with a limit of one.
    @Test func aRejectionDoesNotStopTheResolvedPulling() throws {
        let pulls = Recorder<Int>()
        let elements = (0..<3).lazy.map { index -> Promise<Void> in
            pulls.record(index)
            return index == 1 ? Promise(error: TestError.boom) : Promise()
        }
        let all = when(resolved: elements.makeIterator(), concurrently: 1)
        #expect(try value(of: all).map(summary) == ["()", "boom", "()"])
        #expect(pulls.all == [0, 1, 2])
    }

    @Test func resolvedIsAGuaranteeOfResults() throws {
        let inferred = when(resolved: [Promise<Int>(error: TestError.boom)].makeIterator(), concurrently: 1)
        let typed: Guarantee<[Result<Int, any Error>]> = inferred
        #expect(try value(of: typed).map(summary) == ["boom"])
    }

    @Test func resolvedNeverHasMoreThanTheLimitPending() throws {
        for limit in 1...4 {
            let tracker = InFlight(rejecting: 5)
            let elements = (0..<40).lazy.map { index in tracker.start(index) }
            let all = when(resolved: elements.makeIterator(), concurrently: limit)
            let results = try value(of: all).map(summary)
            #expect(results == (0..<40).map { $0 == 5 ? "boom" : "\($0)" })
            #expect(tracker.waitForAll(), "some background work never finished")
            #expect(
                tracker.maximum <= limit, "\(tracker.maximum) were pending at once with a limit of \(limit)")
            #expect(tracker.started == 40)
        }
    }

    @Test(arguments: [0, -1, Int.min])
    func aResolvedLimitBelowOneGivesOneBadInputFailure(limit: Int) throws {
        let supply = Supply(count: 3)
        let results = try value(of: when(resolved: supply.makeIterator(), concurrently: limit))
        #expect(results.count == 1)
        let failure: (any Error)? = if case .failure(let error)? = results.first { error } else { nil }
        #expect(
            badInputReason(failure) == "the concurrency limit must be at least 1, not \(limit)",
            "the result was \(results)")
        #expect(supply.pulled == 0)
    }

    @Test func anEmptyIteratorResolvesWithNoResults() throws {
        let all = when(resolved: [Promise<Int>]().makeIterator(), concurrently: 3)
        #expect(try value(of: all).isEmpty)
    }

    @Test func manyResolvedRoundsWithRandomCompletionOrder() throws {
        var problems: [String] = []
        for round in 0..<100 {
            let limit = Int.random(in: 1...4)
            let count = Int.random(in: 0...24)
            let rejecting = Int.random(in: 0..<max(count, 1))
            let tracker = InFlight(rejecting: rejecting, randomDelays: true)
            let elements = (0..<count).lazy.map { index in tracker.start(index) }
            let results = try value(of: when(resolved: elements.makeIterator(), concurrently: limit)).map(
                summary)
            let expected = (0..<count).map { $0 == rejecting ? "boom" : "\($0)" }
            if results != expected { problems.append("round \(round): results \(results)") }
            if !tracker.waitForAll() { problems.append("round \(round): background work did not finish") }
            if tracker.maximum > limit {
                problems.append("round \(round): \(tracker.maximum) pending with limit \(limit)")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) rounds failed: \(problems.prefix(5))")
    }

    // MARK: The iterator is sent

    /// The form the documentation recommends: a `@Sendable` closure is not isolated to the main
    /// actor, so the compiler lets a main-actor function send the iterator, and it is safe to
    /// advance from the queues that complete the elements.
    @MainActor @Test func aSendableLazyMapCanBeSentFromTheMainActor() throws {
        let reads = (0..<6).lazy.map { @Sendable index in
            DispatchQueue.global().async(.promise) { index * index }
        }
        let rereads = (0..<6).lazy.map { @Sendable index in
            DispatchQueue.global().async(.promise) { index * index }
        }
        let squares = when(fulfilled: reads.makeIterator(), concurrently: 2)
        let results = when(resolved: rereads.makeIterator(), concurrently: 2)
        #expect(try value(of: squares) == [0, 1, 4, 9, 16, 25])
        #expect(try value(of: results).map(summary) == ["0", "1", "4", "9", "16", "25"])
    }
}

/// Hands out pending promises on demand and keeps their resolvers, so the test decides when
/// and in which order each one resolves.
private final class Supply: Sendable {
    private struct State {
        var resolvers: [Resolver<Int>] = []
        var settled: Set<Int> = []
    }

    private let count: Int
    private let state = Protected(State())

    init(count: Int) {
        self.count = count
    }

    /// A new pending promise, or `nil` once `count` have been handed out.
    func next() -> Promise<Int>? {
        state.withLock { state in
            guard state.resolvers.count < count else { return nil }
            let (promise, resolver) = Promise<Int>.pending()
            state.resolvers.append(resolver)
            return promise
        }
    }

    /// How many promises have been handed out.
    var pulled: Int {
        state.withLock { $0.resolvers.count }
    }

    func makeIterator() -> Iterator {
        Iterator(supply: self)
    }

    /// Fulfils element `index`, on this thread, outside the lock.
    func resolve(_ index: Int, with value: Int) {
        take(index)?.fulfill(value)
    }

    /// Rejects element `index`, on this thread, outside the lock.
    func reject(_ index: Int, with error: any Error) {
        take(index)?.reject(error)
    }

    /// Fulfils every element with `value(index)`, pulling on until the iterator is exhausted,
    /// so that no resolver is left pending.
    func resolveEverything(newestFirst: Bool, value: (Int) -> Int) {
        while true {
            let open = state.withLock { state in
                state.resolvers.indices.filter { !state.settled.contains($0) }
            }
            guard let index = newestFirst ? open.last : open.first else { return }
            resolve(index, with: value(index))
        }
    }

    private func take(_ index: Int) -> Resolver<Int>? {
        state.withLock { state in
            guard state.resolvers.indices.contains(index), state.settled.insert(index).inserted else {
                return nil
            }
            return state.resolvers[index]
        }
    }

    struct Iterator: IteratorProtocol {
        let supply: Supply

        mutating func next() -> Promise<Int>? {
            supply.next()
        }
    }
}

/// Starts elements that resolve from a background queue and counts how many are pending.
private final class InFlight: Sendable {
    private struct State {
        var pending = 0
        var maximum = 0
        var started = 0
        var completionOrder: [Int] = []
    }

    private let state = Protected(State())
    private let group = DispatchGroup()
    private let rejecting: Int?
    private let randomDelays: Bool

    init(rejecting: Int? = nil, randomDelays: Bool = false) {
        self.rejecting = rejecting
        self.randomDelays = randomDelays
    }

    /// A promise for element `index`, fulfilled with `index` (or rejected, for the element
    /// chosen to reject) from a global queue.
    func start(_ index: Int) -> Promise<Int> {
        state.withLock { state in
            state.pending += 1
            state.started += 1
            state.maximum = max(state.maximum, state.pending)
        }
        let (promise, resolver) = Promise<Int>.pending()
        group.enter()
        let work: @Sendable () -> Void = { [self] in
            state.withLock { state in
                state.pending -= 1
                state.completionOrder.append(index)
            }
            if index == rejecting {
                resolver.reject(TestError.boom)
            } else {
                resolver.fulfill(index)
            }
            group.leave()
        }
        if randomDelays, Bool.random() {
            DispatchQueue.global().asyncAfter(
                deadline: .now() + .microseconds(Int.random(in: 0..<300)), execute: work)
        } else {
            DispatchQueue.global().async(execute: work)
        }
        return promise
    }

    /// Waits until every started element has resolved; false if that took implausibly long.
    func waitForAll() -> Bool {
        group.wait(timeout: .now() + patience) == .success
    }

    var maximum: Int { state.withLock { $0.maximum } }
    var started: Int { state.withLock { $0.started } }
    var completionOrder: [Int] { state.withLock { $0.completionOrder } }
}
