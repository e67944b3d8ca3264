import Dispatch
import Testing
import Vow

@Suite struct PromiseTests {
    // MARK: init(resolver:)

    @Test func resolverBodyRunsAtOnceOnTheCallingThread() throws {
        let events = Recorder<String>()
        let promise = Promise<Int> { resolver in
            events.record("body")
            resolver.fulfill(1)
        }
        events.record("returned")
        #expect(events.all == ["body", "returned"])
        #expect(promise.value == 1)
    }

    @Test func resolverBodyCanFulfil() throws {
        let promise = Promise<String> { $0.fulfill("hello") }
        #expect(try value(of: promise) == "hello")
    }

    @Test func resolverBodyCanReject() throws {
        let promise = Promise<String> { $0.reject(TestError.boom) }
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func aThrowFromTheResolverBodyRejects() throws {
        let promise = Promise<Int> { _ in throw TestError.boom }
        #expect(promise.isRejected)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func aThrowAfterFulfillingKeepsTheValue() throws {
        let promise = Promise<Int> { resolver in
            resolver.fulfill(7)
            throw TestError.boom
        }
        #expect(try value(of: promise) == 7)
    }

    @Test func theResolverCanBeUsedAfterTheBodyReturns() throws {
        var saved: Resolver<Int>?
        let promise = Promise<Int> { saved = $0 }
        let resolver = try #require(saved)
        #expect(promise.isPending)
        resolver.fulfill(5)
        #expect(try value(of: promise) == 5)
    }

    @Test func theResolverCanBeUsedFromAnotherThread() throws {
        let worker = TestQueue("vow.tests.promise.worker")
        let promise = Promise<Int> { resolver in
            worker.queue.async { resolver.fulfill(worker.isCurrent ? 11 : -1) }
        }
        #expect(try value(of: promise) == 11)
    }

    // MARK: value, init(error:), pending()

    @Test func valueIsFulfilledAtOnce() throws {
        let promise = Promise.value(42)
        #expect(promise.isFulfilled)
        #expect(promise.value == 42)
        #expect(try value(of: promise) == 42)
    }

    @Test func initErrorIsRejectedAtOnce() throws {
        let promise = Promise<Int>(error: TestError.other)
        #expect(promise.isRejected)
        #expect(promise.error as? TestError == .other)
        #expect(try error(of: promise) as? TestError == .other)
    }

    @Test func pendingResolvesWhenItsResolverDoes() throws {
        let (promise, resolver) = Promise<String>.pending()
        #expect(promise.isPending)
        resolver.fulfill("later")
        #expect(try value(of: promise) == "later")
    }

    @Test func pendingRejectsWhenItsResolverDoes() throws {
        let (promise, resolver) = Promise<String>.pending()
        #expect(promise.isPending)
        resolver.reject(TestError.boom)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func pendingCanBeResolvedFromAnotherThread() throws {
        let (promise, resolver) = Promise<Int>.pending()
        DispatchQueue.global().async { resolver.fulfill(3) }
        #expect(try value(of: promise) == 3)
    }

    // MARK: Bridging

    @Test func bridgesAResolvedGuarantee() throws {
        let promise: Promise<Int> = Promise(Guarantee.value(8))
        #expect(try value(of: promise) == 8)
    }

    @Test func bridgesAPendingGuaranteeOnceItResolves() throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        let promise = Promise(guarantee)
        #expect(promise.isPending)
        resolve(9)
        #expect(try value(of: promise) == 9)
    }

    @Test func bridgesAFulfilledPromiseIntoANewPromise() throws {
        let original = Promise.value("x")
        let bridged = Promise(original)
        #expect(bridged !== original)
        #expect(try value(of: bridged) == "x")
    }

    @Test func bridgesARejectedPromiseWithTheSameError() throws {
        let failure = IdentifiedError()
        let bridged = Promise(Promise<Int>(error: failure))
        let received = try error(of: bridged)
        #expect((received as? IdentifiedError) === failure)
    }

    @Test func bridgesAPendingPromiseOnceItResolves() throws {
        let (original, resolver) = Promise<Int>.pending()
        let bridged = Promise(original)
        #expect(bridged.isPending)
        resolver.reject(TestError.other)
        #expect(try error(of: bridged) as? TestError == .other)
    }

    // MARK: Promise<Void>

    @Test func voidInitIsFulfilled() throws {
        let promise = Promise<Void>()
        #expect(promise.isFulfilled)
        #expect(throws: Never.self) { try value(of: promise) }
    }

    // MARK: description

    @Test func describesAPendingPromise() {
        let (promise, resolver) = Promise<Int>.pending()
        #expect(promise.description == "Promise<Int>(pending)")
        #expect(String(describing: promise) == "Promise<Int>(pending)")
        resolver.fulfill(0)
    }

    @Test func describesAFulfilledPromise() {
        let promise = Promise.value(3)
        #expect(promise.description == "Promise<Int>(fulfilled: 3)")
        #expect(Promise.value("hi").description == "Promise<String>(fulfilled: hi)")
    }

    @Test func describesARejectedPromise() {
        let promise = Promise<Int>(error: TestError.boom)
        #expect(promise.description == "Promise<Int>(rejected: boom)")
    }

    @Test func describesAVoidPromise() {
        #expect(Promise<Void>().description == "Promise<()>(fulfilled: ())")
    }

    @Test func descriptionFollowsTheState() throws {
        let (promise, resolver) = Promise<Int>.pending()
        #expect(promise.description == "Promise<Int>(pending)")
        resolver.fulfill(4)
        _ = try value(of: promise)
        #expect(promise.description == "Promise<Int>(fulfilled: 4)")
    }

    @Test func debugDescriptionAddsTheIdentity() {
        let (pending, resolver) = Promise<Int>.pending()
        defer { resolver.fulfill(0) }
        let promises: [Promise<Int>] = [pending, .value(1), Promise(error: TestError.boom)]
        for promise in promises {
            #expect(promise.debugDescription.hasPrefix(promise.description + " at "))
            #expect(promise.debugDescription.contains("\(ObjectIdentifier(promise))"))
            #expect(String(reflecting: promise) == promise.debugDescription)
        }
    }

    @Test func debugDescriptionTellsPromisesOfOneStateApart() {
        let first = Promise.value(1)
        let second = Promise.value(1)
        #expect(first.description == second.description)
        #expect(first.debugDescription != second.debugDescription)
    }
}

/// An error with an identity, to show that the very same error instance arrives.
private final class IdentifiedError: Error, Sendable {}
