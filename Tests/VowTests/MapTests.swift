import Testing
import Vow

@Suite struct MapTests {
    // MARK: map

    @Test func mapTransformsTheValue() throws {
        let mapped = Promise.value(20).map { $0 + 1 }
        #expect(try value(of: mapped) == 21)
    }

    @Test func mapCanChangeTheType() throws {
        let mapped: Promise<String> = Promise.value(5).map { String(repeating: "x", count: $0) }
        #expect(try value(of: mapped) == "xxxxx")
    }

    @Test func mapOnAPendingPromiseRunsOnceItFulfils() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let mapped = promise.map { $0 * 3 }
        resolver.fulfill(4)
        #expect(try value(of: mapped) == 12)
    }

    @Test func aThrowingTransformRejects() throws {
        let mapped = Promise.value(1).map { _ -> Int in throw TestError.boom }
        #expect(try error(of: mapped) as? TestError == .boom)
    }

    @Test func mapPassesARejectionThroughUntouched() throws {
        let failure = IdentifiedError()
        let calls = Recorder<Int>()
        let mapped = Promise<Int>(error: failure).map { value -> Int in
            calls.record(value)
            return value
        }
        #expect((try error(of: mapped) as? IdentifiedError) === failure)
        #expect(calls.all.isEmpty)
    }

    @Test func guaranteeMapGivesAGuarantee() throws {
        let mapped: Guarantee<String> = Guarantee.value(7).map { "\($0)!" }
        #expect(try value(of: mapped) == "7!")
    }

    @Test func guaranteeMapOnAPendingGuaranteeRunsOnceItResolves() throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let mapped = guarantee.map { $0 - 1 }
        resolve(10)
        #expect(try value(of: mapped) == 9)
    }

    // MARK: compactMap

    @Test func compactMapKeepsANonNilResult() throws {
        let parsed = Promise.value("123").compactMap { Int($0) }
        #expect(try value(of: parsed) == 123)
    }

    @Test func compactMapRejectsANilResultNamingTheValueAndType() throws {
        let parsed = Promise.value("abc").compactMap { Int($0) }
        let failure = try error(of: parsed)
        if case PromiseError.compactMap(let input, let type)? = failure as? PromiseError {
            #expect(input as? String == "abc")
            #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        } else {
            Issue.record("expected PromiseError.compactMap, got \(String(describing: failure))")
        }
    }

    @Test func compactMapOnAGuaranteeGivesAPromiseThatCanReject() throws {
        let parsed: Promise<Double> = Guarantee.value(-1).compactMap { $0 < 0 ? nil : Double($0) }
        let failure = try error(of: parsed)
        if case PromiseError.compactMap(let input, let type)? = failure as? PromiseError {
            #expect(input as? Int == -1)
            #expect(ObjectIdentifier(type) == ObjectIdentifier(Double.self))
        } else {
            Issue.record("expected PromiseError.compactMap, got \(String(describing: failure))")
        }
        let kept: Promise<Double> = Guarantee.value(2).compactMap { $0 < 0 ? nil : Double($0) }
        #expect(try value(of: kept) == 2)
    }

    @Test func aThrowingCompactMapRejectsWithTheThrownError() throws {
        let parsed = Promise.value("1").compactMap { _ -> Int? in throw TestError.other }
        #expect(try error(of: parsed) as? TestError == .other)
    }

    @Test func compactMapPassesARejectionThroughUntouched() throws {
        let failure = IdentifiedError()
        let calls = Recorder<String>()
        let parsed = Promise<String>(error: failure).compactMap { text -> Int? in
            calls.record(text)
            return Int(text)
        }
        #expect((try error(of: parsed) as? IdentifiedError) === failure)
        #expect(calls.all.isEmpty)
    }

    // MARK: asVoid

    @Test func asVoidFulfilsWhenTheValueArrives() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let voided: Promise<Void> = promise.asVoid()
        #expect(voided.isPending)
        resolver.fulfill(3)
        try value(of: voided)
        #expect(voided.isFulfilled)
    }

    @Test func asVoidPassesARejectionThroughUntouched() throws {
        let failure = IdentifiedError()
        let voided = Promise<Int>(error: failure).asVoid()
        #expect((try error(of: voided) as? IdentifiedError) === failure)
    }

    @Test func asVoidOnAGuaranteeGivesAGuarantee() throws {
        let (guarantee, resolve) = Guarantee<String>.pending()
        let voided: Guarantee<Void> = guarantee.asVoid()
        #expect(voided.isPending)
        resolve("gone")
        try value(of: voided)
        #expect(voided.isResolved)
    }

    // MARK: Errors pass through a whole chain

    @Test func aRejectionPassesThroughEveryValueOperator() throws {
        let failure = IdentifiedError()
        let calls = Recorder<String>()
        let (start, resolver) = Promise<String>.pending()
        let end =
            start
            .map { value -> String in
                calls.record("map")
                return value
            }
            .compactMap { value -> Int? in
                calls.record("compactMap")
                return Int(value)
            }
            .asVoid()
        resolver.reject(failure)
        #expect((try error(of: end) as? IdentifiedError) === failure)
        #expect(calls.all.isEmpty)
    }
}

/// An error with an identity, to show that the very same error instance arrives.
private final class IdentifiedError: Error, Sendable {}
