import Testing
import Vow

@Suite struct ThenTests {
    @Test func thenFollowsThePromiseTheBodyReturns() throws {
        let chained = Promise.value(2).then { Promise.value($0 * 21) }
        #expect(try value(of: chained) == 42)
    }

    @Test func thenWaitsForAPendingPromiseFromTheBody() throws {
        let (inner, resolver) = Promise<String>.pending()
        let (bodyRan, markBodyRan) = Guarantee<Void>.pending()
        defer {
            resolver.fulfill("unused")
            markBodyRan(())
        }
        let chained = Promise.value(1).then { _ in
            markBodyRan(())
            return inner
        }
        try value(of: bodyRan)
        #expect(chained.isPending)
        resolver.fulfill("inner")
        #expect(try value(of: chained) == "inner")
    }

    @Test func thenFollowsARejectionFromTheBody() throws {
        let chained = Promise.value(1).then { _ in Promise<Int>(error: TestError.other) }
        #expect(try error(of: chained) as? TestError == .other)
    }

    @Test func thenAcceptsAGuaranteeFromTheBody() throws {
        let chained: Promise<String> = Promise.value(3).then { Guarantee.value("\($0)") }
        #expect(try value(of: chained) == "3")
    }

    @Test func aRejectionSkipsTheBody() throws {
        let failure = IdentifiedError()
        let calls = Recorder<Int>()
        let chained = Promise<Int>(error: failure).then { value -> Promise<Int> in
            calls.record(value)
            return .value(value)
        }
        let received = try error(of: chained)
        #expect((received as? IdentifiedError) === failure)
        #expect(calls.all.isEmpty)
    }

    @Test func aLaterRejectionSkipsTheBody() throws {
        let (start, resolver) = Promise<Int>.pending()
        let calls = Recorder<Int>()
        let chained = start.then { value -> Promise<Int> in
            calls.record(value)
            return .value(value)
        }
        resolver.reject(TestError.boom)
        #expect(try error(of: chained) as? TestError == .boom)
        #expect(calls.all.isEmpty)
    }

    @Test func aThrowFromTheBodyRejects() throws {
        let chained = Promise.value(1).then { _ -> Promise<Int> in throw TestError.boom }
        #expect(try error(of: chained) as? TestError == .boom)
    }

    @Test func aThrowFromTheBodyOnAQueueRejects() throws {
        let queue = TestQueue()
        let chained = Promise.value(1).then(on: queue.queue) { _ -> Promise<Int> in throw TestError.other }
        #expect(try error(of: chained) as? TestError == .other)
    }

    @Test func returningTheChainsOwnPromiseRejectsInline() throws {
        let (start, resolver) = Promise<Int>.pending()
        let holder = PromiseHolder<Int>()
        let chained = start.then(on: nil) { _ in try holder.promise() }
        holder.set(chained)
        resolver.fulfill(1)
        #expect(isPromiseError(try error(of: chained), .returnedSelf))
    }

    @Test func returningTheChainsOwnPromiseRejectsOnAQueue() throws {
        let queue = TestQueue()
        let (start, resolver) = Promise<Int>.pending()
        let holder = PromiseHolder<Int>()
        let chained = start.then(on: queue.queue) { _ in try holder.promise() }
        holder.set(chained)
        resolver.fulfill(1)
        #expect(isPromiseError(try error(of: chained), .returnedSelf))
    }

    @Test func returningAnotherChainedPromiseIsFine() throws {
        let (start, resolver) = Promise<Int>.pending()
        let holder = PromiseHolder<Int>()
        let sibling = start.map(on: nil) { $0 * 2 }
        let chained = start.then(on: nil) { _ in try holder.promise() }
        holder.set(sibling)
        resolver.fulfill(5)
        #expect(try value(of: chained) == 10)
    }

    @Test func thensChainInOrder() throws {
        let steps = Recorder<String>()
        let chained = Promise.value("a")
            .then { value -> Promise<String> in
                steps.record(value)
                return .value(value + "b")
            }
            .then { value -> Promise<String> in
                steps.record(value)
                return .value(value + "c")
            }
        #expect(try value(of: chained) == "abc")
        #expect(steps.all == ["a", "ab"])
    }

    // MARK: Guarantee.then

    @Test func guaranteeThenWithAGuaranteeGivesAGuarantee() throws {
        let chained: Guarantee<Int> = Guarantee.value(4).then { Guarantee.value($0 + 1) }
        #expect(try value(of: chained) == 5)
    }

    @Test func guaranteeThenWaitsForAPendingGuarantee() throws {
        let (inner, resolve) = Guarantee<Int>.pending()
        let chained: Guarantee<Int> = Guarantee.value(1).then(on: nil) { _ in inner }
        #expect(chained.isPending)
        resolve(9)
        #expect(try value(of: chained) == 9)
    }

    @Test func guaranteeThenOnAPendingGuaranteeRunsOnceItResolves() throws {
        let (start, resolve) = Guarantee<Int>.pending()
        let chained: Guarantee<String> = start.then { Guarantee.value("got \($0)") }
        resolve(6)
        #expect(try value(of: chained) == "got 6")
    }

    @Test func guaranteeThenWithAPromiseGivesAPromise() throws {
        let chained: Promise<Int> = Guarantee.value(1).then { _ in Promise<Int>(error: TestError.boom) }
        #expect(try error(of: chained) as? TestError == .boom)
    }
}

/// Holds a promise that a handler needs but that exists only once the chain is built.
private final class PromiseHolder<T: Sendable>: Sendable {
    private let stored = Protected<Promise<T>?>(nil)

    func set(_ promise: Promise<T>) {
        stored.withLock { $0 = promise }
    }

    func promise() throws -> Promise<T> {
        guard let promise = stored.withLock({ $0 }) else { throw HolderEmpty() }
        return promise
    }
}

private struct HolderEmpty: Error {}

/// An error with an identity, to show that the very same error instance arrives.
private final class IdentifiedError: Error, Sendable {}
