/// Where a box was made, and by which operation, as the box keeps it: in a debug build the
/// compiler's own constants, which cost no allocation and become strings only when a report or
/// a chain's description needs them; in a release build nothing, an empty struct that takes no
/// memory in the box, so that a pending promise costs what it did before sites were recorded.
///
/// Every operator, free function and initializer that makes a box takes the caller's `#fileID`
/// and `#line` as defaulted parameters and passes them here with its own name.
@usableFromInline
struct RecordedSite: Sendable {
    #if DEBUG
    @usableFromInline
    let recorded: (operation: StaticString, fileID: StaticString, line: UInt)?
    #endif

    /// The site of `operation`, called at `fileID` and `line`.
    @inlinable
    init(_ operation: StaticString, fileID: StaticString, line: UInt) {
        #if DEBUG
        recorded = (operation, fileID, line)
        #endif
    }

    /// The operation alone, for a property such as `firstValue`, which cannot take its caller's
    /// line.
    @inlinable
    init(_ operation: StaticString) {
        #if DEBUG
        recorded = (operation, "", 0)
        #endif
    }

    /// No site: a box Vow makes for its own work, or any box in a release build.
    @inlinable
    init() {
        #if DEBUG
        recorded = nil
        #endif
    }

    /// The file and line, for a report; `nil` in a release build.
    var site: CreationSite? {
        #if DEBUG
        recorded.flatMap { $0.line == 0 ? nil : CreationSite(fileID: "\($0.fileID)", line: Int($0.line)) }
        #else
        nil
        #endif
    }

    /// The operation's name, such as `map` or `Promise.pending()`; `nil` in a release build.
    var operation: String? {
        #if DEBUG
        recorded.map { "\($0.operation)" }
        #else
        nil
        #endif
    }
}
