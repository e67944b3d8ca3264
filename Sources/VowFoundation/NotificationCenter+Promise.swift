public import Foundation
public import Vow

extension NotificationCenter {
    /// A promise of what `extract` takes from the first notification named `name`, from
    /// `object` if one is given; the observer is removed once it has fired.
    ///
    /// A `Notification` is not `Sendable`, since its `userInfo` may hold anything, so the
    /// promise carries what `extract` takes from it, on the thread that posted it, rather than
    /// the notification itself.
    ///
    /// ```swift
    /// NotificationCenter.default.observe(once: .downloadFinished) { notification in
    ///     notification.userInfo?["path"] as? String ?? ""
    /// }.done { path in
    ///     print("downloaded to", path)
    /// }
    /// ```
    ///
    /// Cancelling the promise removes the observer at once. A throw from `extract` rejects the
    /// promise; the observer is removed all the same.
    ///
    /// - Parameters:
    ///   - name: The name of the notification to wait for.
    ///   - object: Only notifications from this object count; any sender's do when `nil`.
    ///   - file: Where the call is written, recorded in debug builds for the chain's description
    ///     (see `CreationSite`). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    ///   - extract: Takes what the promise carries from the notification, on the posting thread.
    public func observe<T: Sendable>(
        once name: Notification.Name,
        object: Any? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        extracting extract: @escaping @Sendable (Notification) throws -> T
    ) -> Promise<T> {
        let (promise, resolver) = Promise<T>.pending(file: file, line: line)
        let registration = Registration()
        let token = addObserver(forName: name, object: object, queue: nil) { notification in
            // Posts on two threads at once can fire the block twice: only the first settles.
            guard let token = registration.finish() else { return }
            if let token { self.removeObserver(token.observer) }
            resolver.resolve(Result { try extract(notification) })
        }
        if registration.keep(ObserverToken(observer: token)) {
            resolver.onCancel {
                if case let token?? = registration.finish() { self.removeObserver(token.observer) }
            }
        } else {
            // Fired before the token was kept, which only a post on another thread can do.
            removeObserver(token)
        }
        return promise
    }

    /// A promise that fulfils when a notification named `name` is first posted, from `object`
    /// if one is given; the observer is removed once it has fired, or when the promise is
    /// cancelled.
    ///
    /// ```swift foreign
    /// NotificationCenter.default.observe(once: UIApplication.didBecomeActiveNotification).done {
    ///     refresh()
    /// }
    /// ```
    public func observe(
        once name: Notification.Name, object: Any? = nil, file: StaticString = #fileID, line: UInt = #line
    ) -> Promise<Void> {
        observe(once: name, object: object, file: file, line: line) { _ in () }
    }
}

/// An observer token, which is only ever handed back to `removeObserver(_:)`.
// @unchecked: the token is an opaque object that Vow never reads or changes; NotificationCenter
// takes it back from any thread.
private struct ObserverToken: @unchecked Sendable {
    let observer: any NSObjectProtocol
}

/// The token of one observation, kept once `addObserver` returns it, and the one-way switch
/// that lets exactly one of the notification and the cancellation finish the observation.
private final class Registration: Sendable {
    private enum State {
        case waiting
        case kept(ObserverToken)
        case finished
    }

    private let lock = NSLock()
    // nonisolated(unsafe): only read or written while holding `lock`.
    nonisolated(unsafe) private var state = State.waiting

    /// Keeps `token`; returns `false` if the observation already finished, and so will never
    /// remove it.
    func keep(_ token: ObserverToken) -> Bool {
        lock.withLock {
            guard case .waiting = state else { return false }
            state = .kept(token)
            return true
        }
    }

    /// Finishes the observation: for the first caller, the token to remove, or `nil` inside
    /// if it is not kept yet (``keep(_:)`` then removes it); `nil` for every later caller.
    func finish() -> ObserverToken?? {
        lock.withLock {
            defer { state = .finished }
            switch state {
            case .waiting: return .some(nil)
            case .kept(let token): return .some(token)
            case .finished: return nil
            }
        }
    }
}
