import Dispatch
import Testing
import Vow

@Suite struct WhenGuaranteesTests {
    @Test func anArrayResolvesWithEveryValueInOrder() throws {
        let pendings = (0..<3).map { _ in Guarantee<String>.pending() }
        let inferred = when(guarantees: pendings.map(\.guarantee))
        let all: Guarantee<[String]> = inferred
        #expect(all.isPending)
        let background = DispatchQueue(label: "vow.tests.whenGuarantees")
        for index in [1, 2, 0] {
            background.async { pendings[index].resolve("value \(index)") }
        }
        #expect(try value(of: all) == ["value 0", "value 1", "value 2"])
    }

    @Test func resolvedAndPendingGuaranteesMix() throws {
        let all = when(guarantees: [Guarantee.value(1), after(seconds: 0).map { 2 }, Guarantee.value(3)])
        #expect(try value(of: all) == [1, 2, 3])
    }

    @Test func anEmptyArrayResolvesWithNoValues() throws {
        let all = when(guarantees: [Guarantee<Int>]())
        #expect(try value(of: all) == [])
    }

    @Test func aVoidArrayGivesAGuaranteeOfVoid() throws {
        let pendings = (0..<3).map { _ in Guarantee<Void>.pending() }
        let inferred = when(guarantees: pendings.map(\.guarantee))
        let all: Guarantee<Void> = inferred
        pendings[2].resolve(())
        pendings[0].resolve(())
        #expect(all.isPending, "resolved before every guarantee had")
        DispatchQueue.global().async { pendings[1].resolve(()) }
        try value(of: all)
        #expect(all.isResolved)
    }

    @Test func anEmptyVoidArrayResolves() throws {
        let all: Guarantee<Void> = when(guarantees: [Guarantee<Void>]())
        try value(of: all)
        #expect(all.isResolved)
    }

    @Test func variadicVoidGuaranteesResolve() throws {
        let (first, resolveFirst) = Guarantee<Void>.pending()
        let (second, resolveSecond) = Guarantee<Void>.pending()
        let inferred = when(guarantees: first, second, after(seconds: 0))
        let all: Guarantee<Void> = inferred
        resolveFirst(())
        #expect(all.isPending, "resolved before every guarantee had")
        DispatchQueue.global().async { resolveSecond(()) }
        try value(of: all)
        #expect(all.isResolved)
    }

    @Test func aSingleVariadicVoidGuaranteeResolves() throws {
        let all = when(guarantees: Guarantee<Void>())
        try value(of: all)
        #expect(all.isResolved)
    }

    // MARK: Unlabelled variadic forms

    @Test func unlabelledGuaranteesResolveWithEveryValueInArgumentOrder() throws {
        let (third, resolveThird) = Guarantee<Int>.pending()
        let inferred = when(
            Guarantee.value(1), Guarantee.value(4), third, Guarantee.value(5), Guarantee.value(3))
        let all: Guarantee<[Int]> = inferred
        #expect(all.isPending)
        DispatchQueue.global().async { resolveThird(2) }
        #expect(try value(of: all) == [1, 4, 2, 5, 3])
    }

    @Test func unlabelledVoidGuaranteesGiveAGuaranteeOfVoid() throws {
        let (first, resolveFirst) = Guarantee<Void>.pending()
        let (second, resolveSecond) = Guarantee<Void>.pending()
        let inferred = when(first, second)
        let all: Guarantee<Void> = inferred
        resolveSecond(())
        #expect(all.isPending, "resolved before every guarantee had")
        DispatchQueue.global().async { resolveFirst(()) }
        try value(of: all)
        #expect(all.isResolved)
    }

    @Test func unlabelledVoidGuaranteesTakeAHandlerWithoutParameters() throws {
        let ran = Recorder<Bool>()
        let finished = when(Guarantee<Void>(), after(seconds: 0)).done(on: nil) { ran.record(true) }
        try value(of: finished)
        #expect(ran.all == [true])
    }

    // MARK: Tuples

    @Test func twoGuaranteesGiveATupleOnceBothResolve() throws {
        let (second, resolveSecond) = Guarantee<String>.pending()
        let all = when(guarantees: Guarantee.value(1), second)
        #expect(all.isPending)
        DispatchQueue.global().async { resolveSecond("abc") }
        let (number, text) = try value(of: all)
        #expect(number == 1)
        #expect(text == "abc")
    }

    @Test func threeGuaranteesGiveATuple() throws {
        let all = when(guarantees: Guarantee.value(1), after(seconds: 0).map { "abc" }, Guarantee.value(1.5))
        let (number, text, real) = try value(of: all)
        #expect(number == 1 && text == "abc" && real == 1.5)
    }

    @Test func fourGuaranteesGiveATuple() throws {
        let all = when(
            guarantees: Guarantee.value(1), Guarantee.value("abc"), after(seconds: 0).map { 1.5 },
            Guarantee.value(true))
        let (number, text, real, flag) = try value(of: all)
        #expect(number == 1 && text == "abc" && real == 1.5 && flag)
    }

    @Test func fiveGuaranteesGiveATupleInArgumentOrder() throws {
        let pendings = (0..<5).map { _ in Guarantee<Int>.pending() }
        let all = when(
            guarantees: pendings[0].guarantee, pendings[1].guarantee.map(on: nil) { "\($0)" },
            pendings[2].guarantee, pendings[3].guarantee.map(on: nil) { Double($0) },
            pendings[4].guarantee.map(on: nil) { Character("\($0)") })
        let background = DispatchQueue(label: "vow.tests.whenGuarantees.tuple")
        for index in [4, 2, 0, 3] {
            background.async { pendings[index].resolve(index) }
        }
        background.sync {}
        #expect(all.isPending, "resolved before every guarantee had")
        pendings[1].resolve(1)
        let (first, second, third, fourth, fifth) = try value(of: all)
        #expect(first == 0 && second == "1" && third == 2 && fourth == 3.0 && fifth == "4")
    }

    @Test func tupleHandlersTakeOneParameterPerGuarantee() throws {
        let seen = Recorder<String>()
        let finished = when(guarantees: Guarantee.value(1), Guarantee.value("x")).done(on: nil) {
            number, text in
            seen.record("\(number) \(text)")
        }
        try value(of: finished)
        #expect(seen.all == ["1 x"])
    }

    @Test func voidGuaranteesPickTheVariadicVoidFormOverATuple() throws {
        let inferred = when(guarantees: Guarantee<Void>(), Guarantee<Void>())
        let all: Guarantee<Void> = inferred
        try value(of: all)
        #expect(all.isResolved)
    }

    @Test func manyConcurrentGuaranteesKeepTheirOrder() throws {
        for round in 0..<50 {
            let pendings = (0..<16).map { _ in Guarantee<Int>.pending() }
            let all = when(guarantees: pendings.map(\.guarantee))
            DispatchQueue.concurrentPerform(iterations: pendings.count) { index in
                pendings[index].resolve(index * index)
            }
            let values = try value(of: all)
            #expect(values == (0..<16).map { $0 * $0 }, "round \(round) gave \(values)")
        }
    }
}
