/// Resolves with every value once all the guarantees resolve, in their order.
///
/// ```swift
/// when(guarantees: names.map(loadThumbnail)).done { thumbnails in
///     gallery.show(thumbnails)
/// }
/// ```
@inlinable
public func when<T>(
    guarantees: [Guarantee<T>], file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<[T]> {
    when(guarantees: guarantees, madeAt: RecordedSite("when(guarantees:)", fileID: file, line: line))
}

/// ``when(guarantees:file:line:)-(_,_,_)``, its boxes made by the operation that `site` names.
@inlinable
func when<T>(guarantees: [Guarantee<T>], madeAt site: RecordedSite) -> Guarantee<[T]> {
    when(resolved: guarantees, madeAt: site).map(
        via: PlacedHandler(on: nil) { @Sendable results in
            // A guarantee's result is always a success, so `get()` cannot throw here.
            results.map { try! $0.get() }
        },
        madeAt: site)
}

/// Resolves once all the `Void` guarantees resolve.
///
/// ```swift
/// when(guarantees: animations).done { cleanUp() }
/// ```
@inlinable
public func when(
    guarantees: [Guarantee<Void>], file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<Void> {
    let site = RecordedSite("when(guarantees:)", fileID: file, line: line)
    return when(resolved: guarantees, madeAt: site).map(
        via: PlacedHandler(on: nil) { @Sendable _ in }, madeAt: site)
}

/// Resolves once all the `Void` guarantees resolve.
///
/// ```swift
/// when(guarantees: fadeOut(), slideAway()).done { removeView() }
/// ```
@inlinable
public func when(
    guarantees: Guarantee<Void>..., file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<Void> {
    when(guarantees: guarantees, file: file, line: line)
}

/// Resolves with every value once all the guarantees resolve, in argument order.
///
/// The unlabelled spelling of `when(guarantees:)`, as in PromiseKit.
///
/// ```swift
/// when(loadThumbnail("a"), loadThumbnail("b")).done { thumbnails in
///     gallery.show(thumbnails)
/// }
/// ```
@inlinable
public func when<T>(
    _ guarantees: Guarantee<T>..., file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<[T]> {
    when(guarantees: guarantees, file: file, line: line)
}

/// Resolves once all the `Void` guarantees resolve.
///
/// The unlabelled spelling of the variadic `Void` form of `when(guarantees:)`, as in PromiseKit.
///
/// ```swift
/// when(fadeOut(), slideAway()).done { removeView() }
/// ```
@inlinable
public func when(
    _ guarantees: Guarantee<Void>..., file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<Void> {
    when(guarantees: guarantees, file: file, line: line)
}

/// Resolves with both values once both guarantees resolve.
///
/// Given only `Void` guarantees, Swift picks the variadic `Void` form of `when(guarantees:)`
/// instead, which resolves with `()`: this form and those for three, four and five guarantees
/// are disfavoured to keep that choice.
///
/// ```swift
/// when(guarantees: currentLocale(), currentTimeZone()).done { locale, timeZone in
///     formatter.configure(locale, timeZone)
/// }
/// ```
@inlinable @_disfavoredOverload
public func when<U, V>(
    guarantees first: Guarantee<U>, _ second: Guarantee<V>, file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<(U, V)> {
    let site = RecordedSite("when(guarantees:)", fileID: file, line: line)
    let values = when(
        guarantees: [erasingValue(of: first, madeAt: site), erasingValue(of: second, madeAt: site)],
        file: file, line: line)
    return values.map(
        via: PlacedHandler(on: nil) { @Sendable values in
            (values[0] as! U, values[1] as! V)
        },
        madeAt: site)
}

/// Resolves with all three values once every guarantee resolves.
///
/// ```swift
/// when(guarantees: width(), height(), depth()).done { w, h, d in print(w * h * d) }
/// ```
@inlinable @_disfavoredOverload
public func when<U, V, W>(
    guarantees first: Guarantee<U>, _ second: Guarantee<V>, _ third: Guarantee<W>,
    file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<(U, V, W)> {
    let site = RecordedSite("when(guarantees:)", fileID: file, line: line)
    let values = when(
        guarantees: [
            erasingValue(of: first, madeAt: site), erasingValue(of: second, madeAt: site),
            erasingValue(of: third, madeAt: site),
        ],
        file: file, line: line)
    return values.map(
        via: PlacedHandler(on: nil) { @Sendable values in
            (values[0] as! U, values[1] as! V, values[2] as! W)
        },
        madeAt: site)
}

/// Resolves with all four values once every guarantee resolves.
///
/// ```swift
/// when(guarantees: red(), green(), blue(), alpha()).done { r, g, b, a in paint(r, g, b, a) }
/// ```
@inlinable @_disfavoredOverload
public func when<U, V, W, X>(
    guarantees first: Guarantee<U>, _ second: Guarantee<V>, _ third: Guarantee<W>, _ fourth: Guarantee<X>,
    file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<(U, V, W, X)> {
    let site = RecordedSite("when(guarantees:)", fileID: file, line: line)
    let values = when(
        guarantees: [
            erasingValue(of: first, madeAt: site), erasingValue(of: second, madeAt: site),
            erasingValue(of: third, madeAt: site), erasingValue(of: fourth, madeAt: site),
        ],
        file: file, line: line)
    return values.map(
        via: PlacedHandler(on: nil) { @Sendable values in
            (values[0] as! U, values[1] as! V, values[2] as! W, values[3] as! X)
        },
        madeAt: site)
}

/// Resolves with all five values once every guarantee resolves.
///
/// ```swift
/// when(guarantees: a(), b(), c(), d(), e()).done { a, b, c, d, e in print(a, b, c, d, e) }
/// ```
@inlinable @_disfavoredOverload
public func when<U, V, W, X, Y>(
    guarantees first: Guarantee<U>, _ second: Guarantee<V>, _ third: Guarantee<W>, _ fourth: Guarantee<X>,
    _ fifth: Guarantee<Y>, file: StaticString = #fileID, line: UInt = #line
) -> Guarantee<(U, V, W, X, Y)> {
    let site = RecordedSite("when(guarantees:)", fileID: file, line: line)
    let values = when(
        guarantees: [
            erasingValue(of: first, madeAt: site), erasingValue(of: second, madeAt: site),
            erasingValue(of: third, madeAt: site), erasingValue(of: fourth, madeAt: site),
            erasingValue(of: fifth, madeAt: site),
        ],
        file: file, line: line)
    return values.map(
        via: PlacedHandler(on: nil) { @Sendable values in
            (values[0] as! U, values[1] as! V, values[2] as! W, values[3] as! X, values[4] as! Y)
        },
        madeAt: site)
}

/// `guarantee` with its value typed `any Sendable`, so that guarantees of different types can
/// be gathered without holding on to them: a held guarantee could never be cancelled. In a box
/// made by the operation that `site` names.
@inlinable
func erasingValue<T>(of guarantee: Guarantee<T>, madeAt site: RecordedSite) -> Guarantee<any Sendable> {
    guarantee.map(via: PlacedHandler(on: nil) { @Sendable value -> any Sendable in value }, madeAt: site)
}
