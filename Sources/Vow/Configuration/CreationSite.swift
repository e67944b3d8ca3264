/// Where a pending promise or guarantee was made: the file and line of the call to
/// `Promise.pending()`, `Promise { resolver in … }`, `Guarantee.pending()` or
/// `Guarantee { resolve in … }`.
///
/// Vow records it in debug builds only, and hands it over with
/// ``LogEvent/pendingPromiseDeallocated(createdAt:)`` and
/// ``LogEvent/pendingGuaranteeDeallocated(createdAt:)`` when the promise can no longer
/// resolve, so that a leaked resolver points at the code that made it. In release builds
/// nothing is recorded, a resolver takes no more memory, and the site is `nil`.
///
/// ```swift
/// conf.logHandler = { event in
///     if case .pendingPromiseDeallocated(let site?) = event {
///         print("leaked resolver of the promise made at \(site)")  // "App/Loader.swift:42"
///     }
/// }
/// ```
public struct CreationSite: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` names it: the module, a slash and the file's name, such as
    /// `"App/Loader.swift"`.
    public let fileID: String
    /// The line, counting from 1.
    public let line: Int

    /// A site at `fileID` and `line`.
    ///
    /// ```swift
    /// let site = CreationSite(fileID: "App/Loader.swift", line: 42)
    /// ```
    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    /// `fileID:line`, such as `App/Loader.swift:42`.
    public var description: String {
        "\(fileID):\(line)"
    }
}
