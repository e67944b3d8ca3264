import Foundation

/// The `Progress` a `when` or a parallel `map` reports, made only when the caller has a
/// current progress to report to, as Foundation's implicit composition has it: one unit per
/// input, completed as each input settles, and every unit once the whole rejects.
///
/// ```swift
/// let overall = Progress(totalUnitCount: 10)
/// overall.becomeCurrent(withPendingUnitCount: 10)
/// let all = when(fulfilled: downloads)  // Its progress is a child of `overall`.
/// overall.resignCurrent()
/// ```
///
/// Nothing is made, and nothing is counted, without a current progress: a `when` pays for
/// progress only where someone watches it.
@usableFromInline
// @unchecked: `progress` is changed only while holding `lock`, so that each increment reads
// the count the previous one wrote; Foundation's own lock covers each access, not the pair.
final class WhenProgress: @unchecked Sendable {
    private let progress: Progress
    // Whether the units are learnt from the inputs as they start, the count being unknown.
    private let countsInputs: Bool
    private let lock = Locked(())

    private init(_ progress: Progress, countsInputs: Bool) {
        self.progress = progress
        self.countsInputs = countsInputs
    }

    /// A progress of `count` units, a child of the current progress, if there is one; with no
    /// count, a unit is added by ``inputStarted()`` for each input as it starts.
    @usableFromInline
    static func ofCurrent(expecting count: Int?) -> WhenProgress? {
        guard Progress.current() != nil else { return nil }
        let progress = Progress(totalUnitCount: Int64(count ?? 0))
        progress.isCancellable = false
        progress.isPausable = false
        return WhenProgress(progress, countsInputs: count == nil)
    }

    /// One more input started: a unit more, for a `when` that learns its inputs as it goes.
    @usableFromInline
    func inputStarted() {
        guard countsInputs else { return }
        lock.withLock { _ in progress.totalUnitCount += 1 }
    }

    /// One input settled.
    @usableFromInline
    func completeOne() {
        lock.withLock { _ in progress.completedUnitCount += 1 }
    }

    /// One input of a `when(fulfilled:)` settled: a unit if it fulfilled; the end of the whole
    /// if it rejected, since the `when` rejects with it.
    @usableFromInline
    func settledOne<T>(_ result: Result<T, any Error>) {
        if case .success = result { completeOne() } else { finish() }
    }

    /// The whole settled early, by a rejection or a cancellation: nothing is left to wait for.
    @usableFromInline
    func finish() {
        lock.withLock { _ in progress.completedUnitCount = progress.totalUnitCount }
    }
}
