import Dispatch
import Testing
import Vow

@Suite struct FirstlyTests {
    @Test func firstlyWithAPromiseResolvesAsThatPromise() throws {
        let started = firstly { Promise.value(1) }
        let typed: Promise<Int> = started
        #expect(try value(of: typed) == 1)
    }

    @Test func firstlyWithAPendingPromiseWaitsForIt() throws {
        let (source, resolver) = Promise<String>.pending()
        let started = firstly { source }
        #expect(started.isPending)
        DispatchQueue.global().async { resolver.fulfill("later") }
        #expect(try value(of: started) == "later")
    }

    @Test func firstlyWithARejectedPromiseRejects() throws {
        let started = firstly { Promise<Int>(error: TestError.other) }
        #expect(try error(of: started) as? TestError == .other)
    }

    @Test func firstlyWithAGuaranteeStaysAGuarantee() throws {
        let started = firstly { Guarantee.value(2) }
        let typed: Guarantee<Int> = started
        #expect(try value(of: typed) == 2)
    }

    @Test func firstlyWithAPendingGuaranteeWaitsForIt() throws {
        let (source, resolve) = Guarantee<Int>.pending()
        let started: Guarantee<Int> = firstly { source }
        #expect(started.isPending)
        DispatchQueue.global().async { resolve(3) }
        #expect(try value(of: started) == 3)
    }

    @Test func aThrowingBodyRejects() throws {
        let started = firstly { () throws -> Promise<Int> in throw TestError.boom }
        #expect(try error(of: started) as? TestError == .boom)
    }

    @Test func aThrowingBodyThatReturnsAGuaranteeGivesAPromise() throws {
        let shouldThrow = false
        let started = firstly { () throws -> Guarantee<Int> in
            if shouldThrow { throw TestError.boom }
            return Guarantee.value(4)
        }
        let typed: Promise<Int> = started
        #expect(try value(of: typed) == 4)
    }

    @Test func theBodyRunsAtOnceOnTheCallingThread() throws {
        let ran = Recorder<String>()
        let started = firstly { () -> Promise<Int> in
            ran.record("body")
            return .value(5)
        }
        #expect(ran.all == ["body"])
        #expect(try value(of: started) == 5)
    }

    @Test func aChainStartedByFirstlyCarriesOn() throws {
        let chained = firstly { Promise.value(6) }.map { $0 * 7 }
        #expect(try value(of: chained) == 42)
    }
}
