// A handler written without `on:` is an `@isolated(any)` function: the compiler gives it the
// isolation of the code that wrote it (`@_inheritActorContext(always)`: in an actor's method
// even a closure that never mentions `self`, which plain `@_inheritActorContext` would leave
// nonisolated since SE-0461), so a handler written in a
// `@MainActor` class may touch the class's state, and one written in an actor's method may
// touch the actor's. The operator reads that isolation once, when the handler is attached, and
// picks where the handler runs from it; the handler is then called synchronously, there.
//
// Swift has no sanctioned way to call an `@isolated(any)` function synchronously, even where its
// isolation holds: SE-0431 leaves that to a future "isolated captures" feature, and a call
// always needs `await`, which would cost every handler a task. So the initializers of
// `PlacedHandler` below give the handler the plain function type it had before `@isolated(any)`
// was added, and in the same statement choose the queue it runs on from its isolation. Nothing
// else makes that cast (Owned.swift's initializers for handlers bound to an actor are the same
// kind, and Scripts/check-handler-casts holds CI to it), and whatever calls the plain function
// gets it from a `PlacedHandler`, with that queue. Why that is sound:
//
// - The representation is the same. An `@isolated(any)` function value is the ordinary two-word
//   thick function (entry point, context); the isolation is stored inside the context
//   (`partial_apply [isolated_any]` captures it first) and read by `.isolation`. The entry
//   point takes the same arguments in the same convention: the compiler's own `await f(x)`
//   hops to `f.isolation` and then calls the very same value as a plain function. The layout
//   is ABI on Apple platforms (`Task.init` takes such values across the ABI boundary), and
//   `unsafeBitCast` traps if the two sizes ever differ.
// - The isolation is kept. `HandlerQueue.init(isolation:else:)` sends a nonisolated handler
//   where the operator's default queue says, a main-actor handler to the main queue (the main
//   actor's executor), and any other actor's handler into that actor's mailbox, whose task
//   runs it inside `ActorMailboxes.drain(startingWith:on:)`, a function isolated to the actor
//   (ActorMailboxes.swift). The tests check each with `assertIsolated()`. (One hole is the
//   compiler's, not this file's: a reference to an actor's method, `done(addOne)`, arrives with
//   no isolation at all, swiftlang/swift#86801; SwiftConcurrency.md tells users to write a
//   closure there.)

/// Where a handler runs, from the isolation it was written in.
extension HandlerQueue {
    /// The queue of a handler written in `isolation`: the main queue for the main actor, the
    /// actor itself for any other actor, and the operator's default queue, `fallback`, for a
    /// nonisolated handler.
    @inlinable
    init(isolation: (any Actor)?, else fallback: DefaultQueue) {
        switch isolation {
        case nil:
            self.init(fallback)
        case let actor? where actor === MainActor.shared:
            self = .mainActor
        case let actor?:
            self = .actor(IsolatedTarget(actor))
        }
    }
}

extension HandlerQueue {
    /// The queue of a main-actor handler: the main queue, the main actor's executor.
    @inlinable
    static var mainActor: HandlerQueue {
        .main
    }
}

/// The actor a handler written in an actor's method runs on; a class of its own so that a
/// ``HandlerQueue`` stays one word.
@usableFromInline
final class IsolatedTarget: Sendable {
    @usableFromInline
    let actor: any Actor

    @inlinable
    init(_ actor: any Actor) {
        self.actor = actor
    }

    /// Runs `job` on the actor, after the handlers sent to it before and after the current
    /// code returns; see ``ActorMailboxes``.
    @inlinable
    func run(_ job: MailboxJob) {
        ActorMailboxes.send(job, to: actor)
    }
}

extension PlacedHandler {
    // Each initializer takes a handler written in some isolation and gives it the queue of that
    // isolation, or the operator's default queue if it has none, with the handler as a plain
    // function; see the comment at the top of this file for why the cast is sound.

    /// A handler of one argument, placed by its isolation.
    @inlinable
    init<A, R>(_ handler: @escaping @isolated(any) @Sendable (A) throws -> R, else fallback: DefaultQueue)
    where Body == @Sendable (A) throws -> R {
        self.init(
            HandlerQueue(isolation: handler.isolation, else: fallback),
            unsafeBitCast(IsolatedHandler(handler), to: Body.self))
    }

    /// A handler of one argument that cannot throw, placed by its isolation.
    @inlinable
    init<A, R>(_ handler: @escaping @isolated(any) @Sendable (A) -> R, else fallback: DefaultQueue)
    where Body == @Sendable (A) -> R {
        self.init(
            HandlerQueue(isolation: handler.isolation, else: fallback),
            unsafeBitCast(IsolatedNonThrowingHandler(handler), to: Body.self))
    }

    /// A handler of two arguments, placed by its isolation.
    @inlinable
    init<A, B, R>(
        _ handler: @escaping @isolated(any) @Sendable (A, B) throws -> R, else fallback: DefaultQueue
    )
    where Body == @Sendable (A, B) throws -> R {
        self.init(
            HandlerQueue(isolation: handler.isolation, else: fallback),
            unsafeBitCast(IsolatedThrowingPairHandler(handler), to: Body.self))
    }

    /// A handler of two arguments that cannot throw, placed by its isolation.
    @inlinable
    init<A, B, R>(_ handler: @escaping @isolated(any) @Sendable (A, B) -> R, else fallback: DefaultQueue)
    where Body == @Sendable (A, B) -> R {
        self.init(
            HandlerQueue(isolation: handler.isolation, else: fallback),
            unsafeBitCast(IsolatedPairHandler(handler), to: Body.self))
    }

