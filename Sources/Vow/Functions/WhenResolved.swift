/// Waits for every thenable to resolve, fulfilled or rejected, and reports each result in order.
///
/// Unlike ``when(fulfilled:file:line:)->Promise<[U.T]>``, one rejection does not end the wait, so
/// this cannot fail.
///
/// ```swift
/// when(resolved: urls.map { download($0) }).done { results in
///     let failures = results.filter { if case .failure = $0 { true } else { false } }
///     print("\(failures.count) downloads failed")
/// }
/// ```
@inlinable
public func when<U: Thenable>(
    resolved thenables: [U], file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<[Result<U.T, any Error>]> {
    when(resolved: thenables, madeAt: RecordedSite("when(resolved:)", fileID: file, line: line))
}

/// `when(resolved:)` of an array, in a box made by the operation that `site` names.
@inlinable
func when<U: Thenable>(
    resolved thenables: [U], madeAt site: RecordedSite
) -> Guarantee<[Result<U.T, any Error>]> {
    guard !thenables.isEmpty else { return .value([]) }
    let next = EmptyBox<[Result<U.T, any Error>]>(madeAt: site)
    let gathering = Locked(Gathering<Result<U.T, any Error>>(count: thenables.count))
    // Two loops, as in `gather(_:)`, so that the handlers of a `when` nobody watches capture no
    // progress.
    if let progress = WhenProgress.ofCurrent(expecting: thenables.count) {
        next.consume(thenables) { index in
            { result in
                progress.completeOne()
                gathering.store(result, at: index, resolving: next)
            }
        }
    } else {
        next.consume(thenables) { index in
            { result in gathering.store(result, at: index, resolving: next) }
        }
    }
    return Guarantee(next)
}

/// Waits for every thenable to resolve and reports each result in order.
///
/// ```swift
/// when(resolved: saveLocal(), saveRemote()).done { results in print(results) }
/// ```
@inlinable
public func when<U: Thenable>(
    resolved thenables: U..., file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<[Result<U.T, any Error>]> {
    when(resolved: thenables, madeAt: RecordedSite("when(resolved:)", fileID: file, line: line))
}
