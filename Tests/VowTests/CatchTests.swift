import Dispatch
import Testing
import Vow

@Suite struct CatchTests {
    @Test func catchReceivesTheError() throws {
        let caught = Recorder<TestError?>()
        let finished = Promise<Void>.pending()
        Promise<Int>(error: TestError.boom)
            .catch(policy: .allErrors) { caught.record($0 as? TestError) }
            .finally { finished.resolver.fulfill() }
        try value(of: finished.promise)
        #expect(caught.all == [.boom])
    }

    @Test func catchReceivesAnErrorThrownFurtherUpTheChain() throws {
        let caught = Recorder<TestError?>()
        let finished = Promise<Void>.pending()
        Promise.value(1)
            .map(on: nil) { _ -> Int in throw TestError.other }
            .catch(on: nil, policy: .allErrors) { caught.record($0 as? TestError) }
            .finally(on: nil) { finished.resolver.fulfill() }
        try value(of: finished.promise)
        #expect(caught.all == [.other])
    }

    @Test func catchIsSkippedOnSuccess() throws {
        let caught = Recorder<String>()
        let finished = Promise<Void>.pending()
        Promise.value(1)
            .catch(policy: .allErrors) { caught.record("caught \($0)") }
            .finally { finished.resolver.fulfill() }
        try value(of: finished.promise)
        #expect(caught.all.isEmpty)
    }

    @Test func catchRunsOnTheGivenQueue() throws {
        let queue = TestQueue("vow.tests.catch")
        let onQueue = Recorder<Bool>()
        let finished = Promise<Void>.pending()
        Promise<Int>(error: TestError.boom)
            .catch(on: queue.queue, policy: .allErrors) { _ in onQueue.record(queue.isCurrent) }
            .finally(on: nil) { finished.resolver.fulfill() }
        try value(of: finished.promise)
        #expect(onQueue.all == [true])
    }

    @Test func finallyRunsAfterTheCatchBodyOnRejection() throws {
        let order = Recorder<String>()
        let finished = Promise<Void>.pending()
        let (source, resolver) = Promise<Int>.pending()
        source
            .catch(policy: .allErrors) { _ in order.record("catch") }
            .finally {
                order.record("finally")
                finished.resolver.fulfill()
            }
        DispatchQueue.global().async { resolver.reject(TestError.boom) }
        try value(of: finished.promise)
        #expect(order.all == ["catch", "finally"])
    }

    @Test func finallyRunsAfterACatchBodyOnAnotherQueue() throws {
        let order = Recorder<String>()
        let finished = Promise<Void>.pending()
        let catchQueue = TestQueue("vow.tests.catch.body")
        let finallyQueue = TestQueue("vow.tests.catch.finally")
        Promise<Int>(error: TestError.boom)
            .catch(on: catchQueue.queue, policy: .allErrors) { _ in order.record("catch") }
            .finally(on: finallyQueue.queue) {
                order.record(finallyQueue.isCurrent ? "finally on its queue" : "finally elsewhere")
                finished.resolver.fulfill()
            }
        try value(of: finished.promise)
        #expect(order.all == ["catch", "finally on its queue"])
    }

    @Test func anInlineFinallyStillRunsAfterTheCatchBody() throws {
        let order = Recorder<String>()
        let finished = Promise<Void>.pending()
        let catchQueue = TestQueue("vow.tests.catch.inline")
        let (source, resolver) = Promise<Int>.pending()
        source
            .catch(on: catchQueue.queue, policy: .allErrors) { _ in order.record("catch") }
            .finally(on: nil) {
                order.record("finally")
                finished.resolver.fulfill()
            }
        resolver.reject(TestError.boom)
        try value(of: finished.promise)
        #expect(order.all == ["catch", "finally"])
    }

    @Test func finallyRunsOnSuccess() throws {
        let order = Recorder<String>()
        let finished = Promise<Void>.pending()
        Promise.value(1)
            .catch(policy: .allErrors) { _ in order.record("catch") }
            .finally {
                order.record("finally")
                finished.resolver.fulfill()
            }
        try value(of: finished.promise)
        #expect(order.all == ["finally"])
    }

