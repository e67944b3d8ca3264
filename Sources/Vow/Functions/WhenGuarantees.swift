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
