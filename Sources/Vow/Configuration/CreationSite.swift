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

/// Where a resolver's promise was made, as the resolver keeps it: in a debug build the
/// compiler's own constants, which cost no allocation and become strings only when a report
/// needs them; in a release build nothing, so that a resolver takes no more memory.
@usableFromInline
struct RecordedSite: Sendable {
    #if DEBUG
    @usableFromInline
    let recorded: (fileID: StaticString, line: UInt)?
    #endif

    /// The site at `fileID` and `line`.
    @inlinable
    init(fileID: StaticString, line: UInt) {
        #if DEBUG
        recorded = (fileID, line)
        #endif
    }

    /// No site: a resolver Vow makes for its own work.
    @inlinable
    init() {
        #if DEBUG
        recorded = nil
        #endif
    }

    /// The site, for a report; `nil` in a release build.
    var site: CreationSite? {
        #if DEBUG
        recorded.map { CreationSite(fileID: "\($0.fileID)", line: Int($0.line)) }
        #else
        nil
        #endif
    }
}
