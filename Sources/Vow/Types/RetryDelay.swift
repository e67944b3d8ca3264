internal import Foundation

/// How long ``retry(attempts:delay:clock:if:file:line:_:)-26o1u`` waits after a failed attempt before it makes
/// the next.
///
/// ```swift
/// retry(attempts: 6, delay: .exponential(from: .milliseconds(200), maximum: .seconds(5), jitter: .full)) {
///     api.fetchFeed()
/// }
/// ```
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct RetryDelay: Sendable {
    /// How a delay is spread at random, so that many clients that failed together do not all
    /// come back at the same moment.
    ///
    /// ```swift
    /// let polite = RetryDelay.exponential(from: .milliseconds(200), maximum: .seconds(10), jitter: .full)
    /// ```
    public enum Jitter: Sendable {
        /// Exactly the computed delay.
        case none
        /// Anywhere from zero to the computed delay ("full jitter").
        case full
        /// Half the computed delay, plus anywhere from zero to the other half ("equal jitter").
        case equal
    }

    /// The delay after `failures` failed attempts, before jitter.
    private let base: @Sendable (_ failures: Int) -> Duration
    private let jitter: Jitter
    /// Why the strategy cannot be used, for the ``PromiseError/badInput(_:)`` of a retry.
    let problem: String?

    private init(
        problem: String? = nil, jitter: Jitter = .none,
        _ base: @escaping @Sendable (_ failures: Int) -> Duration
    ) {
        self.problem = problem
        self.jitter = jitter
        self.base = base
    }

    /// No delay: the next attempt starts as soon as the last one has failed.
    public static var none: RetryDelay {
        RetryDelay { _ in .zero }
    }

    /// The same delay after every failure.
    ///
    /// ```swift
    /// retry(attempts: 3, delay: .constant(.seconds(2))) { upload(file) }
    /// ```
    ///
    /// A negative `delay` makes the retry reject with ``PromiseError/badInput(_:)``.
    public static func constant(_ delay: Duration) -> RetryDelay {
        RetryDelay(problem: delay < .zero ? "a retry delay cannot be negative, not \(delay)" : nil) { _ in
            delay
        }
    }

    /// A delay that starts at `initial` and grows by `multiplier` after each failure, up to
    /// `maximum` if given, spread by `jitter`.
    ///
    /// With the defaults, the delays are `initial`, twice that, four times, and so on:
    ///
    /// ```swift
    /// // Waits 1, 2, 4, 8, then 10, 10, … seconds.
    /// retry(attempts: 8, delay: .exponential(from: .seconds(1), maximum: .seconds(10))) {
    ///     connect()
    /// }
    /// ```
    ///
    /// A negative `initial` or `maximum`, or a `multiplier` below one or not a number, makes
    /// the retry reject with ``PromiseError/badInput(_:)``.
    public static func exponential(
        from initial: Duration,
        multiplier: Double = 2,
        maximum: Duration? = nil,
        jitter: Jitter = .none
    ) -> RetryDelay {
        let problem: String? =
            if initial < .zero {
                "an exponential retry delay cannot start below zero, at \(initial)"
            } else if let maximum, maximum < .zero {
                "the maximum retry delay cannot be negative, not \(maximum)"
            } else if !(multiplier >= 1) || multiplier.isInfinite {
                "an exponential retry delay needs a finite multiplier of at least 1, not \(multiplier)"
            } else {
                nil
            }
        let limit = Swift.min(maximum ?? .longest, .longest)
        return RetryDelay(problem: problem, jitter: jitter) { failures in
            // Compared in `Double` seconds, where a long run of failures reaches infinity
            // rather than overflowing; computed in `Duration`, exactly for a whole factor.
            let factor = pow(multiplier, Double(failures - 1))
            guard initial.inSeconds * factor < limit.inSeconds else { return limit }
            return factor < 0x1p53 && factor == factor.rounded() ? initial * Int64(factor) : initial * factor
        }
    }

    /// A delay computed by `delay` from the number of failed attempts so far, 1 after the
    /// first.
    ///
    /// ```swift
    /// retry(attempts: 4, delay: .custom { failures in .seconds(failures * failures) }) { syncContacts() }
    /// ```
    ///
    /// A negative result makes the retry reject with ``PromiseError/badInput(_:)`` at that
    /// point.
    public static func custom(_ delay: @escaping @Sendable (_ failures: Int) -> Duration) -> RetryDelay {
        RetryDelay(delay)
    }

    /// The delay after `failures` failed attempts, with jitter applied: a different value at
    /// each call unless the jitter is ``Jitter/none``.
    ///
    /// ```swift
    /// RetryDelay.exponential(from: .seconds(1)).delay(afterFailures: 3)   // 4 seconds
    /// ```
    public func delay(afterFailures failures: Int) -> Duration {
        let delay = base(failures)
        switch jitter {
        case .none:
            return delay
        case .full:
            return delay * Double.random(in: 0...1)
        case .equal:
            return delay / 2 + delay / 2 * Double.random(in: 0...1)
        }
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Duration {
    /// The duration as a number of seconds.
    fileprivate var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The longest delay worth computing, a hundred years: far below what `Duration` can hold,
    /// so that no computation near it can overflow.
    fileprivate static var longest: Duration { .seconds(100 * 365 * 24 * 3600) }
}