    @Test(arguments: CancellationKind.allCases)
    fileprivate func theExceptCancellationPolicySkipsCancellations(_ kind: CancellationKind) throws {
        let caught = Recorder<String>()
        let finished = Promise<Void>.pending()
        Promise<Int>(error: kind.error)
            .catch(policy: .allErrorsExceptCancellation) { caught.record("caught \($0)") }
            .finally { finished.resolver.fulfill() }
        try value(of: finished.promise)
        #expect(caught.all.isEmpty, "\(kind) reached the catch body")
    }

    @Test(arguments: CancellationKind.allCases)
    fileprivate func theAllErrorsPolicyCatchesCancellations(_ kind: CancellationKind) throws {
        let caught = Recorder<Bool>()
        let finished = Promise<Void>.pending()
        Promise<Int>(error: kind.error)
            .catch(policy: .allErrors) { caught.record($0.isCancelled) }
            .finally { finished.resolver.fulfill() }
        try value(of: finished.promise)
        #expect(caught.all == [true], "\(kind) did not reach the catch body exactly once")
    }

    @Test func theExceptCancellationPolicyStillCatchesOrdinaryErrors() throws {
        let caught = Recorder<TestError?>()
        let finished = Promise<Void>.pending()
        Promise<Int>(error: TestError.other)
            .catch(policy: .allErrorsExceptCancellation) { caught.record($0 as? TestError) }
            .finally { finished.resolver.fulfill() }
        try value(of: finished.promise)
        #expect(caught.all == [.other])
    }

    @Test func aPendingPromiseIsCaughtOnceItRejects() throws {
        let caught = Recorder<TestError?>()
        let finished = Promise<Void>.pending()
        let (source, resolver) = Promise<Int>.pending()
        source
            .catch(on: nil, policy: .allErrors) { caught.record($0 as? TestError) }
            .finally(on: nil) { finished.resolver.fulfill() }
        #expect(caught.all.isEmpty)
        #expect(finished.promise.isPending)
        resolver.reject(TestError.boom)
        try value(of: finished.promise)
        #expect(caught.all == [.boom])
    }
}

/// The cancellation errors the default catch policy must skip.
private enum CancellationKind: CaseIterable, CustomStringConvertible, Sendable {
    case promiseError
    case cancellableError
    case swiftConcurrency

    var error: any Error {
        switch self {
        case .promiseError: PromiseError.cancelled
        case .cancellableError: TestCancellation()
        case .swiftConcurrency: CancellationError()
        }
    }

    var description: String {
        switch self {
        case .promiseError: "PromiseError.cancelled"
        case .cancellableError: "TestCancellation"
        case .swiftConcurrency: "CancellationError"
        }
    }
}

/// A chain that ends in `catch`, `finally` or `cauterize` is something a script or a test can
/// block on until it has finished.
@Suite struct FinalizerWaitTests {
    @Test func hangOnACatchReturnsAfterTheCatchHandler() {
        let handled = Recorder<String>()
        let (failing, resolver) = Promise<Int>.pending()
        let finalizer = failing.map(on: nil) { $0 + 1 }.catch(on: .global()) { _ in handled.record("caught") }
        DispatchQueue.global().async { resolver.reject(TestError.boom) }
        hang(finalizer)
        #expect(handled.all == ["caught"])
    }

    @Test func waitOnACatchReturnsOnceASuccessPassesThrough() {
        let finalizer = DispatchQueue.global().async(.promise) { 1 }.catch(on: nil) { _ in }
        finalizer.wait()
        #expect(finalizer.finished.isResolved)
    }

    @Test func finallyReturnsAGuaranteeThatResolvesAfterItsBody() {
        let ran = Recorder<String>()
        let finished = Promise<Int>(error: TestError.boom)
            .catch(on: .global()) { _ in ran.record("catch") }
            .finally(on: .global()) { ran.record("finally") }
        finished.wait()
        #expect(ran.all == ["catch", "finally"])
    }

    @Test func cauterizeCanBeWaitedFor() {
        let finalizer = DispatchQueue.global().async(.promise) { 1 }.cauterize()
        finalizer.wait()
        #expect(finalizer.finished.isResolved)
    }
}
