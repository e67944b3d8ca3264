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
