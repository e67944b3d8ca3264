/// Keeps a script alive until `promise` resolves, then returns its value or throws its error.
///
/// Meant for the last line of a command-line tool's top-level code: it turns the main run
/// loop, so handlers on the main queue run, and returns when the chain is done.
///
/// ```swift
/// let total = try hang(firstly {
///     when(fulfilled: files.map(countWords))
/// }.map {
///     $0.reduce(0, +)
/// })
/// print(total)
/// ```
@available(*, noasync, message: "hang() blocks the thread; use 'await promise.async()' in async code")
@discardableResult
public func hang<T>(_ promise: Promise<T>, file: StaticString = #fileID, line: UInt = #line) throws -> T {
    try promise.blockUntilResolved(WaitingCall("hang(_:)", file: file, line: line)).get()
}

/// Keeps a script alive until `guarantee` resolves, then returns its value.
///
/// ```swift
/// hang(after(seconds: 1).done { print("bye") })
/// ```
@available(*, noasync, message: "hang() blocks the thread; use 'await guarantee.async()' in async code")
@discardableResult
public func hang<T>(_ guarantee: Guarantee<T>, file: StaticString = #fileID, line: UInt = #line) -> T {
    // A guarantee's result is always a success, so `get()` cannot throw here.
    try! guarantee.blockUntilResolved(WaitingCall("hang(_:)", file: file, line: line)).get()
}

/// Keeps a script alive until a chain that ends in `catch` or `cauterize` has finished: after
/// the `catch` handler if there was an error.
///
/// ```swift
/// hang(firstly {
///     download(url)
/// }.done { data in
///     print("\(data.count) bytes")
/// }.catch { error in
///     print("failed:", error)
/// })
/// ```
@available(
    *, noasync, message: "hang() blocks the thread; use 'await finalizer.finished.async()' in async code"
)
public func hang(_ finalizer: Finalizer, file: StaticString = #fileID, line: UInt = #line) {
    hang(finalizer.finished, file: file, line: line)
}
