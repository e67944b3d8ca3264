// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
public import Foundation

/// The error `process.launch(.promise)` rejects with when the process exits with a status
/// other than 0 or is killed by a signal; it carries everything the process wrote, since that
/// usually says why.
///
/// ```swift
/// tar.launch(.promise).catch { error in
///     guard let failure = error as? ProcessError else { return show(error) }
///     show("tar failed with status \(failure.status): \(failure.standardErrorText)")
/// }
/// ```
public struct ProcessError: Error, Sendable, Hashable {
    /// How a process ended, as Foundation's `Process.TerminationReason` says.
    ///
    /// ```swift
    /// if failure.reason == .uncaughtSignal, failure.status == SIGKILL { print("killed") }
    /// ```
    public enum Reason: Sendable, Hashable {
        /// The process exited by itself; ``ProcessError/status`` is its exit status.
        case exit

        /// A signal it did not catch ended the process; ``ProcessError/status`` is the
        /// signal's number.
        case uncaughtSignal
    }

    /// The exit status, or the number of the signal that killed the process, as
    /// ``reason`` tells.
    ///
    /// ```swift
    /// if failure.reason == .exit, failure.status == 1 { print("grep found nothing") }
    /// ```
    public var status: Int32

    /// Whether the process exited with ``status`` or a signal numbered ``status`` killed it.
    ///
    /// ```swift
    /// let how = failure.reason == .exit ? "exited with" : "was killed by signal"
    /// ```
    public var reason: Reason

    /// Everything the process wrote to its standard output before it ended; empty if the
    /// standard output was directed elsewhere before the launch.
    ///
    /// ```swift
    /// let partial = String(decoding: failure.standardOutput, as: UTF8.self)
    /// ```
    public var standardOutput: Data

    /// Everything the process wrote to its standard error before it ended; empty if the
    /// standard error was directed elsewhere before the launch.
    ///
    /// ```swift
    /// log.error(String(decoding: failure.standardError, as: UTF8.self))
    /// ```
    public var standardError: Data

    /// The program that ran: the process's `executableURL`.
    ///
    /// ```swift
    /// print("\(failure.executable.lastPathComponent) failed")
    /// ```
    public var executable: URL

    /// The arguments the program ran with, without the program itself.
    ///
    /// ```swift
    /// print(failure.arguments.joined(separator: " "))
    /// ```
    public var arguments: [String]

    /// The error for a process that ended unsuccessfully, for code that stands in for a real
    /// one, such as a test double.
    ///
    /// ```swift
    /// let notFound = ProcessError(
    ///     status: 1, reason: .exit, executable: URL(fileURLWithPath: "/usr/bin/grep"))
    /// ```
    public init(
        status: Int32,
        reason: Reason,
        standardOutput: Data = Data(),
        standardError: Data = Data(),
        executable: URL,
        arguments: [String] = []
    ) {
        self.status = status
        self.reason = reason
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.executable = executable
        self.arguments = arguments
    }

    /// The standard output as text, decoded as UTF-8; a byte that is not valid UTF-8 becomes
    /// U+FFFD rather than failing the decoding.
    ///
    /// ```swift
    /// let partial = failure.standardOutputText
    /// ```
    public var standardOutputText: String {
        String(decoding: standardOutput, as: UTF8.self)
    }

    /// The standard error as text, decoded as UTF-8; a byte that is not valid UTF-8 becomes
    /// U+FFFD rather than failing the decoding.
    ///
    /// ```swift
    /// show(failure.standardErrorText)
    /// ```
    public var standardErrorText: String {
        String(decoding: standardError, as: UTF8.self)
    }
}

extension ProcessError: CustomStringConvertible {
    /// A sentence for a log: the command as a shell would take it, how it ended, and the end
    /// of its standard error.
    ///
    /// ```swift
    /// print(failure)
    /// // /bin/sh -c 'exit 3' exited with status 3; standard error: bad
    /// ```
    public var description: String {
        let command = ([executable.path] + arguments).map(shellQuoted).joined(separator: " ")
        let ending =
            switch reason {
            case .exit: "exited with status \(status)"
            case .uncaughtSignal: "was killed by signal \(status)"
            }
        let preview = errorPreview
        return preview.isEmpty ? "\(command) \(ending)" : "\(command) \(ending); standard error: \(preview)"
    }

    /// The longest standard error ``description`` shows, in characters.
    private static let previewLength = 500

    /// The standard error without surrounding blank space, and only its end if it is long:
    /// a failing command usually says why last, after whatever it did before.
    private var errorPreview: String {
        let text = standardErrorText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count > Self.previewLength else { return text }
        return "…" + text.suffix(Self.previewLength)
    }
}

extension ProcessError: LocalizedError {
    /// The same sentence as ``description``, so that `localizedDescription` says what failed
    /// rather than a generic "The operation could not be completed".
    ///
    /// ```swift
    /// alert.message = error.localizedDescription
    /// ```
    public var errorDescription: String? {
        description
    }
}

/// `word` as a POSIX shell reads it back: as it is if it holds only characters a shell leaves
/// alone, otherwise in single quotes, so that a logged command can be pasted into a terminal.
private func shellQuoted(_ word: String) -> String {
    let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")
    if !word.isEmpty && word.allSatisfy(plain.contains) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}
#endif
