import Testing
import Vow

@Suite struct DoneGetTapTests {
    // MARK: done

    @Test func doneReceivesTheValueAndFulfils() throws {
        let seen = Recorder<Int>()
        let finished: Promise<Void> = Promise.value(3).done { seen.record($0) }
        try value(of: finished)
        #expect(finished.isFulfilled)
        #expect(seen.all == [3])
    }

    @Test func doneFulfilsOnlyAfterTheBodyRan() throws {
        let seen = Recorder<String>()
        let (start, resolver) = Promise<String>.pending()
        let finished = start.done { seen.record($0) }
        resolver.fulfill("x")
        try value(of: finished)
        #expect(seen.all == ["x"])
    }

    @Test func doneSkipsTheBodyOnRejection() throws {
        let failure = IdentifiedError()
        let seen = Recorder<Int>()
        let finished = Promise<Int>(error: failure).done { seen.record($0) }
        #expect((try error(of: finished) as? IdentifiedError) === failure)
        #expect(seen.all.isEmpty)
    }

    @Test func aThrowFromDoneRejects() throws {
        let finished = Promise.value(1).done { _ in throw TestError.boom }
        #expect(try error(of: finished) as? TestError == .boom)
    }

    @Test func guaranteeDoneGivesAGuarantee() throws {
        let seen = Recorder<Int>()
        let finished: Guarantee<Void> = Guarantee.value(8).done { seen.record($0) }
        try value(of: finished)
        #expect(seen.all == [8])
    }

    @Test func guaranteeDoneWithAThrowingBodyGivesAPromise() throws {
        let finished: Promise<Void> = Guarantee.value(8).done { (_: Int) throws in throw TestError.other }
        #expect(try error(of: finished) as? TestError == .other)
    }

    // MARK: get

    @Test func getPassesTheValueOnUnchanged() throws {
        let seen = Recorder<Int>()
        let got: Promise<Int> = Promise.value(5).get { seen.record($0) }
        #expect(try value(of: got) == 5)
        #expect(seen.all == [5])
    }

    @Test func aThrowFromGetRejects() throws {
        let got = Promise.value(5).get { _ in throw TestError.boom }
        #expect(try error(of: got) as? TestError == .boom)
    }

    @Test func getSkipsTheBodyOnRejection() throws {
        let failure = IdentifiedError()
        let seen = Recorder<Int>()
        let got = Promise<Int>(error: failure).get { seen.record($0) }
        #expect((try error(of: got) as? IdentifiedError) === failure)
        #expect(seen.all.isEmpty)
    }

    @Test func getInAChainSeesTheIntermediateValue() throws {
        let seen = Recorder<Int>()
        let chained = Promise.value(2).map { $0 * 5 }.get { seen.record($0) }.map { $0 + 1 }
        #expect(try value(of: chained) == 11)
        #expect(seen.all == [10])
    }

    @Test func guaranteeGetGivesAGuarantee() throws {
        let seen = Recorder<String>()
        let got: Guarantee<String> = Guarantee.value("g").get { seen.record($0) }
        #expect(try value(of: got) == "g")
        #expect(seen.all == ["g"])
    }

    @Test func guaranteeGetWithAThrowingBodyGivesAPromise() throws {
        let got: Promise<String> = Guarantee.value("g").get { (_: String) throws in throw TestError.boom }
        #expect(try error(of: got) as? TestError == .boom)
    }

    // MARK: tap

    @Test func tapSeesASuccessAndPassesItOn() throws {
        let seen = Recorder<Int>()
        let tapped = Promise.value(4).tap { result in
            if case .success(let value) = result { seen.record(value) }
        }
        #expect(try value(of: tapped) == 4)
        #expect(seen.all == [4])
    }

    @Test func tapSeesAFailureAndPassesItOnUntouched() throws {
        let failure = IdentifiedError()
        let seen = Recorder<Bool>()
        let tapped = Promise<Int>(error: failure).tap { result in
            if case .failure(let error) = result {
                seen.record((error as? IdentifiedError) === failure)
            }
        }
        #expect((try error(of: tapped) as? IdentifiedError) === failure)
        #expect(seen.all == [true])
    }

    @Test func tapSeesALaterResult() throws {
        let seen = Recorder<String>()
        let (start, resolver) = Promise<String>.pending()
        let tapped = start.tap { seen.record((try? $0.get()) ?? "failed") }
        resolver.fulfill("later")
        #expect(try value(of: tapped) == "later")
        #expect(seen.all == ["later"])
    }

    @Test func tapRunsBeforeTheNextStep() throws {
        let order = Recorder<String>()
        let chained = Promise<Int>(error: TestError.boom)
            .tap { _ in order.record("tap") }
            .recover(on: nil, policy: .allErrors) { _ -> Promise<Int> in
                order.record("recover")
                return .value(0)
            }
        #expect(try value(of: chained) == 0)
        #expect(order.all == ["tap", "recover"])
    }

    @Test func tapOnAGuaranteeSeesTheValue() throws {
        let seen = Recorder<Int>()
        let tapped = Guarantee.value(1).tap { seen.record((try? $0.get()) ?? -1) }
        #expect(try value(of: tapped) == 1)
        #expect(seen.all == [1])
    }
}

/// An error with an identity, to show that the very same error instance arrives.
private final class IdentifiedError: Error, Sendable {}
