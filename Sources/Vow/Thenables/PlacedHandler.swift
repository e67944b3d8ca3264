public import Dispatch

/// A handler as a plain function, together with where it must run.
///
/// Every operator takes its handler in one of three forms: written in some isolation
/// (`@isolated(any)`), given a queue (`on:`), or given a dispatcher. All three become one
/// `PlacedHandler`, and everything below the public overloads takes that, never a body and a
/// queue apart. The plain-function view of an isolated handler exists only here, made by the
/// initializers in HandlerIsolation.swift and Owned.swift, which choose the queue from the very
/// handler they cast: an overload cannot forget the queue and run the body where its isolation
/// does not hold.
///
/// `map(_:)` wraps the body in an operator's own logic, say the closure that maps each element
/// of a sequence, and keeps the queue, so that logic is written once for all three forms.
@usableFromInline
struct PlacedHandler<Body: Sendable>: Sendable {
    @usableFromInline
    let queue: HandlerQueue
    @usableFromInline
    let body: Body

    /// `body` on `queue`. A plain body is nonisolated, so it may run anywhere; only the
    /// initializers that cast an isolated handler must pick the queue from its isolation.
    @inlinable
    init(_ queue: HandlerQueue, _ body: Body) {
        self.queue = queue
        self.body = body
    }

    /// `body` on `queue` with `flags`, or inline when `queue` is `nil`: an `on:` queue overload.
    @inlinable
    init(on queue: DispatchQueue?, flags: DispatchWorkItemFlags? = nil, _ body: Body) {
        self.init(HandlerQueue(queue, flags), body)
    }

    /// `body` through `dispatcher`: an `on:` dispatcher overload.
    @inlinable
    init(on dispatcher: some Dispatcher, _ body: Body) {
        self.init(HandlerQueue(dispatcher), body)
    }

    /// The same place with the body `adapt` makes from this one.
    @inlinable
    func map<Adapted>(_ adapt: (Body) -> Adapted) -> PlacedHandler<Adapted> {
        PlacedHandler<Adapted>(queue, adapt(body))
    }
}
