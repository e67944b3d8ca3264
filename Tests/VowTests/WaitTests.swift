import Dispatch
import Foundation
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

    /// An inline handler that waits on a promise resolved by work due after it on its own
    /// thread must not deadlock: `wait()` hands that work to another thread.
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

/// A handler that blocks in `wait()` must not run, on its own stack, handlers that the awaited
/// result cannot depend on: the three cases below deadlocked or misordered when it did.
@Suite struct WaitInsideAHandlerTests {
    /// Handler 1 of `a` holds a lock while it fulfils `b`, whose inline handler waits on an
    /// unrelated timer. Handler 2 of `a`, which takes the lock, must not run inside that wait.
    @Test func aWaitDoesNotRunTheNextHandlerOfAnOuterPromise() throws {
        let lock = NSLock()
        let (a, resolveA) = Promise<Int>.pending()
        let (b, resolveB) = Promise<Int>.pending()
        let timer = timerOnItsOwnThread()
        let waitedInB = b.map(on: nil) { value -> Int in
            timer.wait()
            return value
        }
        let first = a.done(on: nil) { _ in
            lock.withLock { resolveB.fulfill(1) }
        }
        let second = a.done(on: nil) { _ in
            lock.withLock {}
        }
        Thread { resolveA.fulfill(0) }.start()
        _ = try value(of: when(fulfilled: first, second))
        #expect(try value(of: waitedInB) == 1)
    }

    /// Handler 2 waits for something handler 1 does after its own wait, so it must not run
    /// inside handler 1's wait.
    @Test func aWaitDoesNotRunALaterHandlerThatWaitsForIt() throws {
        let (a, resolveA) = Promise<Int>.pending()
        let (firstIsDone, markFirstDone) = Promise<String>.pending()
        let timer = timerOnItsOwnThread()
        let first = a.done(on: nil) { _ in
            timer.wait()
            markFirstDone.fulfill("after the wait")
        }
        let second = a.map(on: nil) { _ in try firstIsDone.wait() }
        Thread { resolveA.fulfill(0) }.start()
        _ = try value(of: first)
        #expect(try value(of: second) == "after the wait")
    }

    /// A wait for a result that already exists returns at once and runs nothing.
    @Test func aWaitForAResolvedThenableReturnsAtOnce() throws {
        let (a, resolveA) = Promise<Int>.pending()
        let secondRan = Protected(false)
        let seen = a.map(on: nil) { _ -> [String] in
            let value = Guarantee.value(5).wait()
            let promised = try Promise.value(6).wait()
            return ["\(value)", "\(promised)", "second ran: \(secondRan.withLock { $0 })"]
        }
        a.done(on: nil) { _ in secondRan.withLock { $0 = true } }.endChain()
        resolveA.fulfill(0)
        #expect(try value(of: seen) == ["5", "6", "second ran: false"])
        #expect(secondRan.withLock { $0 })
    }
}

/// A guarantee that resolves a little later, from a thread of its own: the tests above block
/// threads on purpose, and must not depend on a free worker of the global pool.
private func timerOnItsOwnThread() -> Guarantee<Void> {
    let (timer, resolve) = Guarantee<Void>.pending()
    Thread {
        Thread.sleep(forTimeInterval: 0.01)
        resolve(())
    }.start()
    return timer
}

/// Whether a seal's handlers have run when it returns must not depend on how deep in other
/// handlers it happens: the trampoline once let it return early at depth 31 and 63.
@Suite struct SealDepthTests {
    /// `fulfill()` inside handlers nested `depth` deep, each fulfilling the next resolver.
    @Test(arguments: Array(1...70) + [127, 128, 129, 1000])
    func fulfilInsideNestedFulfilsRunsItsHandlersFirst(depth: Int) {
        let pairs = (0...depth).map { _ in Promise<Void>.pending() }
        let finalRan = Protected(false)
        let seenAfterFulfil = Protected<Bool?>(nil)
        for level in 0..<depth {
            pairs[level].promise.done(on: nil) {
                pairs[level + 1].resolver.fulfill(())
                if level == depth - 1 {
                    seenAfterFulfil.withLock { $0 = finalRan.withLock { $0 } }
                }
            }.endChain()
        }
        pairs[depth].promise.done(on: nil) { finalRan.withLock { $0 = true } }.endChain()
        pairs[0].resolver.fulfill(())
        #expect(seenAfterFulfil.withLock { $0 } == true)
    }

    /// `fulfill()` inside the last of `depth` chained inline steps.
    @Test(arguments: Array(1...70) + [127, 128, 129, 1000])
    func fulfilAtTheEndOfALongChainRunsItsHandlersFirst(depth: Int) throws {
        let (start, resolver) = Promise<Int>.pending()
        var chain = start
        for _ in 1..<depth {
            chain = chain.map(on: nil) { $0 + 1 }
        }
        let (inner, innerResolver) = Promise<Int>.pending()
        let innerRan = Protected(false)
        inner.done(on: nil) { _ in innerRan.withLock { $0 = true } }.endChain()
        let seen = chain.map(on: nil) { value -> Bool in
            innerResolver.fulfill(value)
            return innerRan.withLock { $0 }
        }
        resolver.fulfill(1)
        #expect(try value(of: seen))
        #expect(try value(of: inner) == depth)
    }

    /// Every way a resolver settles its promise is a user seal, the typed `Result` included.
    @Test func resolveWithATypedResultDeepInsideAChainRunsItsHandlersFirst() throws {
        let (start, resolver) = Promise<Int>.pending()
        var chain = start
        for _ in 0..<40 {
            chain = chain.map(on: nil) { $0 + 1 }
        }
        let (inner, innerResolver) = Promise<Int>.pending()
        let innerRan = Protected(false)
        inner.done(on: nil) { _ in innerRan.withLock { $0 = true } }.endChain()
        let seen = chain.map(on: nil) { value -> Bool in
            innerResolver.resolve(Result<Int, TestError>.success(value))
            return innerRan.withLock { $0 }
        }
        resolver.fulfill(0)
        #expect(try value(of: seen))
    }

    /// User seals nest without a depth limit, so a deep enough nest of them would overflow the
    /// stack; near its end, the trampoline postpones them instead.
    @Test func nestedFulfilsDoNotOverflowASmallStack() async throws {
        let depth = stressSize(deepEnough, full: 100_000, sanitized: 10_000)
        #expect(try await stressTest(stackSize: smallStack) { try Self.nestedFulfils(depth: depth) } == depth)
    }

    /// The value at the bottom of `depth` promises, each fulfilled inside the handler of the one
    /// above, starting from 0.
    private static func nestedFulfils(depth: Int) throws -> Int {
        let pairs = (0...depth).map { _ in Promise<Int>.pending() }
        for level in 0..<depth {
            pairs[level].promise.done(on: nil) { pairs[level + 1].resolver.fulfill($0 + 1) }.endChain()
        }
        pairs[0].resolver.fulfill(0)
        return try value(of: pairs[depth].promise)
    }
}
