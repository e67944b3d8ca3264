import Dispatch
import Testing
import Vow

@Suite struct WhenTests {
    // MARK: Arrays

    @Test func valuesKeepTheArrayOrderWhenTheyResolveOutOfOrder() throws {
        let pendings = (0..<3).map { _ in Promise<String>.pending() }
        let all = when(fulfilled: pendings.map(\.promise))
        let background = DispatchQueue(label: "vow.tests.when")
        for index in [2, 0, 1] {
            background.async { pendings[index].resolver.fulfill("value \(index)") }
        }
        #expect(try value(of: all) == ["value 0", "value 1", "value 2"])
    }

    @Test func valuesKeepTheArrayOrderUnderConcurrentResolution() throws {
        for round in 0..<50 {
            let pendings = (0..<16).map { _ in Promise<Int>.pending() }
            let all = when(fulfilled: pendings.map(\.promise))
            DispatchQueue.concurrentPerform(iterations: pendings.count) { index in
                let reversed = pendings.count - 1 - index
                pendings[reversed].resolver.fulfill(reversed * 10)
            }
            let values = try value(of: all)
            #expect(values == Array(stride(from: 0, to: 160, by: 10)), "round \(round) gave \(values)")
        }
    }

    @Test func alreadyResolvedAndPendingMix() throws {
        let (pending, resolver) = Promise<Int>.pending()
        let all = when(fulfilled: [Promise.value(1), pending, Promise.value(3)])
        #expect(all.isPending)
        resolver.fulfill(2)
        #expect(try value(of: all) == [1, 2, 3])
    }

    @Test func guaranteesInAnArrayGiveAPromiseOfTheirValues() throws {
        let all = when(fulfilled: [Guarantee.value("a"), after(seconds: 0).map { "b" }])
        #expect(try value(of: all) == ["a", "b"])
    }

    @Test func anEmptyArrayFulfilsWithAnEmptyArray() throws {
        let all = when(fulfilled: [Promise<Int>]())
        #expect(try value(of: all) == [])
    }

    @Test func theFirstRejectionRejectsWithoutWaitingForTheRest() throws {
        let (pending, resolver) = Promise<Int>.pending()
        let all = when(fulfilled: [pending, Promise(error: TestError.boom), Promise.value(3)])
        #expect(try error(of: all) as? TestError == .boom)
        resolver.fulfill(1)
        #expect(try error(of: all) as? TestError == .boom)
    }

    @Test func theFirstOfSeveralRejectionsWins() throws {
        let pendings = (0..<3).map { _ in Promise<Int>.pending() }
        let all = when(fulfilled: pendings.map(\.promise))
        pendings[1].resolver.reject(TestError.other)
        #expect(try error(of: all) as? TestError == .other)
        pendings[0].resolver.reject(TestError.boom)
        pendings[2].resolver.fulfill(2)
        #expect(try error(of: all) as? TestError == .other)
    }

    // MARK: Void forms

    @Test func aVoidArrayGivesAPromiseOfVoid() throws {
        let pendings = (0..<3).map { _ in Promise<Void>.pending() }
        let inferred = when(fulfilled: pendings.map(\.promise))
        let all: Promise<Void> = inferred
        #expect(all.isPending)
        for pending in pendings.reversed() {
            pending.resolver.fulfill()
        }
        try value(of: all)
        #expect(all.isFulfilled)
    }

    @Test func aVoidArrayRejectsWithTheFirstError() throws {
        let (pending, resolver) = Promise<Void>.pending()
        let all: Promise<Void> = when(fulfilled: [Promise(), pending, Promise(error: TestError.boom)])
        #expect(try error(of: all) as? TestError == .boom)
        resolver.fulfill()
    }

    @Test func anEmptyVoidArrayFulfils() throws {
        let all: Promise<Void> = when(fulfilled: [Promise<Void>]())
        try value(of: all)
        #expect(all.isFulfilled)
    }

    @Test func variadicVoidPromisesFulfil() throws {
        let (first, firstResolver) = Promise<Void>.pending()
        let (second, secondResolver) = Promise<Void>.pending()
        // Without the annotation Swift would pick the tuple overload, fulfilling with `((), ())`.
        let all: Promise<Void> = when(fulfilled: first, second)
        secondResolver.fulfill()
        #expect(all.isPending)
        DispatchQueue.global().async { firstResolver.fulfill() }
        try value(of: all)
        #expect(all.isFulfilled)
    }

    @Test func variadicVoidPromisesReject() throws {
        let (first, firstResolver) = Promise<Void>.pending()
        let all: Promise<Void> = when(
            fulfilled: first, Promise<Void>(error: TestError.other), Promise<Void>())
        #expect(try error(of: all) as? TestError == .other)
        firstResolver.fulfill()
    }

    @Test func aHandlerWithoutParametersSelectsTheVoidForm() throws {
        let finished = Recorder<String>()
        let done = when(fulfilled: Promise<Void>(), Promise<Void>()).done { finished.record("both") }
        try value(of: done)
        #expect(finished.all == ["both"])
    }

    @Test func manyVariadicVoidPromisesNeedNoAnnotation() throws {
        let voids = (0..<6).map { _ in Promise(after(seconds: 0)) }
        let inferred = when(fulfilled: voids[0], voids[1], voids[2], voids[3], voids[4], voids[5])
        let all: Promise<Void> = inferred
        try value(of: all)
        #expect(voids.allSatisfy { $0.isFulfilled })
    }

