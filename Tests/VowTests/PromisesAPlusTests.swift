import Dispatch
import Testing
import Vow

/// The Promises/A+ rules that apply to Vow's model.
@Suite struct PromisesAPlusTests {
    @Test func aPromiseSettlesOnce() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let calls = Recorder<Int>()
        let observed = promise.tap(on: nil) { result in
            calls.record((try? result.get()) ?? -1)
        }
        resolver.fulfill(1)
        resolver.reject(TestError.boom)
        resolver.fulfill(2)
        #expect(try value(of: observed) == 1)
        #expect(try value(of: promise) == 1)
        #expect(calls.all == [1])
    }

    @Test func aRejectedPromiseStaysRejected() throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.reject(TestError.boom)
        resolver.fulfill(1)
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func concurrentResolutionsAgreeOnOneWinner() throws {
        for _ in 0..<2_000 {
            let (promise, resolver) = Promise<Int>.pending()
            let seen = Recorder<Int>()
            promise.pipe { seen.record((try? $0.get()) ?? -1) }
            DispatchQueue.concurrentPerform(iterations: 4) { resolver.fulfill($0) }
            let winner = try value(of: promise)
            #expect(seen.all == [winner])
        }
    }

    @Test func aQueuedHandlerNeverRunsInsideThen() throws {
        let attached = Protected(false)
        let ranBeforeThenReturned = Protected(false)
        let queue = TestQueue()
        let resolved = Promise.value(1)
        // Attach from a block on the handler's own serial queue and raise the flag before the
        // block ends: a dispatched handler cannot start before that, an inline one would.
        let chained = queue.queue.sync {
            let chained = resolved.then(on: queue.queue) { value -> Promise<Int> in
                let thenReturned = attached.withLock { $0 }
                ranBeforeThenReturned.withLock { $0 = !thenReturned }
                return .value(value)
            }
            attached.withLock { $0 = true }
            return chained
        }
        #expect(try value(of: chained) == 1)
        let ranInside = ranBeforeThenReturned.withLock { $0 }
        #expect(!ranInside)
    }

    @Test func returningTheChainsOwnPromiseRejects() throws {
        let (start, resolver) = Promise<Int>.pending()
        let holder = Protected<Promise<Int>?>(nil)
        let chained = start.then(on: nil) { _ in holder.withLock { $0! } }
        holder.withLock { $0 = chained }
        resolver.fulfill(1)
        let failure = try error(of: chained)
        #expect(isPromiseError(failure, .returnedSelf), "rejected with \(String(describing: failure))")
    }
}
