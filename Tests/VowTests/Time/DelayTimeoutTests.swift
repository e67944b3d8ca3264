import Dispatch
import Testing
import Vow

@Suite struct DelayTests {
    @Test func aValuePassesOnOnlyOnceTheDelayHasPassed() {
        let clock = ManualClock()
        let delayed = Promise.value(7).delay(.seconds(2), clock: clock)
        clock.advance(by: .milliseconds(1999))
        #expect(delayed.isPending)
        clock.advance(by: .milliseconds(1))
        #expect(delayed.value == 7)
    }

    @Test func theDelayStartsWhenTheValueArrives() {
        let clock = ManualClock()
        let (source, resolver) = Promise<Int>.pending()
        let delayed = source.delay(.seconds(2), clock: clock)
        clock.advance(by: .seconds(5))
        resolver.fulfill(1)
        #expect(delayed.isPending, "the delay counted time from before the value arrived")
        clock.advance(by: .seconds(2))
        #expect(delayed.value == 1)
    }

    @Test func aRejectionPassesOnAtOnce() {
        let clock = ManualClock()
        let delayed = Promise<Int>(error: TestError.boom).delay(.seconds(2), clock: clock)
        #expect(delayed.error as? TestError == .boom)
        #expect(clock.sleepers == 0)
    }

    @Test func aGuaranteeStaysAGuarantee() {
        let clock = ManualClock()
        let delayed: Guarantee<String> = Guarantee.value("hi").delay(.seconds(1), clock: clock)
        clock.advance(by: .seconds(1))
        #expect(delayed.value == "hi")
    }

    @Test func aGuaranteeTreatsANegativeDelayAsNone() throws {
        let clock = ManualClock()
        #expect(Guarantee.value(1).delay(.seconds(-1), clock: clock).value == 1)
        #expect(try value(of: Guarantee.value(2).delay(seconds: -1)) == 2)
    }

    @Test func delayInSecondsWaitsInRealTime() throws {
        #expect(try value(of: Promise.value(3).delay(seconds: 0.005)) == 3)
        #expect(try value(of: Guarantee.value(4).delay(seconds: 0.005)) == 4)
    }

    @Test(arguments: [-1.0, -0.001, .nan, -.infinity])
    func aNegativeOrNaNDelayInSecondsIsBadInput(seconds: Double) {
        let delayed = Promise.value(1).delay(seconds: seconds)
        #expect(
            badInputReason(delayed.error)?.hasPrefix("delay(seconds:) needs a time that is zero or more")
                == true)
    }

    @Test func aNegativeDurationIsBadInput() {
        let delayed = Promise.value(1).delay(.seconds(-3), clock: ManualClock())
        #expect(
            badInputReason(delayed.error)
                == "delay(_:clock:) needs a time that is zero or more, not -3.0 seconds")
    }

    @Test func cancellingDuringTheDelayCancelsTheTimer() {
        let clock = ManualClock()
        let delayed = Promise.value(1).delay(.seconds(10), clock: clock)
        #expect(clock.sleepers == 1)
        delayed.cancel()
        #expect(clock.sleepers == 0)
        #expect(delayed.result.map(\.isCancellation) == true)
    }
}

@Suite struct TimeoutTests {
    @Test func aThenableThatResolvesInTimeWinsAndTheTimerIsCancelled() {
        let clock = ManualClock()
        let (source, resolver) = Promise<Int>.pending()
        let limited = source.timeout(.seconds(5), clock: clock)
        #expect(clock.sleepers == 1)
        resolver.fulfill(8)
        #expect(limited.value == 8)
        #expect(clock.sleepers == 0, "the timer outlived the race it lost")
    }

    @Test func aRejectionInTimeWins() {
        let clock = ManualClock()
        let (source, resolver) = Promise<Int>.pending()
        let limited = source.timeout(.seconds(5), clock: clock)
        resolver.reject(TestError.other)
        #expect(limited.error as? TestError == .other)
    }

