// `firstly` for chains that start on the main actor: the body runs at once, in the caller's
// isolation, which is the main actor's, so it may make and return values that are not
// `Sendable`.

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
public func firstly<T>(execute body: () -> MainActorGuarantee<T>) -> MainActorGuarantee<T> {
    body()
}
