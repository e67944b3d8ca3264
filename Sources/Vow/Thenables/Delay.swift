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
    public func delay(seconds: TimeInterval, file: StaticString = #fileID, line: UInt = #line) -> Promise<T> {
        guard seconds >= 0 else {
            return Promise(error: PromiseError.negativeDelay("delay(seconds:)", seconds))
        }
        let site = RecordedSite("delay", fileID: file, line: line)
        return delay(by: { after(seconds: seconds, madeAt: site) }, madeAt: site)
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
    public func delay<C: Clock>(
        _ duration: C.Duration, clock: C = ContinuousClock(), file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<T> {
        guard duration >= .zero else {
            return Promise(error: PromiseError.negativeDelay("delay(_:clock:)", duration))
        }
        let site = RecordedSite("delay", fileID: file, line: line)
        return delay(by: { after(duration, clock: clock, madeAt: site) }, madeAt: site)
    }

    func delay(by wait: @escaping @Sendable () -> Guarantee<Void>, madeAt site: RecordedSite) -> Promise<T> {
        then(
            via: PlacedHandler(on: nil) { value in
                wait().map(via: PlacedHandler(on: nil) { @Sendable _ in value }, madeAt: site)
            },
            madeAt: site)
    }
}

extension Guarantee {
    /// Passes the value on once `seconds` have passed after it arrived, keeping the result a
    /// ``Guarantee``.
    ///
    /// A guarantee cannot reject, so a negative interval waits for nothing, as with
    /// ``after(seconds:file:line:)``.
    ///
    /// ```swift
    /// Guarantee.value("Saved").delay(seconds: 2).done { status.text = $0 }
    /// ```
    ///
    /// - Precondition: `seconds` is not NaN.
    public func delay(
        seconds: TimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) -> Guarantee<T> {
        precondition(!seconds.isNaN, "delay(seconds:) needs a number of seconds, not NaN")
        let site = RecordedSite("delay", fileID: file, line: line)
        return delay(by: { after(seconds: seconds, madeAt: site) }, madeAt: site)
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
    public func delay<C: Clock>(
        _ duration: C.Duration, clock: C = ContinuousClock(), file: StaticString = #fileID, line: UInt = #line
    ) -> Guarantee<T> {
        let site = RecordedSite("delay", fileID: file, line: line)
        return delay(by: { after(duration, clock: clock, madeAt: site) }, madeAt: site)
    }

    func delay(
        by wait: @escaping @Sendable () -> Guarantee<Void>, madeAt site: RecordedSite
    ) -> Guarantee<T> {
        then(
            via: PlacedHandler(on: nil) { value in
                wait().map(via: PlacedHandler(on: nil) { @Sendable _ in value }, madeAt: site)
            },
            madeAt: site)
    }
}
