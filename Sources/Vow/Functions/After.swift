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
public func after(seconds: TimeInterval) -> Guarantee<Void> {
    precondition(!seconds.isNaN, "after(seconds:) needs a number of seconds, not NaN")
    return after(deadline: .now() + max(seconds, 0))
}

/// A guarantee that resolves after `interval` has passed. `.never` never resolves.
///
/// As with ``after(seconds:)``, the timer is cancelled once nothing waits for it any longer.
///
/// ```swift
/// after(.milliseconds(250)).done { retry() }
/// ```
public func after(_ interval: DispatchTimeInterval) -> Guarantee<Void> {
    after(deadline: .now() + interval)
}

private func after(deadline: DispatchTime) -> Guarantee<Void> {
    let next = EmptyBox<Void>()
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
