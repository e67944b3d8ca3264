import Dispatch
import Testing
import Vow

@Suite struct HandlerOrderTests {
    @Test func handlersAttachedBeforeResolutionRunInOrder() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let order = Recorder<Int>()
        let finished = (0..<100).map { index in
            promise.done(on: nil) { _ in order.record(index) }
        }
        resolver.fulfill(1)
        _ = try value(of: when(fulfilled: finished))
        #expect(order.all == Array(0..<100))
    }

    @Test func queuedHandlersAreDispatchedInOrder() throws {
        let serial = TestQueue()
        let (promise, resolver) = Promise<Int>.pending()
        let order = Recorder<Int>()
        let finished = (0..<100).map { index in
            promise.done(on: serial.queue) { _ in order.record(index) }
        }
        resolver.fulfill(1)
        _ = try value(of: when(fulfilled: finished))
        #expect(order.all == Array(0..<100))
    }

    /// A handler attached once the promise has resolved runs at once, as in PromiseKit: here,
    /// inside the first handler, before the second.
    @Test func handlerAttachedInsideAHandlerRunsAtOnce() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let order = Recorder<String>()
        promise.done(on: nil) { _ in
            order.record("first")
            promise.done(on: nil) { _ in order.record("nested") }.endChain()
            order.record("first returns")
        }.endChain()
        let second = promise.done(on: nil) { _ in order.record("second") }
        resolver.fulfill(1)
        _ = try value(of: second)
        #expect(order.all == ["first", "nested", "first returns", "second"])
    }

    /// While one thread runs the handlers of a promise it resolved, another thread attaches
    /// handlers to it. They must run at once, inside the attaching call, not wait for the
    /// resolving thread: if they did, a resolving thread that waits for them would deadlock.
    ///
    /// The first handler does not return until the attaching thread is done, so every round
    /// attaches while the resolving thread is inside a handler, and checks the rule there.
    @Test func aHandlerAttachedAfterResolutionNeverWaitsForTheResolvingThread() throws {
        let rounds = 2_000
        let handlersPerRound = 50
        var failures: [String] = []
        for round in 0..<rounds {
            let state = AttachingRound()
            let (promise, resolver) = Promise<Int>.pending()
            promise.pipe { _ in
                state.resolverIsInsideAHandler.withLock { $0 = true }
                _ = state.attachingThreadFinished.wait(timeout: .now() + 10)
            }
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 {
                    resolver.fulfill(1)
                    return
                }
                defer { state.attachingThreadFinished.signal() }
                // The resolving thread stays inside the first handler until this thread is done.
                while !state.resolverIsInsideAHandler.withLock({ $0 }) {}
                for index in 0..<handlersPerRound {
                    let ran = Protected(false)
                    promise.pipe { _ in ran.withLock { $0 = true } }
                    guard ran.withLock({ $0 }) else {
                        state.problems.record("handler \(index) did not run inside its attaching call")
                        return
                    }
                }
            }
            failures += state.problems.all.map { "round \(round): \($0)" }
        }
        let problems = failures.count
        #expect(problems == 0, "first: \(failures.first ?? "")")
    }
}

/// The shared state of one round of the attaching race.
private final class AttachingRound: Sendable {
    let resolverIsInsideAHandler = Protected(false)
    let attachingThreadFinished = DispatchSemaphore(value: 0)
    let problems = Recorder<String>()
}
