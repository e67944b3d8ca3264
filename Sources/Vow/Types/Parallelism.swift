/// How many elements ``map(_:as:file:line:_:)`` works on at once: one after another, all at once, or at
/// most a given number at a time.
///
/// ```swift
/// map(photos, as: .series) { photo in upload(photo) }           // one at a time
/// map(photos, as: .parallel(limit: 4)) { photo in upload(photo) } // four at a time
/// map(photos, as: .parallel) { photo in upload(photo) }         // all at once
/// ```
public struct Parallelism: Sendable, Hashable, CustomStringConvertible {
    /// The most elements in flight at once; `Int.max` when there is no limit.
    public let limit: Int

    private init(limit: Int) {
        self.limit = limit
    }

    /// One element at a time: each body starts once the previous one's thenable has fulfilled.
    ///
    /// ```swift
    /// map(migrations, as: .series) { migration in database.apply(migration) }
    /// ```
    public static let series = Parallelism(limit: 1)

    /// Every element at once: each body starts as soon as the previous one has returned.
    ///
    /// ```swift
    /// map(userIDs, as: .parallel) { id in fetchUser(id: id) }
    /// ```
    public static let parallel = Parallelism(limit: .max)

    /// At most `limit` elements at a time: another body starts whenever one in flight fulfils.
    ///
    /// A limit below one is not checked here but where it is used: ``map(_:as:file:line:_:)`` rejects it
    /// with ``PromiseError/badInput(_:)``.
    ///
    /// ```swift
    /// map(urls, as: .parallel(limit: 4)) { url in download(url) }
    /// ```
    public static func parallel(limit: Int) -> Parallelism {
        Parallelism(limit: limit)
    }

    /// `series`, `parallel`, or `parallel(limit: n)`, as it is written.
    public var description: String {
        switch limit {
        case 1: "series"
        case .max: "parallel"
        default: "parallel(limit: \(limit))"
        }
    }
}
