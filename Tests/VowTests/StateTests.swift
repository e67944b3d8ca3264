import Testing
import Vow

@Suite struct StateTests {
    @Test func aPendingPromiseIsOnlyPending() {
        let (promise, resolver) = Promise<Int>.pending()
        defer { resolver.fulfill(0) }
        #expect(promise.value == nil)
        #expect(promise.error == nil)
        #expect(promise.result == nil)
        #expect(promise.isPending)
        #expect(!promise.isResolved)
        #expect(!promise.isFulfilled)
        #expect(!promise.isRejected)
    }

    @Test func aFulfilledPromiseIsResolvedAndFulfilled() {
        let promise = Promise.value(3)
        #expect(promise.value == 3)
        #expect(promise.error == nil)
        #expect(!promise.isPending)
        #expect(promise.isResolved)
        #expect(promise.isFulfilled)
        #expect(!promise.isRejected)
    }

    @Test func aRejectedPromiseIsResolvedAndRejected() {
        let promise = Promise<Int>(error: TestError.boom)
        #expect(promise.value == nil)
        #expect(promise.error as? TestError == .boom)
        #expect(!promise.isPending)
        #expect(promise.isResolved)
        #expect(!promise.isFulfilled)
        #expect(promise.isRejected)
    }

    @Test func stateChangesWhenAPendingPromiseFulfils() throws {
        let (promise, resolver) = Promise<String>.pending()
        #expect(promise.isPending)
        resolver.fulfill("done")
        #expect(promise.isResolved)
        #expect(promise.isFulfilled)
        #expect(!promise.isRejected)
        #expect(promise.value == "done")
        #expect(promise.error == nil)
    }

    @Test func stateChangesWhenAPendingPromiseRejects() throws {
        let (promise, resolver) = Promise<String>.pending()
        #expect(promise.isPending)
        resolver.reject(TestError.other)
        #expect(promise.isResolved)
        #expect(!promise.isFulfilled)
        #expect(promise.isRejected)
        #expect(promise.value == nil)
        #expect(promise.error as? TestError == .other)
    }

    @Test func stateOfAPromiseSettledOnAnotherThread() throws {
        let worker = TestQueue("vow.tests.state.worker")
        let (promise, resolver) = Promise<Int>.pending()
        worker.queue.async { resolver.reject(TestError.boom) }
        _ = try outcome(of: promise)
        #expect(promise.isRejected)
        #expect(!promise.isPending)
    }

    @Test func aVoidPromiseReportsItsState() {
        let fulfilled = Promise<Void>()
        #expect(fulfilled.isFulfilled)
        #expect(fulfilled.value != nil)
        let rejected = Promise<Void>(error: TestError.boom)
        #expect(rejected.isRejected)
        #expect(rejected.value == nil)
    }

    /// A promise of an optional fulfilled with `nil` has still fulfilled: `value` is `.some(nil)`.
    @Test func aPromiseOfAnOptionalFulfilledWithNilIsFulfilled() {
        let (promise, resolver) = Promise<Int?>.pending()
        #expect(promise.value == Int??.none)
        #expect(!promise.isFulfilled)
        resolver.fulfill(nil)
        #expect(promise.value == Int??.some(nil))
        #expect(promise.isFulfilled)
        #expect(!promise.isRejected)
        #expect(!promise.isPending)
    }

    // MARK: Guarantee

    @Test func aPendingGuaranteeIsOnlyPending() {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        defer { resolve(0) }
        #expect(guarantee.value == nil)
        #expect(guarantee.error == nil)
        #expect(guarantee.result == nil)
        #expect(guarantee.isPending)
        #expect(!guarantee.isResolved)
        #expect(!guarantee.isFulfilled)
        #expect(!guarantee.isRejected)
    }

    @Test func aResolvedGuaranteeIsResolvedAndFulfilled() throws {
        let (guarantee, resolve) = Guarantee<Int>.pending()
        resolve(6)
        #expect(guarantee.value == 6)
        #expect(guarantee.error == nil)
        #expect(try guarantee.result?.get() == 6)
        #expect(!guarantee.isPending)
        #expect(guarantee.isResolved)
        #expect(guarantee.isFulfilled)
        #expect(!guarantee.isRejected)
    }
}
