// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
public import Foundation

/// What a process that exited with status 0 wrote: the value of `process.launch(.promise)`.
///
/// ```swift
/// let git = Process()
/// git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
/// git.arguments = ["rev-parse", "HEAD"]
/// git.launch(.promise).done { output in
///     print("at", output.standardOutputText)
/// }
/// ```
public struct ProcessOutput: Sendable, Hashable {
    /// The exit status, which is always 0 from `launch(.promise)`: any other rejects with a
    /// ``ProcessError`` instead.
    ///
    /// ```swift
    /// precondition(output.status == 0)
    /// ```
    public var status: Int32

    /// Everything the process wrote to its standard output; empty if the standard output was
    /// directed elsewhere before the launch.
    ///
    /// ```swift
    /// let rows = try JSONDecoder().decode([Row].self, from: output.standardOutput)
    /// ```
    public var standardOutput: Data

    /// Everything the process wrote to its standard error; empty if the standard error was
    /// directed elsewhere before the launch.
    ///
    /// ```swift
    /// if !output.standardError.isEmpty { log.warning(output.standardErrorText) }
    /// ```
    public var standardError: Data

    /// The output and status of a process, for code that stands in for a real one, such as a
    /// test double.
    ///
    /// ```swift
    /// let fake = Promise.value(ProcessOutput(standardOutput: Data("main\n".utf8)))
    /// ```
    public init(status: Int32 = 0, standardOutput: Data = Data(), standardError: Data = Data()) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The standard output as text, decoded as UTF-8; a byte that is not valid UTF-8 becomes
    /// U+FFFD rather than failing the decoding.
    ///
    /// ```swift
    /// let branch = output.standardOutputText.trimmingCharacters(in: .whitespacesAndNewlines)
    /// ```
    public var standardOutputText: String {
        String(decoding: standardOutput, as: UTF8.self)
    }

    /// The standard error as text, decoded as UTF-8; a byte that is not valid UTF-8 becomes
    /// U+FFFD rather than failing the decoding.
    ///
    /// ```swift
    /// print(output.standardErrorText, terminator: "")
    /// ```
    public var standardErrorText: String {
        String(decoding: standardError, as: UTF8.self)
    }
}
#endif
