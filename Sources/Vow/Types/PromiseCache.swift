/// Shares one lookup between the callers that ask for the same key while it is in flight, and
/// keeps its value for as long as its ``Retention`` says.
///
/// Ten views asking for the same avatar at once start one download; each gets a promise of its
/// own, settled as the download is:
///
/// ```swift
/// let avatars = PromiseCache<URL, Data>(keeping: .for(.seconds(300))) { url in
///     download(url)
/// }
///
/// avatars.value(for: url).done { data in show(data) }
/// avatars.invalidate(url)  // The next caller downloads it again.
/// ```
///
/// Cancelling a caller's promise cancels that caller alone; the shared lookup is cancelled
/// only once every caller waiting for it has cancelled, even one that
/// ``invalidate(_:)`` has forgotten, and the next caller then starts a new one. The cache counts the callers itself, so a caller arriving as the last one leaves
/// never joins a lookup about to be cancelled. A failure is never kept: its callers all get the error, and the next caller
/// starts a new lookup.
///
/// `lookup` runs on the thread of the caller that missed, at once; it is called for one key
/// at a time, never twice for the same key while a lookup for it is in flight. No other code
/// of yours runs while the cache holds its lock (a kept value's `deinit`, the clock), except
/// `Key`'s `hash(into:)` and `==`, which a dictionary needs: they must not call the cache.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class PromiseCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// How long a value that a lookup fulfilled with is kept.
    ///
    /// ```swift
    /// let avatars = PromiseCache<URL, Data>(keeping: .for(.seconds(300))) { url in download(url) }
    /// let searches = PromiseCache<String, [String]>(keeping: .whileInFlight) { query in api.search(query) }
    /// ```
    public enum Retention: Sendable, Hashable {
        /// Not kept: callers share a lookup only while it is in flight, which de-duplicates
        /// requests without caching their results.
        case whileInFlight
        /// Kept until ``PromiseCache/invalidate(_:)`` or ``PromiseCache/invalidateAll()``.
        case forever
        /// Kept for a time, measured on the cache's clock from when the lookup fulfilled.
        case `for`(Duration)
    }

    /// What the table keeps for a key: the shared lookup while it is in flight, then its
    /// value, with the generation of the lookup that found it.
    private enum Entry {
        case inFlight(Lookup)
        case kept(Value, generation: UInt64, isExpired: @Sendable () -> Bool)
    }

    /// A lookup in flight: the box it settles, the generation that tells it from a later
    /// lookup of the same key, and how many callers wait for it.
    ///
    /// The callers are counted here rather than in the table, so that the last one to leave
    /// cancels the lookup even once ``PromiseCache/invalidate(_:)`` has taken it out of the
    /// table: invalidating forgets a lookup, it does not keep it running for nobody.
    ///
    /// The box is never wrapped in a `Promise`: it keeps the one handle it was born with, so it
    /// is never cancelled from below, only by the cache, when its last caller leaves. (A
    /// `Promise` stored here as the cache's own handle, measured with callgrind, cost every
    /// three-step inline chain in client code about 250 instructions: it kept the optimizer from
    /// removing the chain's intermediate `Promise` objects.)
    // @unchecked: `callers` is only read or written while holding the table's lock.
    private final class Lookup: @unchecked Sendable {
        let box: EmptyBox<Result<Value, any Error>>
        let generation: UInt64
        var callers = 1

        /// A lookup whose box records `site`, the call of the caller that started it.
        init(generation: UInt64, madeAt site: RecordedSite) {
            box = EmptyBox(madeAt: site)
            self.generation = generation
        }
    }

    /// The entries, and what a change took out of them, which ``PromiseCache/change(_:)``
    /// releases once it has left the lock.
    private struct Table {
        var entries: [Key: Entry] = [:]
        var generations: UInt64 = 0
        var released: [Entry] = []

        /// The entry for `key`, counting the caller in if it is a lookup in flight; else a new
        /// lookup, entered for `key`, which the caller at `site` must start.
        mutating func join(_ key: Key, madeAt site: RecordedSite) -> (entry: Entry, isNew: Bool) {
            switch entries[key] {
            case .inFlight(let lookup)?:
                lookup.callers += 1
                return (.inFlight(lookup), false)
            case let entry?:
                return (entry, false)
            case nil:
                generations += 1
                let entry = Entry.inFlight(Lookup(generation: generations, madeAt: site))
                entries[key] = entry
                return (entry, true)
            }
        }

        /// Replaces or removes the entry for `key`, keeping the one it replaces for release.
        mutating func set(_ entry: Entry?, for key: Key) {
            let replaced =
                if let entry { entries.updateValue(entry, forKey: key) } else {
                    entries.removeValue(forKey: key)
                }
            if let replaced { released.append(replaced) }
        }

        /// The generation of the entry for `key`: its lookup's, in flight or kept.
        func generation(of key: Key) -> UInt64? {
            switch entries[key] {
            case .inFlight(let lookup)?: lookup.generation
            case .kept(_, let generation, _)?: generation
            case nil: nil
            }
        }
    }

    private let table = Locked(Table())
    private let lookup: @Sendable (Key) throws -> Promise<Value>
    private let retention: Retention
    private let deadline: @Sendable (Duration) -> @Sendable () -> Bool

    /// A cache that looks keys up with `lookup` and keeps what it finds as `retention` says.
    ///
    /// ```swift
    /// let users = PromiseCache<Int, User>(keeping: .forever) { id in fetchUser(id: id) }
    /// ```
    ///
    /// - Parameters:
    ///   - retention: How long fulfilled values are kept; only while in flight, by default. A
    ///     negative time makes every ``value(for:file:line:)`` reject with
    ///     ``PromiseError/badInput(_:)``.
    ///   - clock: The clock a ``Retention/for(_:)`` time is measured on: pass a ``ManualClock``
    ///     in tests.
    ///   - lookup: Starts the lookup of one key. A throw rejects the callers waiting for it.
    public init<U: Thenable, C: Clock>(
        keeping retention: Retention = .whileInFlight,
        clock: C = ContinuousClock(),
        lookup: @escaping @Sendable (Key) throws -> U
    ) where U.T == Value, C.Duration == Duration {
        self.retention = retention
        self.lookup = { key in Promise(try lookup(key)) }
        self.deadline = { time in
            let end = clock.now.advanced(by: time)
            return { clock.now >= end }
        }
    }

    /// A promise of the value for `key`: the kept value if there is one, the lookup in flight
    /// for `key` if there is one, or else a new lookup.
    ///
    /// ```swift
    /// when(fulfilled: ids.map { users.value(for: $0) }).done { users in
    ///     show(users)  // One lookup per distinct id.
    /// }
    /// ```
    public func value(for key: Key, file: StaticString = #fileID, line: UInt = #line) -> Promise<Value> {
        if case .for(let time) = retention, time < .zero {
            return Promise(
                error: PromiseError.badInput("a PromiseCache cannot keep values for \(time), a negative time")
            )
        }
        while true {
            let (found, isNew) = change {
                $0.join(key, madeAt: RecordedSite("PromiseCache lookup", fileID: file, line: line))
            }
            switch found {
            case .kept(let value, let generation, let isExpired):
                // The clock is the user's code: read outside the lock. An expired value is
                // removed, unless a caller on another thread replaced it meanwhile, and the
                // caller looks again.
                guard isExpired() else { return .value(value) }
                change { table in
                    if table.generation(of: key) == generation { table.set(nil, for: key) }
                }
            case .inFlight(let lookup):
                let caller = follow(
                    lookup, for: key,
                    madeAt: RecordedSite("PromiseCache.value(for:)", fileID: file, line: line))
                if isNew {
                    lookup.box.settle { try lookup.box.follow(self.lookup(key)) }
                }
                return caller
            }
        }
    }

    /// Runs `body` on the table, inside its lock, then releases what it took out of the table
    /// once it has left the lock: a kept value's `deinit`, and that of whatever it holds, is
    /// user code, which may well call the cache.
    private func change<R>(_ body: (inout Table) -> R) -> R {
        let (result, released) = table.withLock { table -> (R, [Entry]) in
            let result = body(&table)
            var released: [Entry] = []
            swap(&released, &table.released)
            return (result, released)
        }
        withExtendedLifetime(released) {}
        return result
    }

    /// Forgets `key`: the next caller starts a new lookup. Callers already waiting for a
    /// lookup in flight still get its result.
    ///
    /// ```swift
    /// users.invalidate(user.id)  // After the user edited their profile.
    /// ```
    public func invalidate(_ key: Key) {
        change { $0.set(nil, for: key) }
    }

    /// Forgets every key, as ``invalidate(_:)`` does for one.
    ///
    /// ```swift
    /// users.invalidateAll()  // After signing out.
    /// ```
    public func invalidateAll() {
        change { table in
            table.released.append(contentsOf: table.entries.values)
            table.entries = [:]
        }
    }

    /// A caller's own promise of the shared lookup's result, in a box that records the caller's
    /// `site`; it is the caller's to cancel.
    private func follow(_ lookup: Lookup, for key: Key, madeAt site: RecordedSite) -> Promise<Value> {
        let caller = EmptyBox<Result<Value, any Error>>(madeAt: site)
        let leaving = Caller(of: self, for: key, waitingFor: lookup)
        // Set before the handler is attached, while no other thread can reach the box.
        caller.wait(on: leaving, token: 0)
        leaving.keep(
            lookup.box.attach(
                { result in
                    self.settled(key, generation: lookup.generation, with: result)
                    caller.seal(result)
                }, recordingIn: nil))
        return Promise(caller)
    }

    /// The upstream of a caller's promise, told when that promise settles or is cancelled: a
    /// caller that leaves is counted out of the lookup, and its handler taken back from it.
    // @unchecked: every stored property is immutable and Sendable.
    private final class Caller: Upstream, @unchecked Sendable {
        let cache: PromiseCache
        let key: Key
        let lookup: Lookup
        // The attachment of the caller's handler to the lookup's box, kept once attached.
        let attachment = Locked(ConsumerLink.none)

        init(of cache: PromiseCache, for key: Key, waitingFor lookup: Lookup) {
            self.cache = cache
            self.key = key
            self.lookup = lookup
            super.init()
        }

        override var waitDescription: String {
            "shares the lookup below with every caller of its key"
        }

        override var describedBox: BoxCore? {
            lookup.box
        }

        /// Keeps `link`, the attachment of the caller's handler.
        func keep(_ link: ConsumerLink) {
            attachment.withLock { $0 = link }
        }

        override func withdraw(_ token: UInt32, cancelling: Bool) -> Withdrawal {
            let link = attachment.withLock { link in
                defer { link = .none }
                return link
            }
            // The last caller to leave cancels the lookup, whose own upstream the caller's walk
            // tells next, in its loop: a chain of lookups, each waiting on the one before, is
            // then cancelled without a recursion.
            if cancelling, cache.leave(lookup, of: key) {
                return Withdrawal(detached: false, next: lookup.box.cancelNow())
            }
            // Otherwise the lookup's box takes the handler back next, as the upstream this one
            // gives up: a box that has resolved, as it has unless the caller is cancelled,
            // ignores it.
            return Withdrawal(detached: false, next: link)
        }
    }

    /// One caller of `lookup` cancelled: if it was the last one waiting, the lookup is forgotten,
    /// if the table still has it, and this returns `true`, for the caller to cancel it.
    /// Forgotten in the same lock that counts the callers, so that no new caller can join a
    /// lookup about to be cancelled.
    private func leave(_ lookup: Lookup, of key: Key) -> Bool {
        change { table -> Bool in
            lookup.callers -= 1
            guard lookup.callers == 0 else { return false }
            if case .inFlight(let entered)? = table.entries[key], entered === lookup {
                table.set(nil, for: key)
            }
            return true
        }
    }

    /// Replaces the entry of the lookup that settled with its value, or removes it, unless it
    /// was invalidated and so replaced meanwhile. Every caller's handler calls this; the first
    /// does the work.
    private func settled(_ key: Key, generation: UInt64, with result: Result<Value, any Error>) {
        // The deadline reads the user's clock: outside the lock.
        let kept: Entry? =
            switch (result, retention) {
            case (.success(let value), .forever):
                .kept(value, generation: generation, isExpired: { false })
            case (.success(let value), .for(let time)):
                .kept(value, generation: generation, isExpired: deadline(time))
            default: nil
            }
        change { table in
            guard case .inFlight(let lookup)? = table.entries[key], lookup.generation == generation else {
                return
            }
            table.set(kept, for: key)
        }
    }
}
