/// Where a handler runs: anything that can run a closure later, somewhere.
///
/// Every operator that takes `on:` takes a dispatcher as well as a `DispatchQueue`. Vow's own
/// are `DispatchQueue` and `OperationQueue`, ``InlineDispatcher`` (`.inline`),
/// ``MainActorDispatcher`` (`.mainActor`) and ``ManualDispatcher``, which runs nothing until a
/// test says so. Conform a type of your own to run handlers on an executor Vow does not know,
/// such as a SwiftNIO event loop, without Vow depending on it:
///
/// ```swift foreign
/// import NIOCore
/// import Vow
///
/// struct EventLoopDispatcher: Dispatcher {
///     let loop: any EventLoop
///     func dispatch(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }
/// }
///
/// fetchUser(id: id).map(on: EventLoopDispatcher(loop: channel.eventLoop)) { user in
///     channel.eventLoop.assertInEventLoop()
///     return user.name
/// }
/// ```
///
/// A handler given a dispatcher is nonisolated, as one given a queue is: it may not touch the
/// state of the actor that wrote it.
public protocol Dispatcher: Sendable {
    /// Runs `work` once, now or later, on whatever thread this dispatcher stands for.
    ///
    /// Vow calls it from the thread that resolved the handler's thenable, possibly inside other
    /// handlers; a dispatcher that runs `work` inside the call, as ``InlineDispatcher`` does,
    /// runs it there.
    func dispatch(_ work: @escaping @Sendable () -> Void)
}
