public import Dispatch
public import Foundation

/// A guarantee that resolves after `seconds` have passed.
///
/// A zero or negative interval resolves as soon as a global queue gets to it. Once every
/// consumer has cancelled and no handle to the guarantee is left, the timer is cancelled, as
/// `Documentation/Cancellation.md` describes.
///
/// ```swift
/// after(seconds: 0.3).done { banner.hide() }
/// ```
///
/// - Precondition: `seconds` is not NaN.
public func after(
    seconds: TimeInterval, file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<Void> {
    after(seconds: seconds, madeAt: RecordedSite("after(seconds:)", fileID: file, line: line))
}

/// ``after(seconds:file:line:)``, its box made by the operation that `site` names.
func after(seconds: TimeInterval, madeAt site: RecordedSite) -> Guarantee<Void> {
    precondition(!seconds.isNaN, "after(seconds:) needs a number of seconds, not NaN")
    return after(deadline: .now() + max(seconds, 0), madeAt: site)
}

/// A guarantee that resolves after `interval` has passed. `.never` never resolves.
///
/// As with ``after(seconds:file:line:)``, the timer is cancelled once nothing waits for it any
/// longer.
///
/// ```swift
/// after(.milliseconds(250)).done { refresh() }
/// ```
public func after(
    _ interval: DispatchTimeInterval, file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<Void> {
    after(deadline: .now() + interval, madeAt: RecordedSite("after(_:)", fileID: file, line: line))
}

/// A guarantee that resolves once `duration` has passed on `clock`.
///
/// Pass a ``ManualClock`` in tests, so that the wait ends when the test advances the clock,
/// at once and in order:
///
/// ```swift
/// import Testing
///
/// let clock = ManualClock()
/// let reminder = after(.seconds(30), clock: clock).map { "time's up" }
/// clock.advance(by: .seconds(30))
/// #expect(reminder.value == "time's up")
/// ```
///
/// With `ContinuousClock` or `SuspendingClock`, Vow waits with a dispatch timer, as
/// ``after(seconds:file:line:)`` does; with a ``ManualClock``, on the clock's own schedule; with
/// another clock, in a task that sleeps on it. A zero or negative duration resolves without
/// waiting. Once every consumer has cancelled and no handle to the guarantee is left, the wait is
/// cancelled, as `Documentation/Cancellation.md` describes.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public func after<C: Clock>(
    _ duration: C.Duration, clock: C, file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<Void> {
    after(duration, clock: clock, madeAt: RecordedSite("after(_:clock:)", fileID: file, line: line))
}

/// ``after(_:clock:file:line:)``, its box made by the operation that `site` names.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func after<C: Clock>(_ duration: C.Duration, clock: C, madeAt site: RecordedSite) -> Guarantee<Void> {
    if let manual = clock as? ManualClock, let duration = duration as? Duration {
        let next = EmptyBox<Void>(madeAt: site)
        if let timer = manual.timer(after: duration, { next.seal(()) }) {
            next.onCancel { manual.cancelTimer(timer) }
        }
        return Guarantee(next)
    }
    if clock is ContinuousClock || clock is SuspendingClock, let duration = duration as? Duration {
        return after(deadline: DispatchTime.now().advanced(byClamping: duration), madeAt: site)
    }
    let deadline = clock.now.advanced(by: duration)
    return Guarantee(priority: nil, madeAt: site) { try? await clock.sleep(until: deadline, tolerance: nil) }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension DispatchTime {
    /// The time `duration` after this one; this one if `duration` is negative, and the
    /// distant future if it is too long to count in nanoseconds.
    ///
    /// Counted in `UInt64` nanoseconds rather than through `DispatchTimeInterval`, whose `Int`
    /// holds no more than two seconds of them on 32-bit watchOS.
    func advanced(byClamping duration: Duration) -> DispatchTime {
        guard duration > .zero else { return self }
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (span, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        let (deadline, beyond) = uptimeNanoseconds.addingReportingOverflow(span)
        return overflow || carry || beyond ? .distantFuture : DispatchTime(uptimeNanoseconds: deadline)
    }
}

private func after(deadline: DispatchTime, madeAt site: RecordedSite) -> Guarantee<Void> {
    let next = EmptyBox<Void>(madeAt: site)
    // A timer source rather than `asyncAfter`: cancelled, it releases its handler, and the
    // chain waiting on it, at once instead of at the deadline.
    let timer = Timer(DispatchSource.makeTimerSource(queue: .global()))
    timer.source.schedule(deadline: deadline)
    timer.source.setEventHandler {
        next.seal(())
        // Cancelling the fired source releases this handler and with it the timer.
        timer.source.cancel()
    }
    next.onCancel { timer.source.cancel() }
    timer.source.activate()
    return Guarantee(next)
}

/// A dispatch timer source, which may be scheduled, activated and cancelled from any thread.
// @unchecked: libdispatch sources are thread-safe; the Swift overlay does not say so.
private final class Timer: @unchecked Sendable {
    let source: any DispatchSourceTimer

    init(_ source: any DispatchSourceTimer) {
        self.source = source
    }
}
