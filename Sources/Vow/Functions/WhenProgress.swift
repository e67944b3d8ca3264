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
///
/// The counts are shown on the progress outside Vow's lock, since the progress's observers are
/// user code. Where inputs settle on several threads at once, one thread shows the counts for
/// all of them, and an input's unit may appear a moment after the input settled.
@usableFromInline
// @unchecked: `progress` is changed by one thread at a time, the one that set `isPublishing`
// under `counts`'s lock, so that a count it shows is never replaced by an older one.
final class WhenProgress: @unchecked Sendable {
    /// The counts the inputs have reached, and whether a thread is showing them on `progress`.
    private struct Counts {
        var completed: Int64 = 0
        var total: Int64
        var isPublishing = false

        var values: (completed: Int64, total: Int64) { (completed, total) }
    }

    private let progress: Progress
    // Whether the units are learnt from the inputs as they start, the count being unknown.
    private let countsInputs: Bool
    private let counts: Locked<Counts>

    private init(_ progress: Progress, countsInputs: Bool) {
        self.progress = progress
        self.countsInputs = countsInputs
        counts = Locked(Counts(total: progress.totalUnitCount))
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
        update { $0.total += 1 }
    }

    /// One input settled.
    @usableFromInline
    func completeOne() {
        update { $0.completed += 1 }
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
        update { $0.completed = $0.total }
    }

    /// Applies `change` to the counts, then shows them on the progress, outside the lock: a
    /// change to a `Progress` runs its key-value observers and its parent's at once, on this
    /// thread, and they are user code. A thread that finds another one showing leaves its
    /// change to that one, which shows the counts until they stop changing.
    private func update(_ change: (inout Counts) -> Void) {
        let publishes = counts.withLock { counts in
            change(&counts)
            defer { counts.isPublishing = true }
            return !counts.isPublishing
        }
        guard publishes else { return }
        var shown = (completed: progress.completedUnitCount, total: progress.totalUnitCount)
        while true {
            let latest = counts.withLock { counts -> (completed: Int64, total: Int64)? in
                guard counts.values != shown else {
                    counts.isPublishing = false
                    return nil
                }
                return counts.values
            }
            guard let latest else { return }
            // The total first, so that the completed count never passes it.
            if latest.total != shown.total { progress.totalUnitCount = latest.total }
            if latest.completed != shown.completed { progress.completedUnitCount = latest.completed }
            shown = latest
        }
    }
}
