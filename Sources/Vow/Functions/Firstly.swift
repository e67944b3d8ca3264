/// Starts a chain, so that every step reads alike.
///
/// `body` runs at once, on this thread; a throw becomes a rejected promise.
///
/// ```swift
/// firstly {
///     fetchUser(id: 1)
/// }.then { user in
///     fetchAvatar(for: user)
/// }.done { avatar in
///     show(avatar)
/// }.catch { error in
///     report(error)
/// }
/// ```
@inlinable
public func firstly<U: Thenable>(
    file: StaticString = #fileID, line: UInt = #line, execute body: () throws -> U
) -> Promise<U.T> {
    do {
        let first = try body()
        if let promise = first as? Promise<U.T> {
            return promise
        }
        // As `Promise(first)`, in a box that records the caller's site.
        let next = EmptyBox<Result<U.T, any Error>>(madeAt: RecordedSite("firstly", fileID: file, line: line))
        return Promise(first.consume(into: next) { box in { box.seal($0) } })
    } catch {
        return Promise(error: error, madeAt: RecordedSite("firstly", fileID: file, line: line))
    }
}

/// Starts a chain from a ``Guarantee``, keeping the result a guarantee.
///
/// ```swift
/// firstly {
///     after(seconds: 1)
/// }.done {
///     print("a second later")
/// }
/// ```
@inlinable
public func firstly<T>(execute body: () -> Guarantee<T>) -> Guarantee<T> {
    body()
}
