import Testing

@testable import Vow

/// A rejected promise knows, in debug builds, where its failure began: the step whose body
/// threw, the resolver that rejected, the timeout that expired, or an input of a `when`; a
/// handler of the failure reads the same through ``FailureOrigin/current``; the error itself is
/// untouched.
@Suite struct FailureOriginTests {
    let file = "VowTests/FailureOriginTests.swift"

    /// A class, so that a test can tell that the handler got the very error thrown.
    final class Thrown: Error, Sendable {}

    @Test func aThrowingStepIsTheOriginDownTheChainAndInTheCatchHandler() {
        let thrown = Thrown()
        let seen = Locked<(origin: FailureOrigin?, error: (any Error)?)>((nil, nil))
        let (root, resolver) = Promise<Int>.pending()
        let line = #line + 1
        let failed = root.map(on: nil) { (_: Int) -> Int in throw thrown }
        let passed = failed.map(on: nil) { $0 + 1 }.get(on: nil) { _ in }
        let caught = passed.catch(on: nil) { error in
            seen.withLock { $0 = (FailureOrigin.current, error) }
        }
        #expect(failed.failureOrigin == nil)
        resolver.fulfill(1)
        #expect(caught.finished.isResolved)
        let origin = FailureOrigin(operation: "map", site: CreationSite(fileID: file, line: line))
        #expect(failed.failureOrigin == origin)
        #expect(passed.failureOrigin == origin)
        #expect(seen.withLock { $0.origin } == origin)
        #expect(seen.withLock { $0.error } as? Thrown === thrown)
        #expect(origin.description == "map at \(file):\(line)")
    }

    @Test func aResolverThatRejectsIsTheOrigin() {
        let line = #line + 1
        let (root, resolver) = Promise<Int>.pending()
        let step = root.map(on: nil) { $0 }
        resolver.reject(TestError.boom)
        let origin = FailureOrigin(
            operation: "Promise.pending()", site: CreationSite(fileID: file, line: line))
        #expect(root.failureOrigin == origin)
        #expect(step.failureOrigin == origin)
    }

    @Test func aTimeoutThatExpiresIsTheOrigin() {
        let clock = ManualClock()
        let (root, resolver) = Promise<Int>.pending()
        let line = #line + 1
        let limited = root.timeout(.seconds(5), clock: clock)
        let after = limited.map(on: nil) { $0 }
        clock.advance(by: .seconds(5))
        #expect("\(after.error.map { "\($0)" } ?? "none")" == "\(PromiseError.timedOut)")
        let origin = FailureOrigin(operation: "timeout", site: CreationSite(fileID: file, line: line))
        #expect(limited.failureOrigin == origin)
        #expect(after.failureOrigin == origin)
        resolver.fulfill(1)
    }

    @Test func anInputOfAWhenThatRejectsIsTheOrigin() {
        let (first, settleFirst) = Promise<Int>.pending()
        let (second, settleSecond) = Promise<Int>.pending()
        let line = #line + 1
        let failing = second.map(on: nil) { (_: Int) -> Int in throw TestError.boom }
        let all = when(fulfilled: [first, failing]).map(on: nil) { $0.count }
        settleSecond.fulfill(2)
        let origin = FailureOrigin(operation: "map", site: CreationSite(fileID: file, line: line))
        #expect(all.failureOrigin == origin)
        settleFirst.fulfill(1)
    }

    @Test func aStepReturningARejectedPromiseTakesThatPromisesOrigin() {
        let line = #line + 1
        let (inner, rejecter) = Promise<Int>.pending()
        rejecter.reject(TestError.boom)
        let outer = Promise.value(1).then(on: nil) { _ in inner }.map(on: nil) { $0 }
        #expect(
            outer.failureOrigin
                == FailureOrigin(operation: "Promise.pending()", site: CreationSite(fileID: file, line: line))
        )
    }

    @Test func nothingHasAnOriginButAFailure() {
        let seen = Locked<FailureOrigin?>(
            FailureOrigin(operation: "x", site: CreationSite(fileID: "x", line: 1)))
        let fulfilled = Promise.value(1).map(on: nil) { value in
            seen.withLock { $0 = FailureOrigin.current }
            return value
        }
        #expect(fulfilled.failureOrigin == nil)
        #expect(seen.withLock { $0 } == nil)
        #expect(Promise<Int>(error: TestError.boom).failureOrigin == nil)
        let (pending, resolver) = Promise<Int>.pending()
        #expect(pending.failureOrigin == nil)
        #expect(FailureOrigin.current == nil)
        resolver.fulfill(0)
    }

    @Test @MainActor func aMainActorPromiseKnowsWhereItsFailureBegan() {
        let line = #line + 1
        let (root, resolver) = Promise<Int>.pending()
        let onMain = MainActorPromise(root).map { $0 + 1 }
        resolver.reject(TestError.boom)
        #expect(
            onMain.failureOrigin
                == FailureOrigin(operation: "Promise.pending()", site: CreationSite(fileID: file, line: line))
        )
    }
}
