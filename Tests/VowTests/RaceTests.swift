import Dispatch
import Testing
import Vow

@Suite struct RaceTests {
    // MARK: race

    @Test func theFirstToFulfilWinsAnArrayRace() throws {
        let (slow, slowResolver) = Promise<Int>.pending()
        let (fast, fastResolver) = Promise<Int>.pending()
        let winner = race([slow, fast])
        #expect(winner.isPending)
        DispatchQueue.global().async { fastResolver.fulfill(2) }
        #expect(try value(of: winner) == 2)
        slowResolver.fulfill(1)
        #expect(try value(of: winner) == 2)
    }

    @Test func theFirstToRejectWinsAnArrayRace() throws {
        let (slow, slowResolver) = Promise<Int>.pending()
        let (fast, fastResolver) = Promise<Int>.pending()
        let winner = race([slow, fast])
        fastResolver.reject(TestError.boom)
        #expect(try error(of: winner) as? TestError == .boom)
        slowResolver.fulfill(1)
        #expect(try error(of: winner) as? TestError == .boom)
    }

    @Test func anAlreadyResolvedContenderWins() throws {
        let (pending, resolver) = Promise<Int>.pending()
        let winner = race([pending, Promise.value(9)])
        #expect(try value(of: winner) == 9)
        resolver.fulfill(1)
        #expect(try value(of: winner) == 9)
    }

    @Test func theFirstToFulfilWinsAVariadicRace() throws {
        let (first, firstResolver) = Promise<String>.pending()
        let (second, secondResolver) = Promise<String>.pending()
        let (third, thirdResolver) = Promise<String>.pending()
        let winner = race(first, second, third)
        secondResolver.fulfill("second")
        #expect(try value(of: winner) == "second")
        thirdResolver.fulfill("third")
        firstResolver.fulfill("first")
        #expect(try value(of: winner) == "second")
    }

    @Test func theFirstToRejectWinsAVariadicRace() throws {
        let (first, firstResolver) = Promise<String>.pending()
        let (second, secondResolver) = Promise<String>.pending()
        let winner = race(first, second)
        DispatchQueue.global().async { firstResolver.reject(TestError.other) }
        #expect(try error(of: winner) as? TestError == .other)
        secondResolver.fulfill("second")
        #expect(try error(of: winner) as? TestError == .other)
    }

    @Test func anEmptyRaceRejectsWithBadInput() throws {
        let winner = race([Promise<Int>]())
        let failure = try error(of: winner)
        #expect(
            badInputReason(failure)?.contains("at least one contender") == true,
            "rejected with \(String(describing: failure))")
    }

    @Test func anArrayOfGuaranteesRacesToAPromise() throws {
        let (slow, resolveSlow) = Guarantee<Int>.pending()
        let (fast, resolveFast) = Guarantee<Int>.pending()
        let winner: Promise<Int> = race([slow, fast])
        resolveFast(2)
        #expect(try value(of: winner) == 2)
        resolveSlow(1)
        #expect(try value(of: winner) == 2)
    }

    // MARK: race of guarantees

    @Test func aRaceOfGuaranteesIsAGuarantee() throws {
        let (slow, resolveSlow) = Guarantee<Int>.pending()
        let (fast, resolveFast) = Guarantee<Int>.pending()
        let inferred = race(slow, fast)
        let winner: Guarantee<Int> = inferred
        #expect(winner.isPending)
        DispatchQueue.global().async { resolveFast(2) }
        #expect(try value(of: winner) == 2)
        resolveSlow(1)
        #expect(try value(of: winner) == 2)
    }

    @Test func aRaceOfOneGuaranteeResolvesAsIt() throws {
        let inferred = race(Guarantee.value("alone"))
        let winner: Guarantee<String> = inferred
        #expect(try value(of: winner) == "alone")
    }

    @Test func theFirstGuaranteeCanWin() throws {
        let (first, resolveFirst) = Guarantee<Int>.pending()
        let (second, resolveSecond) = Guarantee<Int>.pending()
        let (third, resolveThird) = Guarantee<Int>.pending()
        // Inferred without an annotation: the guarantee overload is the more specific one.
        let inferred = race(first, second, third)
        let winner: Guarantee<Int> = inferred
        resolveFirst(1)
        #expect(try value(of: winner) == 1)
        resolveThird(3)
        resolveSecond(2)
        #expect(try value(of: winner) == 1)
    }

    // MARK: race(fulfilled:)

    @Test func fulfilledRaceSkipsRejections() throws {
        let (rejecting, rejectingResolver) = Promise<Int>.pending()
        let (fulfilling, fulfillingResolver) = Promise<Int>.pending()
        let (losing, losingResolver) = Promise<Int>.pending()
        let winner = race(fulfilled: [rejecting, fulfilling, losing])
        rejectingResolver.reject(TestError.boom)
        #expect(winner.isPending, "a rejection ended the race early")
        DispatchQueue.global().async { fulfillingResolver.fulfill(2) }
        #expect(try value(of: winner) == 2)
        losingResolver.fulfill(3)
        #expect(try value(of: winner) == 2)
    }

    @Test func fulfilledRaceIsWonByTheFirstToFulfil() throws {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        let winner = race(fulfilled: [first, second])
        secondResolver.fulfill(2)
        #expect(try value(of: winner) == 2)
        firstResolver.fulfill(1)
        #expect(try value(of: winner) == 2)
    }

    @Test func fulfilledRaceWithAWinnerAfterEveryOtherRejected() throws {
        let winner = race(fulfilled: [
            Promise<Int>(error: TestError.boom), Promise(error: TestError.other), Promise.value(3),
        ])
        #expect(try value(of: winner) == 3)
    }

    @Test func fulfilledRaceWhereEveryoneRejectsHasNoWinner() throws {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        let winner = race(fulfilled: [first, second])
        firstResolver.reject(TestError.boom)
        #expect(winner.isPending)
        DispatchQueue.global().async { secondResolver.reject(TestError.other) }
        let failure = try error(of: winner)
        #expect(isPromiseError(failure, .noWinner), "rejected with \(String(describing: failure))")
    }

    @Test func fulfilledRaceOfAlreadyRejectedPromisesHasNoWinner() throws {
        let winner = race(fulfilled: [Promise<Int>(error: TestError.boom)])
        let failure = try error(of: winner)
        #expect(isPromiseError(failure, .noWinner), "rejected with \(String(describing: failure))")
    }

    @Test func anEmptyFulfilledRaceRejectsWithBadInput() throws {
        let winner = race(fulfilled: [Promise<Int>]())
        let failure = try error(of: winner)
        #expect(
            badInputReason(failure)?.contains("at least one contender") == true,
            "rejected with \(String(describing: failure))")
    }

    @Test func manyConcurrentRejectionsEndWithNoWinner() throws {
        for round in 0..<100 {
            let contenders = (0..<8).map { _ in Promise<Int>.pending() }
            let winner = race(fulfilled: contenders.map(\.promise))
            DispatchQueue.concurrentPerform(iterations: contenders.count) { index in
                contenders[index].resolver.reject(TestError.boom)
            }
            let failure = try error(of: winner)
            #expect(
                isPromiseError(failure, .noWinner),
                "round \(round) rejected with \(String(describing: failure))")
        }
    }
}
