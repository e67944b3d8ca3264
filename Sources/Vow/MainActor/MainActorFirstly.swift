// `firstly` for chains that start on the main actor: the body runs at once, in the caller's
// isolation, which is the main actor's, so it may make and return values that are not
// `Sendable`.
//
// Both are disfavoured: a body that returns a main-actor promise matches no other `firstly`, so
// valid code resolves as before, but a body that returns a plain value matches none, and the
// compiler, choosing which failure to report, then reports `Guarantee`'s ("cannot convert value
// of type 'User' to closure result type 'Guarantee<User>'", on the value's line) instead of
// failing to produce a diagnostic at the chain's end. `Tests/Diagnostics` checks it.

/// Starts a chain of main-actor promises, so that every step reads alike; a throw from `body`
/// becomes a rejected promise.
///
/// ```swift
/// firstly {
///     fetchNote()
/// }.done { note in
///     textView.note = note
/// }.catch { error in
///     report(error)
/// }
/// ```
@MainActor
@inlinable
@_disfavoredOverload
public func firstly<T>(execute body: () throws -> MainActorPromise<T>) -> MainActorPromise<T> {
    do {
        return try body()
    } catch {
        return MainActorPromise(error: error)
    }
}

/// Starts a chain from a main-actor guarantee, keeping the result a guarantee.
///
/// ```swift
/// firstly {
///     confirm(deleting: Note(text: "draft"))
/// }.done { deleted in
///     print(deleted)
/// }
/// ```
@MainActor
@inlinable
@_disfavoredOverload
public func firstly<T>(execute body: () -> MainActorGuarantee<T>) -> MainActorGuarantee<T> {
    body()
}
