import Testing
import Vow

@Suite struct GuaranteeTests {
    // MARK: init(resolver:), value, pending(), Guarantee<Void>()

    @Test func resolverBodyRunsAtOnceOnTheCallingThread() throws {
        let events = Recorder<String>()
        let guarantee = Guarantee<Int> { resolve in
            events.record("body")
            resolve(1)
        }
        events.record("returned")
        #expect(events.all == ["body", "returned"])
        #expect(guarantee.value == 1)
    }

    @Test func resolveFunctionCanBeCalledLaterFromAnotherThread() throws {
        let worker = TestQueue("vow.tests.guarantee.worker")
        let guarantee = Guarantee<Int> { resolve in
            worker.queue.async { resolve(worker.isCurrent ? 2 : -1) }
        }
        #expect(try value(of: guarantee) == 2)
    }

    @Test func onlyTheFirstResolutionCounts() throws {
        let guarantee = Guarantee<Int> { resolve in
            resolve(1)
            resolve(2)
        }
        #expect(try value(of: guarantee) == 1)
    }

    @Test func valueIsResolvedAtOnce() throws {
        let guarantee = Guarantee.value("ready")
        #expect(guarantee.isResolved)
        #expect(guarantee.value == "ready")
        #expect(try value(of: guarantee) == "ready")
    }

    @Test func pendingResolvesWhenItsFunctionIsCalled() throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        #expect(guarantee.isPending)
        resolve(5)
        resolve(6)
        #expect(try value(of: guarantee) == 5)
    }

    @Test func voidInitIsResolved() throws {
        let guarantee = Guarantee<Void>()
        #expect(guarantee.isResolved)
        #expect(throws: Never.self) { try value(of: guarantee) }
    }

    @Test func aGuaranteeNeverReportsAnError() throws {
        let guarantee = Guarantee.value(1)
        #expect(guarantee.error == nil)
        #expect(!guarantee.isRejected)
        #expect(try outcome(of: guarantee).get() == 1)
    }

    // MARK: description

    @Test func describesAPendingGuarantee() {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        #expect(guarantee.description == "Guarantee<Int>(pending)")
        resolve(0)
    }

    @Test func describesAResolvedGuarantee() {
        #expect(Guarantee.value(3).description == "Guarantee<Int>(resolved: 3)")
        #expect(String(describing: Guarantee.value("hi")) == "Guarantee<String>(resolved: hi)")
        #expect(Guarantee<Void>().description == "Guarantee<()>(resolved: ())")
    }

    @Test func descriptionFollowsTheState() throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        #expect(guarantee.description == "Guarantee<Int>(pending)")
        resolve(8)
        _ = try value(of: guarantee)
        #expect(guarantee.description == "Guarantee<Int>(resolved: 8)")
    }

    @Test func debugDescriptionAddsTheIdentity() {
        let first = Guarantee.value(1)
        let second = Guarantee.value(1)
        #expect(first.debugDescription.hasPrefix(first.description + " at "))
        #expect(first.debugDescription.contains("\(ObjectIdentifier(first))"))
        #expect(first.debugDescription != second.debugDescription)
    }

    // MARK: Operators that cannot fail keep the result a Guarantee

    @Test func mapKeepsAGuarantee() throws {
        let mapped: Guarantee<Int> = Guarantee.value(1).map { $0 + 1 }
        #expect(try value(of: mapped) == 2)
    }

    @Test func mapWithoutATypeContextStillGivesAGuarantee() throws {
        let mapped = Guarantee.value(1).map { $0 * 10 }
        let typed: Guarantee<Int> = mapped
        #expect(try value(of: typed) == 10)
    }

    @Test func thenReturningAGuaranteeKeepsAGuarantee() throws {
        let chained: Guarantee<String> = Guarantee.value(2).then { Guarantee.value("\($0)") }
        #expect(try value(of: chained) == "2")
        let inferred = Guarantee.value(3).then { Guarantee.value($0 * 2) }
        let typed: Guarantee<Int> = inferred
        #expect(try value(of: typed) == 6)
    }

    @Test func doneKeepsAGuarantee() throws {
        let seen = Recorder<Int>()
        let finished: Guarantee<Void> = Guarantee.value(4).done { seen.record($0) }
        try value(of: finished)
        #expect(seen.all == [4])
        let inferred = Guarantee.value(5).done { seen.record($0) }
        let typed: Guarantee<Void> = inferred
        try value(of: typed)
        #expect(seen.all == [4, 5])
    }

    @Test func getKeepsAGuarantee() throws {
        let seen = Recorder<Int>()
        let got: Guarantee<Int> = Guarantee.value(6).get { seen.record($0) }
        #expect(try value(of: got) == 6)
        #expect(seen.all == [6])
    }

    @Test func asVoidKeepsAGuarantee() throws {
        let voided: Guarantee<Void> = Guarantee.value(7).asVoid()
        try value(of: voided)
        #expect(voided.isResolved)
    }

    @Test func aChainOfGuaranteeOperatorsStaysAGuarantee() throws {
        let seen = Recorder<Int>()
        let chain = Guarantee.value(1)
            .map { $0 + 1 }
            .get { seen.record($0) }
            .then { Guarantee.value($0 * 3) }
            .map { "\($0)" }
        let typed: Guarantee<String> = chain
        #expect(try value(of: typed) == "6")
        #expect(seen.all == [2])
    }

    // MARK: Operators that can fail give a Promise

    @Test func compactMapOnAGuaranteeGivesAPromise() throws {
        let parsed: Promise<Int> = Guarantee.value("12").compactMap { Int($0) }
        #expect(try value(of: parsed) == 12)
        let failed: Promise<Int> = Guarantee.value("twelve").compactMap { Int($0) }
        guard case PromiseError.compactMap(let input, _)? = try error(of: failed) as? PromiseError else {
            Issue.record("expected PromiseError.compactMap")
            return
        }
        #expect(input as? String == "twelve")
    }

    @Test func firstValueOnAGuaranteeGivesAPromise() throws {
        let first: Promise<Int> = Guarantee.value([3, 4]).firstValue
        #expect(try value(of: first) == 3)
        let empty: Promise<Int> = Guarantee<[Int]>.value([]).firstValue
        guard case PromiseError.emptySequence? = try error(of: empty) as? PromiseError else {
            Issue.record("expected PromiseError.emptySequence")
            return
        }
    }

    @Test func aThrowingMapOnAGuaranteeGivesAPromise() throws {
        let mapped: Promise<Int> = Guarantee.value(1).map { (_: Int) throws -> Int in throw TestError.boom }
        #expect(try error(of: mapped) as? TestError == .boom)
    }

    @Test func thenReturningAPromiseGivesAPromise() throws {
        let chained: Promise<Int> = Guarantee.value(1).then { Promise.value($0 + 1) }
        #expect(try value(of: chained) == 2)
    }

    @Test func tapOnAGuaranteeKeepsAGuarantee() throws {
        let seen = Recorder<Int>()
        let tapped: Guarantee<Int> = Guarantee.value(9).tap { seen.record((try? $0.get()) ?? -1) }
        #expect(try value(of: tapped) == 9)
        #expect(seen.all == [9])
    }
}
