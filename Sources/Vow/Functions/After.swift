public import Dispatch
public import Foundation

/// A guarantee that resolves after `seconds` have passed.
///
/// A zero or negative interval resolves as soon as a global queue gets to it.
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
/// ```swift
/// after(.milliseconds(250)).done { retry() }
/// ```
public func after(_ interval: DispatchTimeInterval) -> Guarantee<Void> {
    after(deadline: .now() + interval)
}

private func after(deadline: DispatchTime) -> Guarantee<Void> {
    let next = EmptyBox<Void>()
    DispatchQueue.global().asyncAfter(deadline: deadline) { next.seal(()) }
    return Guarantee(next)
}
