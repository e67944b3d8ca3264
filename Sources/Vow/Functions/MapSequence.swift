/// Maps every element of `items` through `transform`, which starts asynchronous work, and
/// fulfils with the values in the order of `items`.
///
/// `parallelism` says how many elements are in flight at once: with ``Parallelism/series``
/// each element waits for the one before it; with ``Parallelism/parallel(limit:)`` another
/// starts whenever one fulfils; with ``Parallelism/parallel`` all start at once. Hydra calls
/// this `map(as:)`.
///
/// ```swift
/// map(urls, as: .parallel(limit: 4)) { url in
///     download(url)
/// }.done { files in
///     print("downloaded \(files.count) files, at most 4 at a time")
/// }
/// ```
///
/// The first rejection rejects the whole: no more elements start, and the work still in flight
/// is cancelled, as is everything when the returned promise is cancelled. `transform` runs in
/// the isolation of the code that wrote it, as handlers do; a nonisolated one runs at once for
/// the first elements, on this thread, and for the later ones where an earlier one fulfilled.
///
/// `items` is read into an array at once, on this thread; `transform` is what runs later.
///
/// Called while a Foundation `Progress` is current, the map reports to it as `when` does: one
/// unit per element, completed as each fulfils.
///
/// - Parameters:
///   - items: The elements to map.
///   - parallelism: How many elements to work on at once.
///   - file: Where the call is written, recorded in debug builds for the chain's description
///     (see ``CreationSite``). Leave the default.
///   - line: The line of `file`. Leave the default.
///   - transform: Starts the work for one element.
/// - Returns: A promise of the values in the order of `items`; rejected with
///   ``PromiseError/badInput(_:)``, before any `transform` runs, if the limit is below one.
public func map<S: Sequence, U: Thenable>(
    _ items: S,
    as parallelism: Parallelism,
    file: StaticString = #fileID, line: UInt = #line,
    @_inheritActorContext(always) _ transform: @escaping @isolated(any) @Sendable (S.Element) throws -> U
) -> Promise<[U.T]> where S.Element: Sendable {
    let site = RecordedSite("map(_:as:)", fileID: file, line: line)
    let transform = PlacedHandler(transform, else: .inline)
    // Each element becomes a promise only when the throttle asks for it, so that the work is
    // throttled, not just its results.
    let items = Array(items)
    let starts = items.lazy.map { item in
        Promise.value(item).then(via: transform, madeAt: site)
    }
    return gather(starts.makeIterator(), concurrently: parallelism.limit, counting: items.count, madeAt: site)
}
