/// Which results of a thenable reach an operator's handler; the others settle the next promise
/// as they are, at once and without a hop to the handler's queue.
@usableFromInline
enum Route: Sendable {
    /// Every result, value or error.
    case results
    /// Errors that the policy hands to a recovery handler.
    case errors(CatchPolicy)

    @inlinable
    func admits<T>(_ result: Result<T, any Error>) -> Bool {
        switch (self, result) {
        case (.results, _): true
        case (.errors(let policy), .failure(let error)): policy.handles(error)
        case (.errors, .success): false
        }
    }
}
