import Foundation

/// An error that can say whether it means "cancelled" rather than "failed".
///
/// Conform your own error types so that ``CatchPolicy/allErrorsExceptCancellation`` skips them:
///
/// ```swift
/// enum DownloadError: CancellableError {
///     case userStopped, serverGone
///     var isCancelled: Bool { self == .userStopped }
/// }
/// ```
public protocol CancellableError: Error {
    /// Whether this error reports a cancellation.
    var isCancelled: Bool { get }
}

extension Error {
    /// Whether this error means the work was cancelled rather than that it failed.
    ///
    /// True for ``PromiseError/cancelled``, for a ``CancellableError`` that says so, for Swift
    /// concurrency's `CancellationError`, and for Foundation's cancellation errors.
    public var isCancelled: Bool {
        switch self {
        case let error as any CancellableError:
            return error.isCancelled
        case let error as PromiseError:
            if case .cancelled = error { return true }
            return false
        case is CancellationError:
            return true
        case let error as URLError:
            return error.code == .cancelled
        default:
            #if canImport(Darwin)
                if let error = self as? CocoaError, error.code == .userCancelled { return true }
            #endif
            return false
        }
    }
}

/// Which errors a `catch` or `recover` handles.
public enum CatchPolicy: Sendable {
    /// Every error, cancellation included.
    case allErrors

    /// Every error except those whose ``Swift/Error/isCancelled`` is true. This is the default.
    case allErrorsExceptCancellation
}

extension CatchPolicy {
    func handles(_ error: any Error) -> Bool {
        self == .allErrors || !error.isCancelled
    }
}
