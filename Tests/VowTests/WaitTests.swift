import Dispatch
import Testing
import Vow

@Suite struct WaitTests {
    @Test func waitReturnsTheValue() throws {
        let promise = DispatchQueue.global().async(.promise) { 6 * 7 }
        #expect(promise.wait() == 42)
    }

    @Test func waitThrowsTheError() {
        let promise = Promise<Int>(error: TestError.boom)
        #expect(throws: TestError.boom) { try promise.wait() }
    }

    @Test func waitWorksWithDefaultMainQueueHandlers() throws {
        let chained = Promise.value(1).map { $0 + 1 }.then { value in after(seconds: 0).map { value } }
        #expect(try chained.wait() == 2)
    }

    @Test func guaranteeWaitReturnsTheValue() {
        #expect(after(seconds: 0).map { "done" }.wait() == "done")
    }

    /// An inline handler that waits on a promise resolved by work its own thread deferred must
    /// not deadlock: `wait()` first runs the work the thread has queued.
    @Test func waitInsideAnInlineHandlerRunsDeferredWork() throws {
        let (start, resolver) = Promise<Int>.pending()
        let next = start.map(on: nil) { $0 + 1 }
        let afterNext = next.map(on: nil) { $0 + 1 }
        let waited = start.map(on: nil) { _ in try afterNext.wait() }
        DispatchQueue.global().async { resolver.fulfill(1) }
        #expect(try value(of: waited) == 3)
    }

    @Test func hangReturnsTheValueOffTheMainThread() throws {
        #expect(try hang(Promise.value(5).map(on: nil) { $0 * 2 }) == 10)
        #expect(hang(Guarantee.value("x")) == "x")
    }
}
