/// Fulfils with every value once all `thenables` fulfil, in their order, as `any Sendable`;
/// rejects as soon as any rejects.
///
/// For an array that mixes thenables of different types, or promises and guarantees, whose
/// elements Swift can only type as `any Thenable`. Cast each value back to its type. An array
/// of one thenable type, an array literal included, picks
/// ``when(fulfilled:file:line:)->Promise<[U.T]>`` instead and keeps the values typed: this
/// overload is disfavoured, because such a literal can be typed `[any Thenable]` too.
///
/// ```swift
/// when(fulfilled: [fetchUser(id: 1), cachedAvatar(), after(seconds: 1)]).done { values in
///     let user = values[0] as! User
///     let avatar = values[1] as! Data
///     show(user, avatar)
/// }
/// ```
@_disfavoredOverload
@inlinable
public func when(
    fulfilled thenables: [any Thenable], file: StaticString = #fileID, line: UInt = #line
) -> Promise<[any Sendable]> {
    let site = RecordedSite("when(fulfilled:)", fileID: file, line: line)
    return gather(thenables.map { erasingValue(of: $0, madeAt: site) }, madeAt: site)
}

/// `thenable` with its value typed `any Sendable`, so that thenables of different types can
/// be gathered together, in a box made by the operation that `site` names.
@inlinable
func erasingValue<U: Thenable>(of thenable: U, madeAt site: RecordedSite) -> Promise<any Sendable> {
    thenable.map(via: PlacedHandler(on: nil) { @Sendable value -> any Sendable in value }, madeAt: site)
}
