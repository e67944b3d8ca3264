/// Cancels the chains stored in it when it goes away: kept by an owner, such as a screen or a
/// service, it makes the owner's going away a withdrawal, so that each chain it stored lets go
/// at once of its steps, its closures and what they captured, however long the promises they
/// wait on stay pending.
///
/// Swift tells nobody when an object is freed, so an owner-bound handler (Owners.md) notices its
/// owner is gone only when its input settles, and holds its step until then. An owner that
/// keeps a bag tells its chains itself, by being freed:
///
/// ```swift
/// @MainActor final class ProfileScreen {
///     private let chains = CancelBag()
///     private var title = ""
///
///     func appear(once ready: Guarantee<Void>) {
///         ready.then { api.profile() }.done(owner: self) { screen, profile in
///             screen.title = profile.name
///         }.catch(owner: self) { _, error in
///             report(error)
///         }.store(in: chains)
///     }
/// }
/// ```
///
/// Once the screen is freed, its bag cancels the chain: every step of it that nothing else
/// waits for is cancelled and taken back from what it waits on, as ``Promise/cancel()`` says,
/// even while `ready` stays pending.
///
/// A bag holds each chain's end until the chain finishes or the bag cancels it; finished ones
/// are dropped as others are stored, so a bag that lives as long as its owner does not grow
/// with the owner's history. Any thread may store into a bag or cancel it.
public final class CancelBag: Sendable {
    /// The chains stored and not yet seen to finish, and the count at which the next store
    /// drops the finished ones.
    private struct Contents: Sendable {
        var chains: [any CancelBagItem] = []
        var sweepAt = CancelBag.smallestSweep
    }

    /// The fewest chains a bag sweeps: below it, dropping the finished ones is not worth a pass.
    private static let smallestSweep = 16

    private let contents = Locked(Contents())

    /// An empty bag.
    ///
    /// ```swift
    /// let chains = CancelBag()
    /// ```
    public init() {}

    deinit {
        // Without the lock: nothing else holds the bag any longer.
        cancel(contents.state.chains)
    }

    /// Cancels every chain stored so far, as if the bag had gone away, and empties it; chains
    /// stored later are held again.
    ///
    /// ```swift
    /// @MainActor final class Account {
    ///     private let chains = CancelBag()
    ///
    ///     func signOut() {
    ///         chains.cancelAll()  // Nothing started for the last user finishes.
    ///     }
    /// }
    /// ```
    public func cancelAll() {
        let chains = contents.withLock { contents in
            defer { contents = Contents() }
            return contents.chains
        }
        cancel(chains)
    }

    /// Keeps `chain` until it finishes, to cancel it if the bag goes first. A chain that has
    /// finished already is not kept.
    func store(_ chain: any CancelBagItem) {
        guard !chain.hasFinished else { return }
        let finished = contents.withLock { contents -> [any CancelBagItem] in
            contents.chains.append(chain)
            guard contents.chains.count >= contents.sweepAt else { return [] }
            var finished: [any CancelBagItem] = []
            contents.chains.removeAll { chain in
                guard chain.hasFinished else { return false }
                finished.append(chain)
                return true
            }
            contents.sweepAt = max(CancelBag.smallestSweep, 2 * contents.chains.count)
            return finished
        }
        // Released outside the lock: releasing a finished chain may free its value, and a
        // value's `deinit` is user code.
        withExtendedLifetime(finished) {}
    }

    /// Cancels `chains` in the order they were stored; outside the lock, since cancelling runs
    /// handlers and the work's cancellation hooks.
    private func cancel(_ chains: [any CancelBagItem]) {
        for chain in chains {
            chain.cancel()
        }
    }
}

/// The end of a chain, as a ``CancelBag`` keeps it: a ``Promise`` or the ``Finalizer`` of a
/// `catch`.
protocol CancelBagItem: AnyObject, Sendable {
    /// Whether the chain has finished, so that cancelling it would do nothing.
    var hasFinished: Bool { get }

    /// Cancels the chain.
    func cancel()
}

extension Promise: CancelBagItem {
    var hasFinished: Bool {
        switch box {
        case .sealed: true
        case .empty(let box): box.phase == .resolved
        }
    }

    /// Keeps the promise in `bag`, which cancels it if the bag goes away first: the promise's
    /// owner, holding the bag, lets go of the chain by going away. Returns the promise.
    ///
    /// ```swift
    /// @MainActor final class NameLabel {
    ///     private let chains = CancelBag()
    ///     private var text = ""
    ///
    ///     func refresh() {
    ///         api.profile().done(owner: self) { label, profile in label.text = profile.name }
    ///             .store(in: chains)
    ///     }
    /// }
    /// ```
    @discardableResult
    public func store(in bag: CancelBag) -> Promise {
        bag.store(self)
        return self
    }
}

extension Finalizer: CancelBagItem {
    var hasFinished: Bool {
        caught.phase == .resolved
    }

    /// Keeps the chain that ends in this `catch` in `bag`, which cancels it, as ``cancel()``
    /// does, if the bag goes away first. Returns the finalizer.
    ///
    /// ```swift
    /// @MainActor final class ProfileScreen {
    ///     private let chains = CancelBag()
    ///
    ///     func appear() {
    ///         api.profile().done(show).catch(report).store(in: chains)
    ///     }
    /// }
    /// ```
    @discardableResult
    public func store(in bag: CancelBag) -> Finalizer {
        bag.store(self)
        return self
    }
}
