public import Dispatch

/// The error-handling operators of a thenable that can fail: `catch`, `recover`, `ensure`,
/// `ensureThen` and `cauterize`. ``Promise`` conforms; ``Guarantee`` cannot fail and does not.
public protocol CatchMixin: Thenable {}

extension CatchMixin {
    /// Handles the error that ends a chain.
    ///
    /// Errors the `policy` excludes skip `body`: by default cancellations do, so that a
    /// cancelled operation does not show an error to the user.
    ///
    /// ```swift
    /// fetchFeed().done { feed in
    ///     render(feed)
    /// }.catch { error in
    ///     showAlert(error)
    /// }.finally {
    ///     spinner.stop()
    /// }
    /// ```
    ///
    /// - Returns: A ``Finalizer`` whose `finally` runs after `body`, or at once when there is no
    ///   error for `body` to handle: on success, or when `policy` skips the error.
    @inlinable
    @discardableResult
    public func `catch`(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Finalizer {
        let finalizer = Finalizer()
        let queue = HandlerQueue(on, flags)
        pipe { result in
            guard case .failure(let error) = result, policy.handles(error) else {
                finalizer.release()
                return
            }
            queue.run(error, body, resolving: finalizer) { error, body, finalizer in
                body(error)
                finalizer.release()
            }
        }
        return finalizer
    }

    /// Ends a chain whose errors need no handling, reporting any that arrives as
    /// ``LogEvent/cauterized(_:)`` through ``Configuration/logHandler``.
    ///
    /// ```swift
    /// analytics.send(event).cauterize()
    /// ```
    @inlinable
    @discardableResult
    public func cauterize() -> Finalizer {
        self.catch(on: nil) { conf.log(.cauterized($0)) }
    }
}
