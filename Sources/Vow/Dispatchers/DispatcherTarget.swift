public import Dispatch

/// A dispatcher of the user's, boxed in a class of its own so that a ``HandlerQueue`` stays
/// one word.
@usableFromInline
final class DispatcherTarget: Sendable {
    @usableFromInline
    let dispatcher: any Dispatcher

    @inlinable
    init(_ dispatcher: any Dispatcher) {
        self.dispatcher = dispatcher
    }
}

extension HandlerQueue {
    /// The queue of a handler given `dispatcher`: Vow's own dispatchers map to the queues they
    /// stand for, so that they cost what passing the queue would; any other is called.
    @inlinable
    init<D: Dispatcher>(_ dispatcher: D) {
        if let queue = dispatcher as? DispatchQueue {
            self.init(queue, nil)
        } else if dispatcher is InlineDispatcher {
            self = .inline
        } else if dispatcher is MainActorDispatcher {
            self = .mainActor
        } else {
            self = .dispatched(DispatcherTarget(dispatcher))
        }
    }
}
