// `when` and `race` over main-actor promises: the shared functions over the promises beneath,
// with the values gathered into one on the main actor.

/// Waits for every main-actor promise to fulfil, then fulfils with their values in order; the
/// first rejection rejects, and cancels the others that nothing else waits on.
///
/// The values are gathered on the main actor, one hop after the last of them arrives.
///
/// ```swift
/// when(fulfilled: [fetchNote(), fetchNote()]).done { notes in print(notes.count) }.catch(report)
/// ```
@MainActor
@inlinable
public func when<T>(
    fulfilled promises: [MainActorPromise<T>], file: StaticString = #fileID, line: UInt = #line
) -> MainActorPromise<[T]> {
    MainActorPromise(
        when(fulfilled: promises.map(\.shared), file: file, line: line).map(
            via: PlacedHandler(mainActor: { (values: [MainActorValue<T>]) in
                MainActorValue(values.map(\.value))
            }),
            madeAt: RecordedSite("when(fulfilled:)", fileID: file, line: line)
        )
    )
}

/// Waits for two main-actor promises to fulfil, then fulfils with both values; the first
/// rejection rejects.
///
/// ```swift
/// when(fulfilled: fetchNote(), confirm(deleting: Note(text: "draft")).asPromise())
///     .done { note, deleted in print(note.text, deleted) }
///     .catch(report)
/// ```
@MainActor
@inlinable
public func when<A, B>(
    fulfilled first: MainActorPromise<A>, _ second: MainActorPromise<B>,
    file: StaticString = #fileID, line: UInt = #line
) -> MainActorPromise<(A, B)> {
    MainActorPromise(
        when(fulfilled: first.shared, second.shared, file: file, line: line).map(
            via: PlacedHandler(mainActor: { (values: (MainActorValue<A>, MainActorValue<B>)) in
                MainActorValue((values.0.value, values.1.value))
            }),
            madeAt: RecordedSite("when(fulfilled:)", fileID: file, line: line)
        )
    )
}

/// Waits for every main-actor promise to settle, fulfilled or rejected, and reports each result
/// in order; one rejection does not end the wait, so this cannot fail.
///
/// The results are gathered on the main actor, one hop after the last of them arrives.
///
/// ```swift
/// when(resolved: [fetchNote(), fetchNote()]).done { results in print(results.count) }
/// ```
@MainActor
@inlinable
public func when<T>(
    resolved promises: [MainActorPromise<T>], file: StaticString = #fileID, line: UInt = #line
) -> MainActorGuarantee<[Result<T, any Error>]> {
    when(resolved: promises, madeAt: RecordedSite("when(resolved:)", fileID: file, line: line))
}

/// `when(resolved:)` of main-actor promises, whose gathering box records `site`.
@MainActor
@inlinable
func when<T>(
    resolved promises: [MainActorPromise<T>], madeAt site: RecordedSite
) -> MainActorGuarantee<[Result<T, any Error>]> {
    MainActorGuarantee(
        when(resolved: promises.map(\.shared), madeAt: site).map(
            via: PlacedHandler(mainActor: { (results: [Result<MainActorValue<T>, any Error>]) in
                MainActorValue(results.map { $0.map(\.value) })
            }),
            madeAt: site
        )
    )
}

/// Waits for every main-actor promise to settle and reports each result in order, as
/// `when(resolved:)` of an array does.
///
/// ```swift
/// when(resolved: fetchNote(), fetchNote()).done { results in print(results.count) }
/// ```
@MainActor
@inlinable
public func when<T>(
    resolved first: MainActorPromise<T>, _ others: MainActorPromise<T>...,
    file: StaticString = #fileID, line: UInt = #line
) -> MainActorGuarantee<[Result<T, any Error>]> {
    when(resolved: [first] + others, madeAt: RecordedSite("when(resolved:)", fileID: file, line: line))
}

/// Resolves with every value once all the main-actor guarantees resolve, in their order.
///
/// ```swift
/// when(guarantees: [confirm(deleting: Note(text: "a")), confirm(deleting: Note(text: "b"))])
///     .done { answers in print(answers) }
/// ```
@MainActor
@inlinable
public func when<T>(
    guarantees: [MainActorGuarantee<T>], file: StaticString = #fileID, line: UInt = #line
) -> MainActorGuarantee<[T]> {
    MainActorGuarantee(
        when(guarantees: guarantees.map(\.shared), file: file, line: line).map(
            via: PlacedHandler(mainActor: { (values: [MainActorValue<T>]) in
                MainActorValue(values.map(\.value))
            }),
            madeAt: RecordedSite("when(guarantees:)", fileID: file, line: line)
        )
    )
}

/// Settles as the first of `promises` to settle, and cancels the others that nothing else
/// waits on; rejects with ``PromiseError/badInput(_:)`` if `promises` is empty.
///
/// The winner's value is handed on as it is, without a hop.
///
/// ```swift
/// race([fetchNote(), fetchNote()]).done { textView.note = $0 }.catch(report)
/// ```
@MainActor
@inlinable
public func race<T>(
    _ promises: [MainActorPromise<T>], file: StaticString = #fileID, line: UInt = #line
) -> MainActorPromise<T> {
    MainActorPromise(race(promises.map(\.shared), file: file, line: line))
}

/// Settles as the first of the main-actor promises to settle, as `race(_:)` of an array does.
///
/// ```swift
/// race(fetchNote(), fetchNote()).done { textView.note = $0 }.catch(report)
/// ```
@MainActor
@inlinable
public func race<T>(
    _ first: MainActorPromise<T>, _ others: MainActorPromise<T>..., file: StaticString = #fileID,
    line: UInt = #line
) -> MainActorPromise<T> {
    race([first] + others, file: file, line: line)
}
