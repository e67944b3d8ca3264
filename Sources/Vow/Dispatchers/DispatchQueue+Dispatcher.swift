public import Dispatch

/// A queue runs a handler as it does when passed as a queue: asynchronously, without flags.
///
/// ```swift
/// let parsing = DispatchQueue(label: "parsing")
/// download(url).map(on: parsing) { data in try parse(data) }
/// ```
extension DispatchQueue: Dispatcher {
    /// Runs `work` asynchronously on this queue.
    ///
    /// ```swift
    /// DispatchQueue.global().dispatch { print("on a global queue") }
    /// ```
    public func dispatch(_ work: @escaping @Sendable () -> Void) {
        async(execute: work)
    }
}
