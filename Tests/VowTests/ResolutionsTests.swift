import Dispatch
import Testing
import Vow

@Suite struct ResolutionsTests {
    @Test func resultsComeInTheOrderTheThenablesResolve() async throws {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        let (third, thirdResolver) = Promise<Int>.pending()
        let resolutions = [first, second, third].resolutions
        // The iteration is under way, or about to be, while the results arrive.
        async let collected = summaries(of: resolutions)
        thirdResolver.fulfill(3)
        firstResolver.reject(TestError.boom)
        secondResolver.fulfill(2)
        #expect(try await collected == ["3", "boom", "2"])
    }

    @Test func resultsThatArriveBeforeTheIterationAreKeptInTheirOrder() async throws {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        let resolutions = [first, second].resolutions
        secondResolver.fulfill(2)
        firstResolver.fulfill(1)
        #expect(try await summaries(of: resolutions) == ["2", "1"])
    }

    @Test func thenablesAlreadyResolvedComeFirstInSequenceOrder() async throws {
        let (pending, resolver) = Promise<Int>.pending()
        let thenables = [pending, .value(1), Promise(error: TestError.other), .value(2)]
        let resolutions = thenables.resolutions
        resolver.fulfill(3)
        #expect(try await summaries(of: resolutions) == ["1", "other", "2", "3"])
    }

    @Test func guaranteesGiveTheirValuesAsResults() async throws {
        let (later, resolve) = Guarantee<String>.pending()
        let resolutions = [later, .value("now")].resolutions
        resolve("later")
        #expect(try await summaries(of: resolutions) == ["now", "later"])
    }

    @Test func anEmptyCollectionEndsAtOnce() async throws {
        #expect(try await summaries(of: [Promise<Int>]().resolutions).isEmpty)
        #expect(try await summaries(of: [Guarantee<Int>]().resolutions).isEmpty)
    }

    @Test func aLazySequenceOfThenablesIsWatchedAtOnce() async throws {
        let resolutions = (1...3).lazy.map { Promise.value($0 * 10) }.resolutions
        #expect(try await summaries(of: resolutions) == ["10", "20", "30"])
    }

    @Test func everyConcurrentResolutionIsDeliveredExactlyOnce() async throws {
        let count = 1_000
        let pairs = (0..<count).map { _ in Promise<Int>.pending() }
        let resolutions = pairs.map(\.promise).resolutions
        async let collected = bounded {
            var values: [Int] = []
            for await result in resolutions {
                values.append(try result.get())
            }
            return values
        }
        let resolvers = pairs.map(\.resolver)
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: count) { index in
                resolvers[index].fulfill(index)
            }
        }
        let values = try await collected
        // As many as there are promises, and none missing: each arrived exactly once.
        #expect(values.count == count)
        #expect(Set(0..<count).subtracting(values).isEmpty)
    }

    @Test func aLoopThatStopsEarlyLeavesTheRestForALaterLoop() async throws {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        let resolutions = [first, second].resolutions
        firstResolver.fulfill(1)
        #expect(try await firstSummary(of: resolutions) == "1")
        secondResolver.fulfill(2)
        #expect(try await summaries(of: resolutions) == ["2"])
    }

    @Test func resultsLeftUnreadAreFreedWithTheSequence() async throws {
        weak var unread: Token?
        func readOneOfTwo() async throws -> String? {
            let (first, firstResolver) = Promise<Token>.pending()
            let (second, secondResolver) = Promise<Token>.pending()
            let resolutions = [first, second].resolutions
            firstResolver.fulfill(Token(name: "first"))
            let token = Token(name: "second")
            unread = token
            secondResolver.fulfill(token)
            return try await firstSummary(of: resolutions)
        }
        #expect(try await readOneOfTwo() == "first")
        // Once the thenables and the sequence are gone, nothing holds the unread result.
        #expect(unread == nil)
    }

    @Test func cancellingTheIteratingTaskEndsTheSequenceForGood() async throws {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        let resolutions = [first, second].resolutions
        let reader = Task { await readAll(resolutions) }
        reader.cancel()
        // Nothing has resolved yet, so the loop can only have ended because of the cancellation.
        #expect(try await bounded { await reader.value }.isEmpty)
        firstResolver.fulfill(1)
        secondResolver.fulfill(2)
        #expect(try await summaries(of: resolutions).isEmpty)
        #expect([first.value, second.value] == [1, 2])
    }

    @MainActor @Test func resultsCanBeIteratedOnTheMainActor() async throws {
        let (later, resolver) = Promise<Int>.pending()
        let resolutions = [later, .value(1)].resolutions
        DispatchQueue.global().async { resolver.fulfill(2) }
        #expect(try await bounded { try await valuesOnTheMainActor(of: resolutions) } == [1, 2])
    }
}

/// Every value the sequence hands out, read in a loop that stays on the main actor.
@MainActor private func valuesOnTheMainActor(of resolutions: Resolutions<Int>) async throws -> [Int] {
    var values: [Int] = []
    for await result in resolutions {
        MainActor.assertIsolated("the loop left the main actor")
        values.append(try result.get())
    }
    return values
}

/// A value whose release the test can observe, described by its name.
private final class Token: Sendable, CustomStringConvertible {
    let name: String

    init(name: String) {
        self.name = name
    }

    var description: String { name }
}

/// Every result the sequence hands out, as text, until it ends; throws ``TimedOut`` if it does
/// not end.
private func summaries<T: Sendable>(of resolutions: Resolutions<T>) async throws -> [String] {
    try await bounded { await readAll(resolutions) }
}

/// Every result the sequence hands out, as text, until it ends.
private func readAll<T: Sendable>(_ resolutions: Resolutions<T>) async -> [String] {
    var all: [String] = []
    for await result in resolutions {
        all.append(summary(result))
    }
    return all
}

/// The first result the sequence hands out, as text, read by a loop that stops there; throws
/// ``TimedOut`` if none comes.
private func firstSummary<T: Sendable>(of resolutions: Resolutions<T>) async throws -> String? {
    try await bounded {
        for await result in resolutions {
            return summary(result)
        }
        return nil
    }
}
