import Dispatch
import Testing
import Vow

@Suite struct LeakTests {
    @Test func aResolvedChainIsFreed() throws {
        weak var first: Promise<Int>?
        weak var middle: Promise<Int>?
        weak var last: Promise<Void>?
        func runChain() throws {
            let (root, resolver) = Promise<Int>.pending()
            let thened = root.map { $0 + 1 }.then { Promise.value($0 * 2) }
            let finished = thened.done { _ in }
            first = root
            middle = thened
            last = finished
            resolver.fulfill(1)
            try value(of: finished)
        }
        try runChain()
        #expect(try eventually { first == nil && middle == nil && last == nil })
    }

    @Test func aGuaranteeChainAndItsWhenAreFreed() throws {
        weak var gathered: Guarantee<[Int]>?
        func runChain() throws -> [Int] {
            let parts = (0..<10).map { index in after(seconds: 0).map { index } }
            let all = when(guarantees: parts)
            gathered = all
            return try value(of: all)
        }
        #expect(try runChain() == Array(0..<10))
        #expect(try eventually { gathered == nil })
    }

    @Test func handlersAreReleasedOnceTheyRan() throws {
        final class Token: Sendable {}
        weak var captured: Token?
        let (promise, resolver) = Promise<Int>.pending()
        func attachAndResolve() throws {
            let token = Token()
            captured = token
            let done = promise.done(on: nil) { _ in _ = token }
            resolver.fulfill(1)
            try value(of: done)
        }
        try attachAndResolve()
        #expect(try eventually { captured == nil })
        withExtendedLifetime(promise) {}
    }

    /// A step's box carries the step until it has run: the promise it settles, kept afterwards,
    /// must not keep the closure alive, nor what it captured, such as the object that keeps the
    /// promise.
    @Test(arguments: [false, true])
    func aStepsClosureIsReleasedOnceItRanWhileItsPromiseLives(onAQueue: Bool) throws {
        final class Token: Sendable {}
        weak var captured: Token?
        func attachAndResolve() throws -> Promise<Int> {
            let token = Token()
            captured = token
            let (promise, resolver) = Promise<Int>.pending()
            let mapped = promise.map(on: onAQueue ? .global() : nil) { value in
                withExtendedLifetime(token) { value + 1 }
            }
            resolver.fulfill(1)
            #expect(try value(of: mapped) == 2)
            return mapped
        }
        let kept = try attachAndResolve()
        #expect(try eventually { captured == nil })
        #expect(kept.value == 2)
    }

    /// The same for a step that a rejection passes by without running it.
    @Test func aStepsClosureIsReleasedWhenARejectionPassesItBy() throws {
        final class Token: Sendable {}
        weak var captured: Token?
        func attachAndReject() throws -> Promise<Int> {
            let token = Token()
            captured = token
            let (promise, resolver) = Promise<Int>.pending()
            let mapped = promise.map(on: nil) { value in withExtendedLifetime(token) { value + 1 } }
            resolver.reject(TestError.boom)
            #expect(try error(of: mapped) as? TestError == .boom)
            return mapped
        }
        let kept = try attachAndReject()
        #expect(captured == nil)
        #expect(kept.result != nil)
    }
}

/// Polls `condition` until it holds, for up to the test's patience. A queue may still be
/// finishing the block that held the last reference when the awaited result arrives.
private func eventually(_ condition: () -> Bool) throws -> Bool {
    let deadline = DispatchTime.now() + patience
    while !condition() {
        guard DispatchTime.now() < deadline else { return false }
        // Let the main queue, which runs the default handlers, finish what it holds.
        _ = try value(of: Guarantee<Void> { resolve in DispatchQueue.main.async { resolve(()) } })
    }
    return true
}
