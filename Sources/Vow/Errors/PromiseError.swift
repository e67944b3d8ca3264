/// The errors Vow rejects with, and ``cancelled``, for your own code to report a cancellation.
///
/// ```swift
/// download(url).timeout(seconds: 10).catch { error in
///     switch error {
///     case PromiseError.timedOut: print("too slow")
///     case PromiseError.badInput(let reason): print("a bug:", reason)
///     default: print("failed:", error)
///     }
/// }
/// ```
public enum PromiseError: Error, Sendable {
    /// A completion handler called back with neither a value nor an error.
    case invalidCallingConvention

    /// A handler returned the promise its own operator returned, which could never resolve.
    case returnedSelf

    /// An operator was given input it cannot work with, such as an empty ``race(_:file:line:)->Promise<U.T>``,
    /// a concurrency limit below one or a negative delay; the text says which and why.
    case badInput(String)

    /// The operation was cancelled. ``CatchPolicy/allErrorsExceptCancellation`` skips it.
    case cancelled

    /// A `compactMap` transform returned `nil`; carries the input value and the target type.
    case compactMap(any Sendable, any Any.Type)

    /// An operator that needs an element, such as ``Thenable/firstValue``, met an empty sequence.
    case emptySequence

    /// Every contender in ``race(fulfilled:file:line:)`` was rejected.
    case noWinner

    /// The work did not finish in the time ``Thenable/timeout(seconds:file:line:)`` gave it.
    case timedOut

    /// A value failed the predicate of ``Thenable/validate(rejecting:file:line:_:)``; carries the value.
    case validationFailed(any Sendable)
}

extension PromiseError {
    /// The error for a concurrency limit below one, which would never start any work.
    static func concurrencyLimit(_ limit: Int) -> PromiseError {
        .badInput("the concurrency limit must be at least 1, not \(limit)")
    }

    /// The error for a delay or a time limit below zero, or not a number, given to `function`.
    static func negativeDelay(_ function: String, _ delay: Any) -> PromiseError {
        .badInput("\(function) needs a time that is zero or more, not \(delay)")
    }
}

extension PromiseError: CancellableError {
    /// Whether this is ``PromiseError/cancelled``.
    public var isCancelled: Bool {
        if case .cancelled = self { true } else { false }
    }
}

extension PromiseError: CustomStringConvertible {
    /// A sentence that says what went wrong, suitable for a log.
    public var description: String {
        switch self {
        case .invalidCallingConvention:
            "A completion handler called back with neither a value nor an error."
        case .returnedSelf:
            "A handler returned the promise its own operator returned, so it could never resolve."
        case .badInput(let reason):
            "Bad input: \(reason)"
        case .cancelled:
            "The operation was cancelled."
        case .compactMap(let value, let type):
            "Could not compactMap<\(type)>: the transform returned nil for \(value)."
        case .emptySequence:
            "The operation needed an element, but the sequence was empty."
        case .noWinner:
            "Every promise in the race was rejected, so there is no winner."
        case .timedOut:
            "The operation did not finish in the time it was given."
        case .validationFailed(let value):
            "The value \(value) failed validation."
        }
    }
}

extension PromiseError: CustomDebugStringConvertible {
    /// The case name followed by the description.
    public var debugDescription: String {
        switch self {
        case .invalidCallingConvention: "PromiseError.invalidCallingConvention: \(description)"
        case .returnedSelf: "PromiseError.returnedSelf: \(description)"
        case .badInput: "PromiseError.badInput: \(description)"
        case .cancelled: "PromiseError.cancelled: \(description)"
        case .compactMap: "PromiseError.compactMap: \(description)"
        case .emptySequence: "PromiseError.emptySequence: \(description)"
        case .noWinner: "PromiseError.noWinner: \(description)"
        case .timedOut: "PromiseError.timedOut: \(description)"
        case .validationFailed: "PromiseError.validationFailed: \(description)"
        }
    }
}
