/// Resolves with every value once all the guarantees resolve, in their order.
///
/// ```swift
/// when(guarantees: names.map(loadThumbnail)).done { thumbnails in
///     gallery.show(thumbnails)
/// }
/// ```
@inlinable
public func when<T>(guarantees: [Guarantee<T>]) -> Guarantee<[T]> {
    when(resolved: guarantees).map(on: nil) { results in
        // A guarantee's result is always a success, so `get()` cannot throw here.
        results.map { try! $0.get() }
    }
}

/// Resolves once all the `Void` guarantees resolve.
///
/// ```swift
/// when(guarantees: animations).done { cleanUp() }
/// ```
@inlinable
public func when(guarantees: [Guarantee<Void>]) -> Guarantee<Void> {
    when(resolved: guarantees).asVoid()
}

/// Resolves once all the `Void` guarantees resolve.
///
/// ```swift
/// when(guarantees: fadeOut(), slideAway()).done { removeView() }
/// ```
@inlinable
public func when(guarantees: Guarantee<Void>...) -> Guarantee<Void> {
    when(guarantees: guarantees)
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
public func when<T>(_ guarantees: Guarantee<T>...) -> Guarantee<[T]> {
    when(guarantees: guarantees)
}

/// Resolves once all the `Void` guarantees resolve.
///
/// The unlabelled spelling of the variadic `Void` form of `when(guarantees:)`, as in PromiseKit.
///
/// ```swift
/// when(fadeOut(), slideAway()).done { removeView() }
/// ```
@inlinable
public func when(_ guarantees: Guarantee<Void>...) -> Guarantee<Void> {
    when(guarantees: guarantees)
}

/// Resolves with both values once both guarantees resolve.
///
/// Given only `Void` guarantees, Swift picks the variadic `Void` form of `when(guarantees:)`
/// instead, which resolves with `()`.
///
/// ```swift
/// when(guarantees: currentLocale(), currentTimeZone()).done { locale, timeZone in
///     formatter.configure(locale, timeZone)
/// }
/// ```
@inlinable
public func when<U, V>(guarantees first: Guarantee<U>, _ second: Guarantee<V>) -> Guarantee<(U, V)> {
    when(guarantees: [erasingValue(of: first), erasingValue(of: second)]).map(on: nil) { values in
        (values[0] as! U, values[1] as! V)
    }
}

/// Resolves with all three values once every guarantee resolves.
///
/// ```swift
/// when(guarantees: width(), height(), depth()).done { w, h, d in print(w * h * d) }
/// ```
@inlinable
public func when<U, V, W>(
    guarantees first: Guarantee<U>, _ second: Guarantee<V>, _ third: Guarantee<W>
) -> Guarantee<(U, V, W)> {
    when(guarantees: [erasingValue(of: first), erasingValue(of: second), erasingValue(of: third)]).map(
        on: nil
    ) { values in
        (values[0] as! U, values[1] as! V, values[2] as! W)
    }
}

/// Resolves with all four values once every guarantee resolves.
///
/// ```swift
/// when(guarantees: red(), green(), blue(), alpha()).done { r, g, b, a in paint(r, g, b, a) }
/// ```
@inlinable
public func when<U, V, W, X>(
    guarantees first: Guarantee<U>, _ second: Guarantee<V>, _ third: Guarantee<W>, _ fourth: Guarantee<X>
) -> Guarantee<(U, V, W, X)> {
    when(guarantees: [
        erasingValue(of: first), erasingValue(of: second), erasingValue(of: third), erasingValue(of: fourth),
    ]).map(on: nil) { values in
        (values[0] as! U, values[1] as! V, values[2] as! W, values[3] as! X)
    }
}

/// Resolves with all five values once every guarantee resolves.
///
/// ```swift
/// when(guarantees: a(), b(), c(), d(), e()).done { a, b, c, d, e in print(a, b, c, d, e) }
/// ```
@inlinable
public func when<U, V, W, X, Y>(
    guarantees first: Guarantee<U>, _ second: Guarantee<V>, _ third: Guarantee<W>, _ fourth: Guarantee<X>,
    _ fifth: Guarantee<Y>
) -> Guarantee<(U, V, W, X, Y)> {
    when(guarantees: [
        erasingValue(of: first), erasingValue(of: second), erasingValue(of: third), erasingValue(of: fourth),
        erasingValue(of: fifth),
    ]).map(on: nil) { values in
        (values[0] as! U, values[1] as! V, values[2] as! W, values[3] as! X, values[4] as! Y)
    }
}

/// `guarantee` with its value typed `any Sendable`, so that guarantees of different types can
/// be gathered without holding on to them: a held guarantee could never be cancelled.
@inlinable
func erasingValue<T>(of guarantee: Guarantee<T>) -> Guarantee<any Sendable> {
    guarantee.map(on: nil) { $0 }
}
