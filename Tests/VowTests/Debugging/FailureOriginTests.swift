import Dispatch
import Foundation
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

    /// A reader that sees the box rejected reads its origin whole: the origin is stored before
    /// the box is marked resolved. With it stored after, as it was, the full stress size
    /// (`VOW_STRESS=full`, 200,000 rounds, about 75 s) crashed 3 runs of 3 reading it half
    /// written, "Unexpectedly found nil" in `StaticString`; Thread Sanitizer reported nothing.
    /// A plain run races a few hundred rounds, which shows the path works, not that it cannot
    /// break.
    @Test func readingTheOriginWhileAnotherThreadRejectsSeesItWhole() {
        let wrong = Locked(0)
        let tally = raceRounds(atMost: runsFullStress ? 200_000 : 2_000, sanitized: 600) { round in
            let line = #line + 1
            let (promise, resolver) = Promise<Int>.pending()
            let origin = FailureOrigin(
                operation: "Promise.pending()", site: CreationSite(fileID: file, line: line))
            return runTogether(
                round: round, { resolver.reject(TestError.boom) },
                {
                    // Bounded, since both sides may run one after the other on one thread. The
                    // box's status alone, as `failureOrigin` reads it: `result` would wait for
                    // the barrier, after which the origin is written either way.
                    guard case .empty(let box) = promise.box else { return }
                    for _ in 0..<200 {
                        let rejected = box.status.isResolved
                        let read = promise.failureOrigin
                        if rejected && read != origin { wrong.withLock { $0 += 1 } }
                    }
                })
        }
        #expect(tally.raced > 0, "no round raced in \(tally.rounds)")
        #expect(wrong.withLock { $0 } == 0)
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
        let (pending, resolver) = Promise<Int>.pending()
        #expect(pending.failureOrigin == nil)
        #expect(FailureOrigin.current == nil)
        resolver.fulfill(0)
    }

    /// `Promise(error:)` is where its failure began, the commonest way a step's body fails.
    @Test func promiseErrorIsTheOriginOfItsFailure() {
        let line = #line + 1
        let failed = Promise<Int>(error: TestError.boom)
        let later = failed.map(on: nil) { $0 }
        let origin = FailureOrigin(operation: "Promise(error:)", site: CreationSite(fileID: file, line: line))
        #expect(failed.failureOrigin == origin)
        #expect(later.failureOrigin == origin)
        #expect(failed.chainDescription == "Promise<Int>: Promise(error:) at \(file):\(line), rejected: boom")
    }

    /// A chain made inside another failure's handler has an origin of its own: it used to take
    /// the failure's whose handler made it.
    @Test func aFailureMadeInsideAnotherFailuresHandlerKeepsItsOwnOrigin() {
        let seen = Locked<[FailureOrigin?]>([])
        let lines = Locked<(made: Int, returned: Int)>((0, 0))
        let first = #line + 1
        let failed = Promise<Int>(error: TestError.boom)
        let recovered = failed.recover(on: nil) { _ -> Promise<Int> in
            let made = #line + 1
            let inner = Promise<Int>(error: TestError.other)
            seen.withLock { $0.append(inner.failureOrigin) }
            lines.withLock { $0.made = made }
            let returned = #line + 1
            let fresh = Promise<Int>(error: TestError.other)
            lines.withLock { $0.returned = returned }
            return fresh
        }
        let (made, returned) = lines.withLock { ($0.made, $0.returned) }
        #expect(failed.failureOrigin?.site.line == first)
        #expect(
            seen.withLock { $0 } == [
                FailureOrigin(operation: "Promise(error:)", site: CreationSite(fileID: file, line: made))
            ])
        #expect(
            recovered.failureOrigin
                == FailureOrigin(
                    operation: "Promise(error:)", site: CreationSite(fileID: file, line: returned)))
    }

    /// Inside a failure's handler, a handler given a value sees no origin, whether it runs at
    /// once on a promise made fulfilled or later on another.
    @Test func aHandlerGivenAValueInsideAFailuresHandlerSeesNoOrigin() {
        let seen = Locked<[FailureOrigin?]>([])
        let (failed, rejecter) = Promise<Int>.pending()
        rejecter.reject(TestError.boom)
        let caught = failed.catch(on: nil) { _ in
            seen.withLock { $0.append(FailureOrigin.current) }
            _ = Promise.value(1).done(on: nil) { _ in seen.withLock { $0.append(FailureOrigin.current) } }
            _ = Guarantee.value(1).done(on: nil) { _ in seen.withLock { $0.append(FailureOrigin.current) } }
        }
        #expect(caught.finished.isResolved)
        let origins = seen.withLock { $0 }
        #expect(origins.count == 3)
        #expect(origins.first??.operation == "Promise.pending()")
        #expect(origins.dropFirst().allSatisfy { $0 == nil }, "\(origins)")
    }

    /// A step that throws the very error it was given passes the failure on, origin and all:
    /// `recover`'s rethrow and `retry`'s last attempt name the step that failed. One that
    /// throws an error of its own is that failure's origin.
    @Test func aRethrowKeepsTheOriginAndANewErrorIsItsOwn() {
        let (root, resolver) = Promise<Int>.pending()
        let failingLine = #line + 1
        let failing = root.map(on: nil) { (_: Int) -> Int in throw TestError.boom }
        let rethrown = failing.recover(on: nil) { error -> Promise<Int> in throw error }
        let replacedLine = #line + 1
        let replaced = failing.recover(on: nil) { _ -> Promise<Int> in throw TestError.other }
        resolver.fulfill(1)
        let mapped = FailureOrigin(operation: "map", site: CreationSite(fileID: file, line: failingLine))
        #expect(rethrown.failureOrigin == mapped)
        #expect(
            replaced.failureOrigin
                == FailureOrigin(operation: "recover", site: CreationSite(fileID: file, line: replacedLine)))
        let attemptLine = #line + 2
        let retried = retry(attempts: 3, delay: .none) {
            Promise.value(1).map(on: nil) { (_: Int) -> Int in throw TestError.boom }
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        while retried.isPending && clock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(
            retried.failureOrigin
                == FailureOrigin(operation: "map", site: CreationSite(fileID: file, line: attemptLine)))
    }

    /// A creation body that throws is where its failure began.
    @Test func aThrowingCreationBodyIsTheOrigin() async {
        let firstLine = #line + 1
        let first = firstly { () throws -> Promise<Int> in throw TestError.boom }
        #expect(
            first.failureOrigin
                == FailureOrigin(operation: "firstly", site: CreationSite(fileID: file, line: firstLine)))
        let dispatchedLine = #line + 1
        let dispatched = DispatchQueue.global().async(.promise) { () throws -> Int in throw TestError.boom }
        _ = try? await dispatched.async()
        #expect(
            dispatched.failureOrigin
                == FailureOrigin(
                    operation: "DispatchQueue.async(.promise)",
                    site: CreationSite(fileID: file, line: dispatchedLine)))
        let taskLine = #line + 1
        let task = Promise { () async throws -> Int in throw TestError.boom }
        _ = try? await task.async()
        #expect(
            task.failureOrigin
                == FailureOrigin(
                    operation: "Promise(operation:)", site: CreationSite(fileID: file, line: taskLine)))
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
