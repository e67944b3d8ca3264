/// Combines the elements of `items` in series, each through asynchronous work: `combine` gets
/// the result so far and the next element, and its thenable's value is the next result so far.
///
/// ```swift
/// reduce(invoices, Money.zero) { total, invoice in
///     rates.convert(invoice.amount).map { total + $0 }
/// }.done { total in
///     print("owed: \(total)")
/// }
/// ```
///
/// Each `combine` starts once the previous one's thenable has fulfilled, so the order is the
/// order of `items`, and the result is `initial` itself when `items` is empty. The first
/// rejection rejects the whole and skips the rest; cancelling the returned promise cancels the
/// step in flight and skips the rest too. `combine` runs in the isolation of the code that
/// wrote it, as handlers do; a nonisolated one runs the first step at once, on this thread.
///
/// - Parameters:
///   - items: The elements to combine, read into the chain at once, on this thread.
///   - initial: The result before any element.
///   - file: Where the call is written, recorded in debug builds for the chain's description
///     (see ``CreationSite``). Leave the default.
///   - line: The line of `file`. Leave the default.
///   - combine: Starts the work that combines the result so far with one element.
public func reduce<S: Sequence, Value: Sendable, U: Thenable>(
    _ items: S,
    _ initial: Value,
    file: StaticString = #fileID, line: UInt = #line,
    @_inheritActorContext(always) _ combine: @escaping @isolated(any) @Sendable (Value, S.Element) throws -> U
) -> Promise<Value> where S.Element: Sendable, U.T == Value {
    let site = RecordedSite("reduce", fileID: file, line: line)
    let combine = PlacedHandler(combine, else: .inline)
    // The whole chain is built now; each link is its predecessor's only consumer, so a
    // cancellation of the last one travels up to whichever step is running.
    var partial = Promise.value(initial)
    for item in items {
        partial = partial.then(via: combine.map { combine in { try combine($0, item) } }, madeAt: site)
    }
    return partial
}