    /// A handler of no arguments, placed by its isolation.
    @inlinable
    init<R>(_ handler: @escaping @isolated(any) @Sendable () throws -> R, else fallback: DefaultQueue)
    where Body == @Sendable () throws -> R {
        self.init(
            HandlerQueue(isolation: handler.isolation, else: fallback),
            unsafeBitCast(IsolatedThrowingThunk(handler), to: Body.self))
    }

    /// A handler of no arguments that cannot throw, placed by its isolation.
    @inlinable
    init<R>(_ handler: @escaping @isolated(any) @Sendable () -> R, else fallback: DefaultQueue)
    where Body == @Sendable () -> R {
        self.init(
            HandlerQueue(isolation: handler.isolation, else: fallback),
            unsafeBitCast(IsolatedThunk(handler), to: Body.self))
    }
}

extension PlacedHandler {
    // The handlers of main-actor promises, whose type says they are main-actor isolated; they
    // run on the main queue, the main actor's executor, as an `@isolated(any)` handler written
    // on the main actor does. A global actor's function type carries its isolation in the type
    // alone, so the value has the layout of a plain function.

    /// A main-actor handler of one argument, placed on the main queue.
    @inlinable
    init<A, R>(mainActor handler: @escaping @MainActor (A) throws -> R)
    where Body == @Sendable (A) throws -> R {
        self.init(HandlerQueue.mainActor, unsafeBitCast(MainActorHandler(handler), to: Body.self))
    }

    /// A main-actor handler of one argument that cannot throw, placed on the main queue.
    @inlinable
    init<A, R>(mainActor handler: @escaping @MainActor (A) -> R) where Body == @Sendable (A) -> R {
        self.init(HandlerQueue.mainActor, unsafeBitCast(MainActorNonThrowingHandler(handler), to: Body.self))
    }

    /// A main-actor handler of no arguments that cannot throw, placed on the main queue.
    @inlinable
    init<R>(mainActor handler: @escaping @MainActor () -> R) where Body == @Sendable () -> R {
        self.init(HandlerQueue.mainActor, unsafeBitCast(MainActorThunk(handler), to: Body.self))
    }
}

// Each handler is cast inside a struct of one field, not as it is: a cast of the function itself
// would make an `@isolated(any)` function type a generic argument, whose metadata needs the
// runtime of Swift 6 (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2), and Vow supports
// systems five years older. A struct's layout is its field's, two words, whatever the field's
// isolation, and the struct's metadata never asks for the function type's: the compiler knows
// a function's layout without it. Specialized and inlined, the cast costs nothing.

/// An `@isolated(any)` handler of one argument, for a ``PlacedHandler``.
@usableFromInline
struct IsolatedHandler<A, R> {
    @usableFromInline
    let handler: @isolated(any) @Sendable (A) throws -> R

    @inlinable
    init(_ handler: @escaping @isolated(any) @Sendable (A) throws -> R) {
        self.handler = handler
    }
}

/// An `@isolated(any)` handler of one argument that cannot throw, for a ``PlacedHandler``.
@usableFromInline
struct IsolatedNonThrowingHandler<A, R> {
    @usableFromInline
    let handler: @isolated(any) @Sendable (A) -> R

    @inlinable
    init(_ handler: @escaping @isolated(any) @Sendable (A) -> R) {
        self.handler = handler
    }
}

/// An `@isolated(any)` handler of two arguments that cannot throw, for a ``PlacedHandler``.
@usableFromInline
struct IsolatedPairHandler<A, B, R> {
    @usableFromInline
    let handler: @isolated(any) @Sendable (A, B) -> R

    @inlinable
    init(_ handler: @escaping @isolated(any) @Sendable (A, B) -> R) {
        self.handler = handler
    }
}

/// An `@isolated(any)` handler of two arguments, for a ``PlacedHandler``.
@usableFromInline
struct IsolatedThrowingPairHandler<A, B, R> {
    @usableFromInline
    let handler: @isolated(any) @Sendable (A, B) throws -> R

    @inlinable
    init(_ handler: @escaping @isolated(any) @Sendable (A, B) throws -> R) {
        self.handler = handler
    }
}

/// An `@isolated(any)` handler of no arguments that cannot throw, for a ``PlacedHandler``.
@usableFromInline
struct IsolatedThunk<R> {
    @usableFromInline
    let handler: @isolated(any) @Sendable () -> R

    @inlinable
    init(_ handler: @escaping @isolated(any) @Sendable () -> R) {
        self.handler = handler
    }
}

/// An `@isolated(any)` handler of no arguments, for a ``PlacedHandler``.
@usableFromInline
struct IsolatedThrowingThunk<R> {
    @usableFromInline
    let handler: @isolated(any) @Sendable () throws -> R

    @inlinable
    init(_ handler: @escaping @isolated(any) @Sendable () throws -> R) {
        self.handler = handler
    }
}

/// A main-actor handler of one argument, for a ``PlacedHandler``.
@usableFromInline
struct MainActorHandler<A, R> {
    @usableFromInline
    let handler: @MainActor (A) throws -> R

    @inlinable
    init(_ handler: @escaping @MainActor (A) throws -> R) {
        self.handler = handler
    }
}

/// A main-actor handler of one argument that cannot throw, for a ``PlacedHandler``.
@usableFromInline
struct MainActorNonThrowingHandler<A, R> {
    @usableFromInline
    let handler: @MainActor (A) -> R

    @inlinable
    init(_ handler: @escaping @MainActor (A) -> R) {
        self.handler = handler
    }
}

/// A main-actor handler of no arguments, for a ``PlacedHandler``.
@usableFromInline
struct MainActorThunk<R> {
    @usableFromInline
    let handler: @MainActor () -> R

    @inlinable
    init(_ handler: @escaping @MainActor () -> R) {
        self.handler = handler
    }
}