    @Test func whenTimeRunsOutItRejectsAndCancelsTheWork() {
        let clock = ManualClock()
        let (work, limited) = StoppableWork.start { $0.timeout(.seconds(5), clock: clock) }
        clock.advance(by: .seconds(5))
        #expect(
            isPromiseError(limited.error, .timedOut), "the result was \(String(describing: limited.result))")
        #expect(work.stopCount == 1, "the abandoned work was not cancelled")
    }

    @Test func workSomethingElseWaitsForIsNotCancelled() {
        let clock = ManualClock()
        let (source, resolver) = Promise<Int>.pending()
        let stops = Counter()
        resolver.onCancel { stops.increment() }
        let other = source.map(on: nil) { $0 }
        let limited = source.timeout(.seconds(1), clock: clock)
        clock.advance(by: .seconds(1))
        #expect(isPromiseError(limited.error, .timedOut))
        #expect(stops.value == 0)
        resolver.fulfill(2)
        #expect(other.value == 2)
    }

    @Test func aResolvedThenableBeatsAZeroTimeout() {
        #expect(Promise.value(5).timeout(.zero, clock: ManualClock()).value == 5)
        #expect(Guarantee.value(6).timeout(seconds: 0).value == 6)
    }

    @Test func aPendingThenableLosesToAZeroTimeout() {
        let (source, resolver) = Promise<Int>.pending()
        #expect(isPromiseError(source.timeout(.zero, clock: ManualClock()).error, .timedOut))
        resolver.fulfill(0)
    }

    @Test func cancellingTheResultCancelsTheWorkAndTheTimer() {
        let clock = ManualClock()
        let (work, limited) = StoppableWork.start { $0.timeout(.seconds(5), clock: clock) }
        limited.cancel()
        #expect(work.stopCount == 1)
        #expect(clock.sleepers == 0)
        #expect(limited.result.map(\.isCancellation) == true)
    }

    @Test func timeoutInSecondsRunsOutInRealTime() throws {
        let (source, resolver) = Promise<Int>.pending()
        let failure = try error(of: source.timeout(seconds: 0.005))
        resolver.fulfill(0)
        #expect(isPromiseError(failure, .timedOut))
        #expect(try value(of: after(seconds: 0.001).map { 1 }.timeout(seconds: 60)) == 1)
    }

    @Test(arguments: [-1.0, .nan])
    func aNegativeOrNaNTimeoutIsBadInput(seconds: Double) {
        let limited = Promise.value(1).timeout(seconds: seconds)
        #expect(
            badInputReason(limited.error)?.hasPrefix("timeout(seconds:) needs a time that is zero or more")
                == true)
    }

    @Test func aNegativeDurationIsBadInput() {
        let limited = Promise.value(1).timeout(.seconds(-1), clock: ManualClock())
        #expect(
            badInputReason(limited.error)
                == "timeout(_:clock:) needs a time that is zero or more, not -1.0 seconds")
    }

    @Test func theErrorSaysWhatHappened() {
        #expect("\(PromiseError.timedOut)" == "The operation did not finish in the time it was given.")
    }
}

@Suite struct ValidateTests {
    @Test func anAcceptedValuePassesOn() throws {
        #expect(try value(of: Promise.value(4).validate { $0 > 3 }) == 4)
    }

    @Test func aRefusedValueRejectsWithValidationFailedCarryingIt() throws {
        let failure = try error(of: Promise.value(2).validate { $0 > 3 })
        guard case .validationFailed(let value)? = failure as? PromiseError else {
            Issue.record("rejected with \(String(describing: failure))")
            return
        }
        #expect(value as? Int == 2)
        #expect("\(failure!)" == "The value 2 failed validation.")
    }

    @Test func aRefusedValueRejectsWithTheCallersError() throws {
        let validated = Promise.value(2).validate(rejecting: TestError.other) { $0 > 3 }
        #expect(try error(of: validated) as? TestError == .other)
    }

    @Test func aThrowFromThePredicateRejects() throws {
        let validated = Promise.value(2).validate { _ -> Bool in throw TestError.boom }
        #expect(try error(of: validated) as? TestError == .boom)
    }

    @Test func aRejectionSkipsThePredicate() {
        let calls = Counter()
        let validated = Promise<Int>(error: TestError.boom).validate(on: nil) { _ in
            calls.increment()
            return true
        }
        #expect(validated.error as? TestError == .boom)
        #expect(calls.value == 0)
    }

    @Test func onAQueueThePredicateRunsThere() throws {
        let queue = DispatchQueue(label: "validate")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let validated = Promise.value(1).validate(on: queue, rejecting: TestError.other) { _ in
            DispatchQueue.getSpecific(key: key) == true
        }
        #expect(try value(of: validated) == 1)
    }

    @Test func aGuaranteeCanBeValidated() throws {
        let validated: Promise<Int> = Guarantee.value(1).validate(on: nil) { $0 == 1 }
        #expect(validated.value == 1)
    }
}
