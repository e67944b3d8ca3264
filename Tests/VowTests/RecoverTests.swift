import Dispatch
import Testing
import Vow

@Suite struct RecoverTests {
    // MARK: Recovering to a promise

    @Test func aValuePassesThroughWithoutCallingTheBody() throws {
        let calls = Recorder<String>()
        let recovered = Promise.value(1).recover(policy: .allErrors) { error -> Promise<Int> in
            calls.record("recover \(error)")
            return .value(2)
        }
        #expect(try value(of: recovered) == 1)
        #expect(calls.all.isEmpty)
    }

    @Test func anErrorIsReplacedByTheReturnedPromise() throws {
        let received = Recorder<TestError?>()
        let recovered = Promise<Int>(error: TestError.boom).recover(policy: .allErrors) { error in
            received.record(error as? TestError)
            return Promise.value(2)
        }
        #expect(try value(of: recovered) == 2)
        #expect(received.all == [.boom])
    }

    @Test func theRecoveryPromiseIsFollowedUntilItResolves() throws {
        let (replacement, resolver) = Promise<Int>.pending()
        let started = Promise<Void>.pending()
        let recovered = Promise<Int>(error: TestError.boom).recover(on: nil, policy: .allErrors) { _ in
            started.resolver.fulfill()
            return replacement
        }
        try value(of: started.promise)
        #expect(recovered.isPending)
        resolver.fulfill(3)
        #expect(try value(of: recovered) == 3)
    }

    @Test func aRecoveryPromiseThatRejectsRejects() throws {
        let recovered = Promise<Int>(error: TestError.boom).recover(policy: .allErrors) { _ in
            Promise<Int>(error: TestError.other)
        }
        #expect(try error(of: recovered) as? TestError == .other)
    }

    @Test func recoveringToAGuaranteeWithAPolicyStillGivesAPromise() throws {
        let recovered: Promise<Int> = Promise<Int>(error: TestError.boom).recover(policy: .allErrors) { _ in
            Guarantee.value(4)
        }
        #expect(try value(of: recovered) == 4)
    }

    @Test func rethrowingKeepsTheChainRejected() throws {
        let recovered = Promise<Int>(error: TestError.boom).recover(policy: .allErrors) {
            error -> Promise<Int> in
            throw error
        }
        #expect(try error(of: recovered) as? TestError == .boom)
    }

    @Test func throwingAnotherErrorReplacesTheError() throws {
        let recovered = Promise<Int>(error: TestError.boom).recover(policy: .allErrors) { _ -> Promise<Int> in
            throw TestError.other
        }
        #expect(try error(of: recovered) as? TestError == .other)
    }

    @Test func returningTheChainsOwnPromiseRejectsWithReturnedSelf() throws {
        let holder = Recorder<Promise<Int>>()
        let (source, resolver) = Promise<Int>.pending()
        let recovered = source.recover(on: nil, policy: .allErrors) { _ in holder.all[0] }
        holder.record(recovered)
        resolver.reject(TestError.boom)
        let failure = try error(of: recovered)
        #expect(isPromiseError(failure, .returnedSelf), "rejected with \(String(describing: failure))")
    }

    @Test func returningTheChainsOwnPromiseOnTheDefaultQueueRejectsWithReturnedSelf() throws {
        let holder = Recorder<Promise<Int>>()
        let (source, resolver) = Promise<Int>.pending()
        let recovered = source.recover(policy: .allErrors) { _ in holder.all[0] }
        holder.record(recovered)
        DispatchQueue.global().async { resolver.reject(TestError.boom) }
        let failure = try error(of: recovered)
        #expect(isPromiseError(failure, .returnedSelf), "rejected with \(String(describing: failure))")
    }

    @Test func theExceptCancellationPolicyPassesCancellationsThrough() throws {
        for cancellation in recoverCancellations {
            let calls = Recorder<String>()
            let recovered = Promise<Int>(error: cancellation).recover(policy: .allErrorsExceptCancellation) {
                error -> Promise<Int> in
                calls.record("recover \(error)")
                return .value(2)
            }
            let failure = try error(of: recovered)
            #expect(failure?.isCancelled == true, "\(cancellation) became \(String(describing: failure))")
            #expect(calls.all.isEmpty, "\(cancellation) reached the recover body")
        }
    }

    @Test func theExceptCancellationPolicyStillRecoversOrdinaryErrors() throws {
        let recovered = Promise<Int>(error: TestError.boom).recover(policy: .allErrorsExceptCancellation) {
            _ in
            Promise.value(9)
        }
        #expect(try value(of: recovered) == 9)
    }

    @Test func theAllErrorsPolicyRecoversCancellations() throws {
        for cancellation in recoverCancellations {
            let recovered = Promise<Int>(error: cancellation).recover(policy: .allErrors) { error in
                Promise.value(error.isCancelled ? 1 : 0)
            }
            #expect(try value(of: recovered) == 1, "\(cancellation) was not recovered")
        }
    }

    @Test func recoverRunsOnTheGivenQueue() throws {
        let queue = TestQueue("vow.tests.recover")
        let recovered = Promise<Bool>(error: TestError.boom).recover(on: queue.queue, policy: .allErrors) {
            _ in
            Promise.value(queue.isCurrent)
        }
        #expect(try value(of: recovered))
    }

    // MARK: Recovering to a guarantee

    @Test func recoveringToAGuaranteeGivesAGuarantee() throws {
        let recovered: Guarantee<Int> = Promise<Int>(error: TestError.boom).recover { _ in Guarantee.value(5)
        }
        #expect(try value(of: recovered) == 5)
    }

