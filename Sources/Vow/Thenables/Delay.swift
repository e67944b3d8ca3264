public import Foundation

extension Thenable {
    /// Passes the fulfilled value on once `seconds` have passed after it arrived; passes a
    /// rejection on at once.
    ///
    /// Cancelling the returned promise during the wait cancels the timer.
    ///
    /// ```swift
    /// saveDraft().delay(seconds: 1.5).done { banner.hide() }
    /// ```
    ///
    /// - Returns: A promise rejected with ``PromiseError/badInput(_:)`` if `seconds` is negative
    ///   or NaN.
    public func delay(seconds: TimeInterval) -> Promise<T> {
        guard seconds >= 0 else {
            return Promise(error: PromiseError.negativeDelay("delay(seconds:)", seconds))
        }
        return delay { after(seconds: seconds) }
    }

    /// Passes the fulfilled value on once `duration` has passed on `clock` after it arrived;
    /// passes a rejection on at once.
    ///
    /// Cancelling the returned promise during the wait cancels the wait. With a
    /// ``ManualClock``, the value passes on when the test advances the clock.
    ///
    /// ```swift
    /// saveDraft().delay(.milliseconds(1500)).done { banner.hide() }
    /// ```
    ///
    /// - Returns: A promise rejected with ``PromiseError/badInput(_:)`` if `duration` is negative.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public func delay<C: Clock>(_ duration: C.Duration, clock: C = ContinuousClock()) -> Promise<T> {
        guard duration >= .zero else {
            return Promise(error: PromiseError.negativeDelay("delay(_:clock:)", duration))
        }
        return delay { after(duration, clock: clock) }
    }

    func delay(by wait: @escaping @Sendable () -> Guarantee<Void>) -> Promise<T> {
        then(on: nil) { value in wait().map(on: nil) { value } }
    }
}

extension Guarantee {
    /// Passes the value on once `seconds` have passed after it arrived, keeping the result a
    /// ``Guarantee``.
    ///
    /// A guarantee cannot reject, so a negative interval waits for nothing, as with
    /// ``after(seconds:)``.
    ///
    /// ```swift
    /// Guarantee.value("Saved").delay(seconds: 2).done { status.text = $0 }
    /// ```
    ///
    /// - Precondition: `seconds` is not NaN.
    public func delay(seconds: TimeInterval) -> Guarantee<T> {
        precondition(!seconds.isNaN, "delay(seconds:) needs a number of seconds, not NaN")
        return delay { after(seconds: seconds) }
    }

    /// Passes the value on once `duration` has passed on `clock` after it arrived, keeping the
    /// result a ``Guarantee``.
    ///
    /// A guarantee cannot reject, so a negative duration waits for nothing.
    ///
    /// ```swift
    /// Guarantee.value("Saved").delay(.seconds(2)).done { status.text = $0 }
    /// ```
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public func delay<C: Clock>(_ duration: C.Duration, clock: C = ContinuousClock()) -> Guarantee<T> {
        delay { after(duration, clock: clock) }
    }

    func delay(by wait: @escaping @Sendable () -> Guarantee<Void>) -> Guarantee<T> {
        then(on: nil) { value in wait().map(on: nil) { value } }
    }
}
