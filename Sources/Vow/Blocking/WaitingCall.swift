/// A blocking call that waits for a thenable, as a stuck-wait report names it.
struct WaitingCall {
    /// `wait()` or `hang(_:)`, in release builds too.
    let operation: StaticString
    /// Where it was written, in a debug build; empty where the caller's line is not known.
    let site: RecordedSite
    /// The type a report names the chain by, where it is not the thenable's own: a main-actor
    /// promise waits through the promise it shares.
    var describedType: String?

    /// `operation`, written at `file` and `line`.
    init(_ operation: StaticString, file: StaticString, line: UInt, describedAs type: String? = nil) {
        self.operation = operation
        site = RecordedSite(operation, fileID: file, line: line)
        describedType = type
    }

    /// `operation`, whose caller's line is not known.
    init(_ operation: StaticString, describedAs type: String) {
        self.operation = operation
        site = RecordedSite(operation)
        describedType = type
    }
}