    @Test func theInferredTypeOfAGuaranteeRecoveryIsAGuarantee() throws {
        let inferred = Promise<Int>(error: TestError.boom).recover { _ in Guarantee.value(6) }
        let recovered: Guarantee<Int> = inferred
        #expect(try value(of: recovered) == 6)
    }

    @Test func aValuePassesThroughAGuaranteeRecovery() throws {
        let calls = Recorder<String>()
        let recovered: Guarantee<Int> = Promise.value(1).recover { error in
            calls.record("recover \(error)")
            return Guarantee.value(2)
        }
        #expect(try value(of: recovered) == 1)
        #expect(calls.all.isEmpty)
    }

    @Test func aGuaranteeRecoveryReceivesTheError() throws {
        let received = Recorder<TestError?>()
        let recovered: Guarantee<Int> = Promise<Int>(error: TestError.other).recover { error in
            received.record(error as? TestError)
            return Guarantee.value(0)
        }
        #expect(try value(of: recovered) == 0)
        #expect(received.all == [.other])
    }

    @Test func aGuaranteeRecoveryReceivesCancellations() throws {
        for cancellation in recoverCancellations {
            let recovered: Guarantee<Bool> = Promise<Bool>(error: cancellation).recover { error in
                Guarantee.value(error.isCancelled)
            }
            #expect(try value(of: recovered), "\(cancellation) did not reach the recover body")
        }
    }

    @Test func aGuaranteeRecoveryFollowsAPendingGuarantee() throws {
        let (replacement, resolve) = Guarantee<Int>.pending()
        let started = Promise<Void>.pending()
        let recovered: Guarantee<Int> = Promise<Int>(error: TestError.boom).recover(on: nil) { _ in
            started.resolver.fulfill()
            return replacement
        }
        try value(of: started.promise)
        #expect(recovered.isPending)
        resolve(8)
        #expect(try value(of: recovered) == 8)
    }

    // MARK: The Void forms

    @Test func theNonThrowingVoidFormGivesAGuaranteeAndReceivesTheError() throws {
        let received = Recorder<TestError?>()
        let inferred = Promise<Void>(error: TestError.boom).recover { error in
            received.record(error as? TestError)
        }
        let recovered: Guarantee<Void> = inferred
        try value(of: recovered)
        #expect(received.all == [.boom])
    }

    @Test func theNonThrowingVoidFormReceivesCancellations() throws {
        for cancellation in recoverCancellations {
            let received = Recorder<Bool>()
            let recovered: Guarantee<Void> = Promise<Void>(error: cancellation).recover { error in
                received.record(error.isCancelled)
            }
            try value(of: recovered)
            #expect(received.all == [true], "\(cancellation) did not reach the recover body once")
        }
    }

    @Test func theNonThrowingVoidFormIsSkippedOnSuccess() throws {
        let received = Recorder<String>()
        let recovered: Guarantee<Void> = Promise<Void>().recover { error in
            received.record("recover \(error)")
        }
        try value(of: recovered)
        #expect(received.all.isEmpty)
    }

    @Test func theThrowingVoidFormFulfilsWhenTheBodyReturns() throws {
        let received = Recorder<TestError?>()
        let recovered: Promise<Void> = Promise<Void>(error: TestError.boom).recover(policy: .allErrors) {
            error in
            received.record(error as? TestError)
            guard error is TestError else { throw error }
        }
        #expect(try outcome(of: recovered).isSuccess)
        #expect(received.all == [.boom])
    }

    @Test func theThrowingVoidFormInfersAPromise() throws {
        let inferred = Promise<Void>(error: TestError.boom).recover { error in
            if case TestError.other = error { return }
            throw error
        }
        let recovered: Promise<Void> = inferred
        #expect(try error(of: recovered) as? TestError == .boom)
    }

    @Test func theThrowingVoidFormRejectsWithTheRethrownError() throws {
        let recovered = Promise<Void>(error: TestError.boom).recover(policy: .allErrors) { _ in
            throw TestError.other
        }
        #expect(try error(of: recovered) as? TestError == .other)
    }

    @Test func theThrowingVoidFormPassesSuccessThrough() throws {
        let received = Recorder<String>()
        let recovered = Promise<Void>().recover(policy: .allErrors) { error in
            received.record("recover \(error)")
            throw error
        }
        #expect(try outcome(of: recovered).isSuccess)
        #expect(received.all.isEmpty)
    }

    @Test func theThrowingVoidFormRespectsThePolicy() throws {
        for cancellation in recoverCancellations {
            let received = Recorder<String>()
            let skipping = Promise<Void>(error: cancellation).recover(policy: .allErrorsExceptCancellation) {
                error in
                received.record("recover \(error)")
            }
            let failure = try error(of: skipping)
            #expect(failure?.isCancelled == true, "\(cancellation) became \(String(describing: failure))")
            #expect(received.all.isEmpty, "\(cancellation) reached the recover body")

            let handling = Promise<Void>(error: cancellation).recover(policy: .allErrors) { error in
                received.record("recover \(error.isCancelled)")
            }
            #expect(try outcome(of: handling).isSuccess)
            #expect(received.all == ["recover true"])
        }
    }
}

/// The cancellation errors a policy may skip.
let recoverCancellations: [any Error] = [
    PromiseError.cancelled, TestCancellation(), CancellationError(),
]

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
