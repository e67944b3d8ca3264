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
public func when<U: Thenable>(
    fulfilled thenables: [U], file: StaticString = #fileID, line: UInt = #line
) -> Promise<[U.T]> {
    gather(thenables, madeAt: RecordedSite("when(fulfilled:)", fileID: file, line: line))
}

/// Fulfils once all the `Void` thenables fulfil; rejects as soon as any rejects.
///
/// ```swift
/// when(fulfilled: files.map(delete)).done { print("all deleted") }
/// ```
@inlinable
public func when<U: Thenable>(
    fulfilled thenables: [U], file: StaticString = #fileID, line: UInt = #line
) -> Promise<Void> where U.T == Void {
    let site = RecordedSite("when(fulfilled:)", fileID: file, line: line)
    return gather(thenables, madeAt: site).map(via: PlacedHandler(on: nil) { @Sendable _ in }, madeAt: site)
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
public func when(
    fulfilled promises: Promise<Void>..., file: StaticString = #fileID, line: UInt = #line
) -> Promise<Void> {
    let site = RecordedSite("when(fulfilled:)", fileID: file, line: line)
    return gather(promises, madeAt: site).map(via: PlacedHandler(on: nil) { @Sendable _ in }, madeAt: site)
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
    fulfilled first: U, _ second: V, file: StaticString = #fileID, line: UInt = #line
) -> Promise<(U.T, V.T)> {
    let site = RecordedSite("when(fulfilled:)", fileID: file, line: line)
    let values = gather(
        [erasingValue(of: first, madeAt: site), erasingValue(of: second, madeAt: site)], madeAt: site)
    return values.map(
        via: PlacedHandler(on: nil) { @Sendable values in
            (values[0] as! U.T, values[1] as! V.T)
        },
        madeAt: site)
}

/// Fulfils with all three values once every thenable fulfils; rejects as soon as one rejects.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable>(
    fulfilled first: U, _ second: V, _ third: W, file: StaticString = #fileID, line: UInt = #line
) -> Promise<(U.T, V.T, W.T)> {
    let site = RecordedSite("when(fulfilled:)", fileID: file, line: line)
    let values = gather(
        [
            erasingValue(of: first, madeAt: site), erasingValue(of: second, madeAt: site),
            erasingValue(of: third, madeAt: site),
        ],
        madeAt: site)
    return values.map(
        via: PlacedHandler(on: nil) { @Sendable values in
            (values[0] as! U.T, values[1] as! V.T, values[2] as! W.T)
        },
        madeAt: site)
}

/// Fulfils with all four values once every thenable fulfils; rejects as soon as one rejects.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable>(
    fulfilled first: U, _ second: V, _ third: W, _ fourth: X, file: StaticString = #fileID, line: UInt = #line
) -> Promise<(U.T, V.T, W.T, X.T)> {
    let site = RecordedSite("when(fulfilled:)", fileID: file, line: line)
    let values = gather(
        [
            erasingValue(of: first, madeAt: site), erasingValue(of: second, madeAt: site),
            erasingValue(of: third, madeAt: site), erasingValue(of: fourth, madeAt: site),
        ],
        madeAt: site)
    return values.map(
        via: PlacedHandler(on: nil) { @Sendable values in
            (values[0] as! U.T, values[1] as! V.T, values[2] as! W.T, values[3] as! X.T)
        },
        madeAt: site)
}

/// Fulfils with all five values once every thenable fulfils; rejects as soon as one rejects.
@inlinable
public func when<U: Thenable, V: Thenable, W: Thenable, X: Thenable, Y: Thenable>(
    fulfilled first: U, _ second: V, _ third: W, _ fourth: X, _ fifth: Y, file: StaticString = #fileID,
    line: UInt = #line
) -> Promise<(U.T, V.T, W.T, X.T, Y.T)> {
    let site = RecordedSite("when(fulfilled:)", fileID: file, line: line)
    let values = gather(
        [
            erasingValue(of: first, madeAt: site), erasingValue(of: second, madeAt: site),
            erasingValue(of: third, madeAt: site), erasingValue(of: fourth, madeAt: site),
            erasingValue(of: fifth, madeAt: site),
        ],
        madeAt: site)
    return values.map(
        via: PlacedHandler(on: nil) { @Sendable values in
            (values[0] as! U.T, values[1] as! V.T, values[2] as! W.T, values[3] as! X.T, values[4] as! Y.T)
        },
        madeAt: site)
}

/// The mechanism behind every `when(fulfilled:)`: values land in their slot as they arrive,
/// and the first rejection settles the result, in a box made by the operation that `site` names.
@inlinable
func gather<U: Thenable>(_ thenables: [U], madeAt site: RecordedSite) -> Promise<[U.T]> {
    guard !thenables.isEmpty else { return .value([]) }
    let next = EmptyBox<Result<[U.T], any Error>>(madeAt: site)
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
