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

    /// The rest of a box's handlers, and a handler attached to it while they run, are held by
    /// the run in progress; a handler that waits for one of them must not wait for itself.
    @Test func waitInsideAHandlerForAHandlerAttachedMeanwhile() throws {
        let (start, resolver) = Promise<Int>.pending()
        let waited = start.map(on: nil) { _ in
            try start.map(on: nil) { $0 + 1 }.wait()
        }
        DispatchQueue.global().async { resolver.fulfill(1) }
        #expect(try value(of: waited) == 2)
    }

    @Test func waitInsideAHandlerForALaterHandlerOfTheSameBox() throws {
        let (start, resolver) = Promise<Int>.pending()
        let later = Promise<Int>.pending()
        let waited = start.map(on: nil) { _ in try later.promise.wait() }
        start.done(on: nil) { later.resolver.fulfill($0 * 10) }.endChain()
        DispatchQueue.global().async { resolver.fulfill(4) }
        #expect(try value(of: waited) == 40)
    }

    /// Fulfilling a resolver inside a handler runs its handlers before `fulfill` returns, as in
    /// PromiseKit, so a handler that then blocks for their effect does not deadlock.
    @Test func fulfillingInsideAHandlerRunsItsHandlersAtOnce() throws {
        let (start, resolver) = Promise<Int>.pending()
        let signalled = start.map(on: nil) { value -> Bool in
            let (inner, innerResolver) = Promise<Int>.pending()
            let semaphore = DispatchSemaphore(value: 0)
            inner.map(on: nil) { $0 }.done(on: .global()) { _ in semaphore.signal() }.endChain()
            innerResolver.fulfill(value)
            return semaphore.wait(timeout: .now() + patience) == .success
        }
        resolver.fulfill(1)
        #expect(try value(of: signalled))
    }

    @Test func hangReturnsTheValueOffTheMainThread() throws {
        #expect(try hang(Promise.value(5).map(on: nil) { $0 * 2 }) == 10)
        #expect(hang(Guarantee.value("x")) == "x")
    }
}
