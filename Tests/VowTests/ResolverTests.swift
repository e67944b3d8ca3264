import Dispatch
import Testing
import Vow

@Suite struct ResolverTests {
    // MARK: fulfill, reject, resolve(Result)

    @Test func fulfillFulfils() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.fulfill(1)
        #expect(try value(of: promise) == 1)
    }

    @Test func rejectRejects() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.reject(TestError.boom)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func resolveWithASuccessFulfils() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(.success(2))
        #expect(try value(of: promise) == 2)
    }

    @Test func resolveWithAFailureRejects() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(.failure(TestError.other))
        #expect(try error(of: promise) as? TestError == .other)
    }

    // MARK: resolve(Result) with a typed error

    @Test func resolveWithATypedSuccessFulfils() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(Result<Int, TestError>.success(2))
        #expect(try value(of: promise) == 2)
    }

    @Test func resolveWithATypedFailureRejectsWithThatError() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(Result<Int, TestError>.failure(.other))
        #expect(try error(of: promise) as? TestError == .other)
    }

    @Test func resolveWithAResultThatCannotFailFulfils() throws {
        let (promise, resolver) = Promise<String>.pending()
        resolver.resolve(Result<String, Never>.success("never fails"))
        #expect(try value(of: promise) == "never fails")
    }

    @Test func resolveWithATypedVoidResultSettlesAPromiseOfVoid() throws {
        let (fulfilled, fulfilling) = Promise<Void>.pending()
        fulfilling.resolve(Result<Void, TestError>.success(()))
        try value(of: fulfilled)
        let (rejected, rejecting) = Promise<Void>.pending()
        rejecting.resolve(Result<Void, TestError>.failure(.boom))
        #expect(try error(of: rejected) as? TestError == .boom)
    }

    /// `resolve` handed straight to a completion handler, as PromiseKit's suite does, picks the
    /// overload that matches the handler's error type without any annotation.
    @Test func resolveCanBeTheCompletionHandlerOfATypedOrUntypedResult() throws {
        let typedSuccess = Promise { resolver in
            deliver(Result<Int, TestError>.success(2), to: resolver.resolve)
        }
        let typedFailure = Promise { resolver in
            deliver(Result<Int, TestError>.failure(.boom), to: resolver.resolve)
        }
        let untyped = Promise { resolver in
            deliver(Result<Int, any Error>.failure(TestError.other), to: resolver.resolve)
        }
        #expect(try value(of: typedSuccess) == 2)
        #expect(try error(of: typedFailure) as? TestError == .boom)
        #expect(try error(of: untyped) as? TestError == .other)
    }

    // MARK: resolve(T?, Error?)

    @Test func optionalValueAndNoErrorFulfils() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(Optional(3), nil)
        #expect(try value(of: promise) == 3)
    }

    @Test func noValueAndAnErrorRejects() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(Int?.none, TestError.boom)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func optionalValueAndAnErrorRejectsBecauseTheErrorWins() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(Optional(4), TestError.boom)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func neitherValueNorErrorIsAnInvalidCallingConvention() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(Int?.none, (any Error)?.none)
        #expect(isPromiseError(try error(of: promise), .invalidCallingConvention))
    }

    // MARK: resolve(T, Error?)

    @Test func valueAndNoErrorFulfils() throws {
        let (promise, resolver) = Promise<String>.pending()
        resolver.resolve("five", nil)
        #expect(try value(of: promise) == "five")
    }

    @Test func valueAndAnErrorRejectsBecauseTheErrorWins() throws {
        let (promise, resolver) = Promise<String>.pending()
        resolver.resolve("six", TestError.other)
        #expect(try error(of: promise) as? TestError == .other)
    }

    // MARK: resolve(Error?, T?)

    @Test func errorFirstWithOnlyAValueFulfils() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve((any Error)?.none, Optional(7))
        #expect(try value(of: promise) == 7)
    }

    @Test func errorFirstWithOnlyAnErrorRejects() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(TestError.boom, Int?.none)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func errorFirstWithBothRejectsBecauseTheErrorWins() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(TestError.other, Optional(8))
        #expect(try error(of: promise) as? TestError == .other)
    }

    @Test func errorFirstWithNeitherIsAnInvalidCallingConvention() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve((any Error)?.none, Int?.none)
        #expect(isPromiseError(try error(of: promise), .invalidCallingConvention))
    }

    /// The shapes a completion handler hands over, as they arrive in real callbacks.
    @Test func completionHandlerShapesSettleAsDocumented() throws {
        func settle(_ value: Int?, _ error: (any Error)?) -> Promise<Int> {
            Promise { $0.resolve(value, error) }
        }
        func settleErrorFirst(_ error: (any Error)?, _ value: Int?) -> Promise<Int> {
            Promise { $0.resolve(error, value) }
        }
        #expect(try value(of: settle(1, nil)) == 1)
        #expect(try value(of: settleErrorFirst(nil, 1)) == 1)
        #expect(try error(of: settle(1, TestError.boom)) as? TestError == .boom)
        #expect(try error(of: settleErrorFirst(TestError.boom, 1)) as? TestError == .boom)
        #expect(try error(of: settle(nil, TestError.other)) as? TestError == .other)
        #expect(try error(of: settleErrorFirst(TestError.other, nil)) as? TestError == .other)
        #expect(isPromiseError(try error(of: settle(nil, nil)), .invalidCallingConvention))
        #expect(isPromiseError(try error(of: settleErrorFirst(nil, nil)), .invalidCallingConvention))
    }

    // MARK: Promise<Void>

    @Test func voidFulfillFulfils() throws {
        let (promise, resolver) = Promise<Void>.pending()
        resolver.fulfill()
        try value(of: promise)
        #expect(promise.isFulfilled)
    }

    @Test func voidResolveWithNoErrorFulfils() throws {
        let (promise, resolver) = Promise<Void>.pending()
        resolver.resolve(nil)
        try value(of: promise)
        #expect(promise.isFulfilled)
    }

    @Test func voidResolveWithAnErrorRejects() throws {
        let (promise, resolver) = Promise<Void>.pending()
        resolver.resolve(TestError.boom)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    // MARK: Only the first resolution counts

    @Test func fulfillingTwiceKeepsTheFirstValue() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.fulfill(1)
        resolver.fulfill(2)
        #expect(try value(of: promise) == 1)
    }

    @Test func rejectingAfterFulfillingKeepsTheValue() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.fulfill(1)
        resolver.reject(TestError.boom)
        resolver.resolve(.failure(TestError.other))
        #expect(try value(of: promise) == 1)
    }

    @Test func fulfillingAfterRejectingKeepsTheError() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.reject(TestError.boom)
        resolver.fulfill(1)
        resolver.resolve(2, nil)
        resolver.reject(TestError.other)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func resolvingAResultTwiceKeepsTheFirst() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(.success(3))
        resolver.resolve(.success(4))
        resolver.resolve(nil, TestError.boom)
        #expect(try value(of: promise) == 3)
    }

    @Test func voidResolvingTwiceKeepsTheFirst() throws {
        let (promise, resolver) = Promise<Void>.pending()
        resolver.resolve(TestError.boom)
        resolver.resolve(nil)
        resolver.fulfill()
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func handlersSeeOnlyTheFirstResolution() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let seen = Recorder<Int>()
        let observed = promise.tap(on: nil) { seen.record((try? $0.get()) ?? -1) }
        resolver.fulfill(5)
        resolver.fulfill(6)
        resolver.reject(TestError.boom)
        #expect(try value(of: observed) == 5)
        #expect(seen.all == [5])
    }
}

/// Calls `completion` with `result` from a global queue, as a library with a `Result`-taking
/// completion handler would.
private func deliver<Value: Sendable, Failure: Error>(
    _ result: Result<Value, Failure>,
    to completion: @escaping @Sendable (Result<Value, Failure>) -> Void
) {
    DispatchQueue.global().async { completion(result) }
}
