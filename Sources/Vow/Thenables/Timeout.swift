public import Foundation

extension Thenable {
    /// Resolves as this thenable does if it resolves within `seconds`; otherwise rejects with
    /// ``PromiseError/timedOut`` and cancels it.
    ///
    /// The thenable is cancelled as a race cancels a loser: only if nothing else waits for it
    /// (see `Documentation/Cancellation.md`). When it wins, the timer is cancelled. Cancelling
    /// the returned promise cancels both.
    ///
    /// ```swift
    /// download(url).timeout(seconds: 10).done { data in
    ///     show(data)
    /// }.catch { error in
    ///     if case PromiseError.timedOut = error { showSlowNetworkHint() }
    /// }
    /// ```
    ///
    /// - Returns: A promise rejected with ``PromiseError/badInput(_:)`` if `seconds` is negative
    ///   or NaN.
    public func timeout(
        seconds: TimeInterval, file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<T> {
        guard seconds >= 0 else {
            return Promise(error: PromiseError.negativeDelay("timeout(seconds:)", seconds))
        }
        let timer = after(seconds: seconds, madeAt: RecordedSite("timeout's timer", fileID: file, line: line))
        return timeout(timer, madeAt: RecordedSite("timeout", fileID: file, line: line))
    }

    /// Resolves as this thenable does if it resolves within `duration` on `clock`; otherwise
    /// rejects with ``PromiseError/timedOut`` and cancels it.
    ///
    /// With a ``ManualClock``, the time runs out when the test advances the clock.
    ///
    /// ```swift
    /// download(url).timeout(.seconds(10)).done(show)
    /// ```
    ///
    /// - Returns: A promise rejected with ``PromiseError/badInput(_:)`` if `duration` is negative.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public func timeout<C: Clock>(
        _ duration: C.Duration, clock: C = ContinuousClock(), file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<T> {
        guard duration >= .zero else {
            return Promise(error: PromiseError.negativeDelay("timeout(_:clock:)", duration))
        }
        let timer = after(
            duration, clock: clock, madeAt: RecordedSite("timeout's timer", fileID: file, line: line))
        return timeout(timer, madeAt: RecordedSite("timeout", fileID: file, line: line))
    }

    /// Races this thenable against `timer`, which rejects with ``PromiseError/timedOut``, in a
    /// box made by the operation that `site` names.
    func timeout(_ timer: Guarantee<Void>, madeAt site: RecordedSite) -> Promise<T> {
        let next = EmptyBox<Result<T, any Error>>(madeAt: site)
        var upstreams: [ConsumerLink] = []
        // This thenable first, so that one resolved already wins over a timer that has fired.
        next.attach(to: self, collecting: &upstreams) { next.seal($0) }
        // The failure begins here, at the timeout, whatever the timer's handlers deliver.
        next.attach(to: timer, collecting: &upstreams) { _ in
            next.seal(.failure(PromiseError.timedOut), as: .tail, failingAt: site)
        }
        next.replaceUpstream(with: Upstreams.link(upstreams))
        return Promise(next)
    }
}
