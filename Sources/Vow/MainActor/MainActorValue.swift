/// A value of a ``MainActorPromise`` or a ``MainActorGuarantee`` as Vow's core carries it.
///
/// The core stores every result in a box that may be read from any thread, so it takes only
/// `Sendable` values. A main-actor promise's value need not be `Sendable`, and crosses the core
/// in this wrapper. Why no other isolation can reach it:
///
/// - It is wrapped only by main-actor code: the initializers of the main-actor types, their
///   resolvers and their handlers are all `@MainActor`, and a value that comes from a shared
///   promise is `Sendable` already.
/// - It is unwrapped only by main-actor code: every handler of a main-actor promise runs on the
///   main queue, and `wait()`, `async()` and `result` are `@MainActor`. The one exception is the
///   way out, `Promise(_:)` and `Guarantee(_:)`, which a shared promise's own constraint limits
///   to `Sendable` values.
/// - The core itself only moves the wrapper: it stores it, copies it into the handlers it
///   dispatches, and releases it, never calling into the value. A copy retains what the value
///   refers to, which is atomic; the last release may run the value's `deinit` on another
///   thread, as when a value is sent.
/// - The promise that holds it is not `Sendable`, so it cannot be handed to other isolation
///   either; see ``MainActorPromise``.
@usableFromInline
// @unchecked: only main-actor code wraps and unwraps the value, as the list above says.
struct MainActorValue<Value>: @unchecked Sendable {
    @usableFromInline
    let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