    @Test func aSingleVoidPromiseNeedsNoAnnotation() throws {
        let inferred = when(fulfilled: Promise<Void>(error: TestError.boom))
        let all: Promise<Void> = inferred
        #expect(try error(of: all) as? TestError == .boom)
    }

    // MARK: Tuples

    @Test func aPairOfMixedTypes() throws {
        let (number, numberResolver) = Promise<Int>.pending()
        let both = when(fulfilled: number, Guarantee.value("two"))
        DispatchQueue.global().async { numberResolver.fulfill(1) }
        let (first, second) = try value(of: both)
        #expect(first == 1)
        #expect(second == "two")
    }

    @Test func aTripleOfMixedTypes() throws {
        let (flag, flagResolver) = Promise<Bool>.pending()
        let three = when(fulfilled: Promise.value(1), after(seconds: 0).map { "two" }, flag)
        flagResolver.fulfill(true)
        let (first, second, third) = try value(of: three)
        #expect(first == 1)
        #expect(second == "two")
        #expect(third)
    }

    @Test func aQuadrupleOfMixedTypes() throws {
        let four = when(
            fulfilled: Promise.value(1), Guarantee.value("two"), Promise.value(3.5), Promise.value([4, 4]))
        let (first, second, third, fourth) = try value(of: four)
        #expect(first == 1)
        #expect(second == "two")
        #expect(third == 3.5)
        #expect(fourth == [4, 4])
    }

    @Test func aQuintupleOfMixedTypesResolvingOutOfOrder() throws {
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, resolveSecond) = Guarantee<String>.pending()
        let (third, thirdResolver) = Promise<Double>.pending()
        let (fourth, fourthResolver) = Promise<[Int]>.pending()
        let (fifth, fifthResolver) = Promise<Bool?>.pending()
        let five = when(fulfilled: first, second, third, fourth, fifth)
        let background = DispatchQueue(label: "vow.tests.when.tuple")
        background.async {
            fifthResolver.fulfill(nil)
            thirdResolver.fulfill(3.5)
            firstResolver.fulfill(1)
            fourthResolver.fulfill([4])
            resolveSecond("two")
        }
        let values = try value(of: five)
        #expect(values.0 == 1)
        #expect(values.1 == "two")
        #expect(values.2 == 3.5)
        #expect(values.3 == [4])
        #expect(values.4 == nil)
    }

    @Test func aTupleRejectsWithTheFirstError() throws {
        let (pending, resolver) = Promise<String>.pending()
        let pair = when(fulfilled: Promise<Int>(error: TestError.boom), pending)
        #expect(try error(of: pair) as? TestError == .boom)
        resolver.fulfill("late")

        let five = when(
            fulfilled: Promise.value(1), Promise.value("2"), Promise.value(3.0), Promise.value([4]),
            Promise<Bool>(error: TestError.other))
        #expect(try error(of: five) as? TestError == .other)
    }

    @Test func aTripleOfVoidsIsATuple() throws {
        let three = when(fulfilled: Promise<Void>(), Promise<Void>(), Promise<Void>())
        let typed: Promise<(Void, Void, Void)> = three
        _ = try value(of: typed)
        #expect(typed.isFulfilled)
    }

    // MARK: Arrays of mixed thenables

    @Test func mixedThenablesFulfilWithEveryValueInOrder() throws {
        let (pending, resolver) = Promise<Double>.pending()
        let all = when(fulfilled: [Promise.value(1), Guarantee.value("two"), pending])
        let typed: Promise<[any Sendable]> = all
        #expect(typed.isPending)
        DispatchQueue.global().async { resolver.fulfill(3.5) }
        let values = try value(of: typed)
        #expect(values.count == 3)
        #expect(values[0] as? Int == 1)
        #expect(values[1] as? String == "two")
        #expect(values[2] as? Double == 3.5)
    }

    /// PromiseKit's `testAnyInt`: promises and guarantees of one value type in one array.
    @Test func promisesAndGuaranteesOfOneTypeMix() throws {
        let promised = Promise.value(1)
        let guaranteed = Guarantee.value(2)
        let all = when(fulfilled: [promised, guaranteed, Promise.value(3), after(seconds: 0).map { 4 }])
        let values = try value(of: all)
        #expect(values.compactMap { $0 as? Int } == [1, 2, 3, 4])
    }

    @Test func mixedThenablesRejectWithTheFirstError() throws {
        let (pending, resolver) = Promise<String>.pending()
        let all = when(fulfilled: [Guarantee.value(1), pending, Promise<Bool>(error: TestError.boom)])
        #expect(try error(of: all) as? TestError == .boom)
        resolver.reject(TestError.other)
        #expect(try error(of: all) as? TestError == .boom)
    }

    @Test func anEmptyArrayOfMixedThenablesFulfilsWithNoValues() throws {
        let all = when(fulfilled: [any Thenable]())
        #expect(try value(of: all).isEmpty)
    }

    @Test func anArrayLiteralOfOneThenableTypeKeepsItsValueType() throws {
        let promised = Promise.value(1)
        let inferred = when(fulfilled: [promised, promised, Promise.value(3)])
        let typed: Promise<[Int]> = inferred
        #expect(try value(of: typed) == [1, 1, 3])
        let guarantees = when(fulfilled: [Guarantee.value("a"), Guarantee.value("b")])
        let typedGuarantees: Promise<[String]> = guarantees
        #expect(try value(of: typedGuarantees) == ["a", "b"])
    }
}
