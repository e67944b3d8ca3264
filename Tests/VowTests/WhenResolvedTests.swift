import Dispatch
import Testing
import Vow

@Suite struct WhenResolvedTests {
    @Test func anArrayReportsEveryResultInOrder() throws {
        let (pending, resolver) = Promise<Int>.pending()
        let all = when(resolved: [Promise.value(1), Promise(error: TestError.boom), pending])
        #expect(all.isPending, "a rejection ended the wait early")
        DispatchQueue.global().async { resolver.fulfill(3) }
        let results = try value(of: all)
        #expect(results.map(summary) == ["1", "boom", "3"])
    }

    @Test func resultsKeepTheirOrderWhenTheyArriveOutOfOrder() throws {
        let pendings = (0..<4).map { _ in Promise<Int>.pending() }
        let all = when(resolved: pendings.map(\.promise))
        let background = DispatchQueue(label: "vow.tests.whenResolved")
        background.async {
            pendings[3].resolver.reject(TestError.other)
            pendings[1].resolver.fulfill(1)
            pendings[0].resolver.reject(TestError.boom)
            pendings[2].resolver.fulfill(2)
        }
        let results = try value(of: all)
        #expect(results.map(summary) == ["boom", "1", "2", "other"])
    }

    @Test func everyResultMayBeAFailure() throws {
        let all = when(resolved: [
            Promise<Int>(error: TestError.other), Promise(error: PromiseError.cancelled),
        ])
        let results = try value(of: all)
        #expect(results.map(summary) == ["other", "cancelled"])
    }

    @Test func variadicThenablesReportEveryResultInOrder() throws {
        let (second, resolver) = Promise<String>.pending()
        let all = when(resolved: Promise<String>(error: TestError.boom), second, Promise.value("third"))
        resolver.fulfill("second")
        let results = try value(of: all)
        #expect(results.map(summary) == ["boom", "second", "third"])
    }

    @Test func theResultIsAGuarantee() throws {
        let inferred = when(resolved: Promise<Int>(error: TestError.boom))
        let typed: Guarantee<[Result<Int, any Error>]> = inferred
        #expect(try value(of: typed).count == 1)
    }

    @Test func anEmptyArrayResolvesWithNoResults() throws {
        let all = when(resolved: [Promise<Int>]())
        #expect(try value(of: all).isEmpty)
    }

    @Test func guaranteesCanBeWaitedOnToo() throws {
        let all = when(resolved: [Guarantee.value(1), after(seconds: 0).map { 2 }])
        #expect(try value(of: all).map(summary) == ["1", "2"])
    }

    @Test func manyConcurrentResultsAllArrive() throws {
        for round in 0..<50 {
            let pendings = (0..<16).map { _ in Promise<Int>.pending() }
            let all = when(resolved: pendings.map(\.promise))
            DispatchQueue.concurrentPerform(iterations: pendings.count) { index in
                if index.isMultiple(of: 3) {
                    pendings[index].resolver.reject(TestError.boom)
                } else {
                    pendings[index].resolver.fulfill(index)
                }
            }
            let expected = (0..<16).map { $0.isMultiple(of: 3) ? "boom" : "\($0)" }
            let results = try value(of: all).map(summary)
            #expect(results == expected, "round \(round) gave \(results)")
        }
    }
}
