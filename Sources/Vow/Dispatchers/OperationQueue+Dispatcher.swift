public import Foundation

/// An operation queue runs each handler as an operation of its own, so that its
/// `maxConcurrentOperationCount`, quality of service and suspension apply to handlers too.
///
/// ```swift
/// let imports = OperationQueue()
/// imports.maxConcurrentOperationCount = 2
/// files.forEach { file in read(file).done(on: imports) { rows in store(rows) } }
/// ```
extension OperationQueue: Dispatcher {
    /// Adds `work` to this queue as an operation.
    ///
    /// ```swift
    /// OperationQueue.main.dispatch { print("on the main operation queue") }
    /// ```
    public func dispatch(_ work: @escaping @Sendable () -> Void) {
        addOperation(work)
    }
}
