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

extension CancellableError {
    /// A cancellable error reports a failure unless its type says otherwise.
    ///
    /// A type that conforms and forgets to say when it means a cancellation is handled by
    /// `catch` like any other error, rather than having every error skipped. This default also
    /// keeps such a type from picking up the `Error` extension below as its witness, which would
    /// ask it again and never return.
    public var isCancelled: Bool { false }
}

extension Error {
    /// Whether this error means the work was cancelled rather than that it failed.
    ///
    /// True for ``PromiseError/cancelled``, for a ``CancellableError`` that says so, for Swift
    /// concurrency's `CancellationError`, and for Foundation's `URLError.cancelled` and
    /// `CocoaError.userCancelled`.
    public var isCancelled: Bool {
        switch self {
        case let error as any CancellableError:
            return error.isCancelled
        case is CancellationError:
            return true
        case let error as URLError:
            return error.code == .cancelled
        case let error as CocoaError:
            return error.code == .userCancelled
        default:
            return false
        }
    }
}

/// Which errors a `catch` or `recover` handles.
///
/// ```swift
/// upload(photo).catch(policy: .allErrors) { error in
///     print(error.isCancelled ? "upload stopped" : "upload failed: \(error)")
/// }
/// ```
public enum CatchPolicy: Sendable {
    /// Every error, cancellation included.
    case allErrors

    /// Every error except those whose ``Swift/Error/isCancelled`` is true. This is the default.
    case allErrorsExceptCancellation
}

extension CatchPolicy {
    @usableFromInline
    func handles(_ error: any Error) -> Bool {
        self == .allErrors || !error.isCancelled
    }
}
