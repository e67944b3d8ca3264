/// Fulfils with every value once all `thenables` fulfil, in their order; rejects as soon as
/// any rejects.
///
/// An empty array fulfils at once with `[]`.
///
/// ```swift
/// when(fulfilled: ids.map(fetchUser)).done { users in
///     show(users)
/// }
/// ```
@inlinable
public func when<U: Thenable>(fulfilled thenables: [U]) -> Promise<[U.T]> {
    gather(thenables)
}

/// Fulfils once all the `Void` thenables fulfil; rejects as soon as any rejects.
///
/// ```swift
/// when(fulfilled: files.map(delete)).done { print("all deleted") }
/// ```
@inlinable
public func when<U: Thenable>(fulfilled thenables: [U]) -> Promise<Void> where U.T == Void {
    gather(thenables).asVoid()
}

/// Fulfils once all the `Void` promises fulfil; rejects as soon as any rejects.
///
/// With two to five arguments and nothing else to go on, Swift prefers the tuple form, which
/// fulfils with `((), ())`; a handler without parameters, or a `Promise<Void>` annotation,
/// selects this one:
///
/// ```swift
/// when(fulfilled: saveSettings(), saveHistory()).done { close() }
/// ```
@inlinable
public func when(fulfilled promises: Promise<Void>...) -> Promise<Void> {
    gather(promises).asVoid()
}

/// Fulfils with both values once both thenables fulfil; rejects as soon as either rejects.
///
/// ```swift
/// when(fulfilled: fetchUser(id: 1), fetchSettings()).done { user, settings in
///     configure(user, settings)
/// }
/// ```
@inlinable
public func when<U: Thenable, V: Thenable>(
    fulfilled first: U, _ second: V
) -> Promise<(U.T, V.T)> {
    gather([erasingValue(of: first), erasingValue(of: second)]).map(on: nil) { values in
        (values[0] as! U.T, values[1] as! V.T)
    }
}

/// Fulfils with all three values once every thenable fulfils; rejects as soon as one rejects.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable>(
    fulfilled first: U, _ second: V, _ third: W
) -> Promise<(U.T, V.T, W.T)> {
    gather([erasingValue(of: first), erasingValue(of: second), erasingValue(of: third)]).map(on: nil) {
        values in
        (values[0] as! U.T, values[1] as! V.T, values[2] as! W.T)
    }
}

/// Fulfils with all four values once every thenable fulfils; rejects as soon as one rejects.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable>(
    fulfilled first: U, _ second: V, _ third: W, _ fourth: X
) -> Promise<(U.T, V.T, W.T, X.T)> {
    gather([
        erasingValue(of: first), erasingValue(of: second), erasingValue(of: third), erasingValue(of: fourth),
    ]).map(on: nil) { values in
        (values[0] as! U.T, values[1] as! V.T, values[2] as! W.T, values[3] as! X.T)
    }
}

/// Fulfils with all five values once every thenable fulfils; rejects as soon as one rejects.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable, Y: Thenable>(
    fulfilled first: U, _ second: V, _ third: W, _ fourth: X, _ fifth: Y
) -> Promise<(U.T, V.T, W.T, X.T, Y.T)> {
    gather([
        erasingValue(of: first), erasingValue(of: second), erasingValue(of: third), erasingValue(of: fourth),
        erasingValue(of: fifth),
    ]).map(on: nil) { values in
        (values[0] as! U.T, values[1] as! V.T, values[2] as! W.T, values[3] as! X.T, values[4] as! Y.T)
    }
}

/// The mechanism behind every `when(fulfilled:)`: values land in their slot as they arrive,
/// and the first rejection settles the result.
@inlinable
func gather<U: Thenable>(_ thenables: [U]) -> Promise<[U.T]> {
    guard !thenables.isEmpty else { return .value([]) }
    let next = EmptyBox<Result<[U.T], any Error>>()
    let gathering = Locked(Gathering<U.T>(count: thenables.count))
    // Two loops, so that the handlers of a `when` nobody watches capture no progress: the
    // smaller closure is measurably cheaper over ten thousand inputs.
    if let progress = WhenProgress.ofCurrent(expecting: thenables.count) {
        next.consume(thenables) { index in
            { result in
                progress.settledOne(result)
                gathering.store(result, at: index, settling: next)
            }
        }
    } else {
        next.consume(thenables) { index in
            { result in gathering.store(result, at: index, settling: next) }
        }
    }
    return Promise(next)
}
