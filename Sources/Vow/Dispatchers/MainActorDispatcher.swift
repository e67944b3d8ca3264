import Dispatch

/// Runs a handler on the main actor, by way of the main queue, its executor.
///
/// A handler written in `@MainActor` code runs there without being told; this dispatcher is for
/// code that chooses a dispatcher at run time, and its handlers are nonisolated all the same.
///
/// ```swift
/// fetchUser(id: id).done(on: .mainActor) { user in
///     print("on the main thread: \(user.name)")
/// }
/// ```
public struct MainActorDispatcher: Dispatcher {
    /// The main actor's dispatcher; `.mainActor` where a ``Dispatcher`` is expected.
    public init() {}

    /// Runs `work` asynchronously on the main queue.
    public func dispatch(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async(execute: work)
    }
}

extension Dispatcher where Self == MainActorDispatcher {
    /// Runs handlers on the main actor's queue.
    ///
    /// ```swift
    /// Promise.value(42).done(on: .mainActor) { print($0) }
    /// ```
    public static var mainActor: MainActorDispatcher { MainActorDispatcher() }
}
