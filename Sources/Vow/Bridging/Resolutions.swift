/// The results of some thenables, one by one in the order they resolve: an asynchronous
/// sequence that ends after the last of them.
///
/// Made by ``Swift/Sequence/resolutions``, which starts watching every thenable at once, so no
/// result is lost before the iteration starts: results that arrive earlier wait in a buffer, in
/// the order they arrived. The thenables already resolved come first, in sequence order.
///
/// ```swift
/// for await result in urls.map({ download($0) }).resolutions {
///     switch result {
///     case .success(let file): show(file)
///     case .failure(let error): log(error)
///     }
/// }
/// ```
///
/// Like the `AsyncStream` beneath it, it hands each result out once, to one iterator: a loop that
/// stops early leaves the rest buffered for a later loop over the same sequence, and they are
/// freed with the sequence. Cancelling the iterating task ends the sequence for good. Either way,
/// the thenables carry on.
public struct Resolutions<T: Sendable>: AsyncSequence, Sendable {
    /// A thenable's value, or the error it was rejected with.
    public typealias Element = Result<T, any Error>

    @usableFromInline
    let stream: AsyncStream<Element>

    /// Watches every one of `thenables`: each result is buffered as it arrives, and the stream
    /// finishes after the last.
    @inlinable
    init<S: Sequence>(_ thenables: S) where S.Element: Thenable, S.Element.T == T {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        self.stream = stream
        // An array, for the count: the stream may finish only once every thenable has yielded.
        let thenables = Array(thenables)
        guard !thenables.isEmpty else {
            continuation.finish()
            return
        }
        let unresolved = Locked(thenables.count)
        for thenable in thenables {
            thenable.pipe { result in
                // Yielded before counting, so the thread that counts the last result finishes
                // the stream after every yield. Once the iterating task is cancelled, the stream
                // drops what is yielded.
                continuation.yield(result)
                if unresolved.withLock({
                    $0 -= 1
                    return $0 == 0
                }) {
                    continuation.finish()
                }
            }
        }
    }

    /// Starts the iteration.
    ///
    /// ```swift
    /// func firstToArrive(_ downloads: [Promise<Data>]) async -> Result<Data, any Error>? {
    ///     var results = downloads.resolutions.makeAsyncIterator()
    ///     return await results.next()
    /// }
    /// ```
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream.makeAsyncIterator())
    }

    /// Hands out the results of a ``Resolutions`` in the order they arrived.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline
        var base: AsyncStream<Element>.Iterator

        @inlinable
        init(_ base: AsyncStream<Element>.Iterator) {
            self.base = base
        }

        /// Suspends until the next result arrives, and returns it; returns `nil` once every
        /// thenable's result has been returned.
        ///
        /// ```swift
        /// func printAll(_ downloads: [Promise<Data>]) async {
        ///     var results = downloads.resolutions.makeAsyncIterator()
        ///     while let result = await results.next() { print(result) }
        /// }
        /// ```
        @inlinable
        public mutating func next() async -> Element? {
            await base.next()
        }

        /// Suspends until the next result arrives, and returns it on `actor`; returns `nil` once
        /// every thenable's result has been returned.
        ///
        /// `for await` calls this on the systems that have it, so that the loop stays on the
        /// actor that runs it rather than hopping off for each result.
        ///
        /// ```swift
        /// func printAll(_ downloads: [Promise<Data>]) async {
        ///     var results = downloads.resolutions.makeAsyncIterator()
        ///     while let result = await results.next(isolation: #isolation) { print(result) }
        /// }
        /// ```
        @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await base.next(isolation: actor)
        }
    }
}

extension Sequence where Element: Thenable {
    /// The results of these thenables as an asynchronous sequence, in the order they resolve.
    ///
    /// Every thenable is watched from this call on, so results that arrive before the iteration
    /// starts are kept. The sequence ends after the last result; with no thenables, it ends at
    /// once.
    ///
    /// ```swift incomplete
    /// for await result in mirrors.map(fetchIndex).resolutions {
    ///     if case .success(let index) = result {
    ///         return index
    ///     }
    /// }
    /// ```
    @inlinable
    public var resolutions: Resolutions<Element.T> {
        Resolutions(self)
    }
}
