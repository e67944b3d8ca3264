import Foundation
import NIOCore
import Vow

/// "when-10k": aggregating 10,000 values that are already there into one array, reported per
/// batch of 10,000. The inputs are made once, before any round, and are not timed.
///
/// - Vow: `when(fulfilled:)` over 10,000 `Promise.value(i)`, its array read at once through
///   `result`; the count and sum of the values are checked.
/// - collect floor: the 10,000 `Int`s appended one by one, each under its own lock, to an
///   array with room reserved for them: the least any thread-safe aggregation must do.
/// - SwiftNIO: `EventLoopFuture.whenAllSucceed` over 10,000 succeeded futures, waited for
///   from the benchmark thread.
func whenScenario() -> Scenario {
    let name = "when-10k"
    let metric = Metric(name: name, unit: "ms/10k", target: Target(baseline: "collect floor", atMost: 5))
    return Scenario(name: name) { context in
        let count = 10_000
        let expectedSum = count * (count - 1) / 2
        let rounds = context.size(full: 20, quick: 2)
        let loop = context.loop
        let promises = (0..<count).map { Promise.value($0) }
        let futures = (0..<count).map { loop.makeSucceededFuture($0) }
        let values = Array(0..<count)

        let vow = Contender.timed("Vow", divisor: 1, scale: 1e-6) {
            guard case .success(let gathered)? = when(fulfilled: promises).result else {
                fail("\(name) Vow: when(fulfilled:) is not fulfilled")
            }
            check(gathered.count == count, "\(name) Vow: \(gathered.count) values")
            check(gathered.reduce(0, +) == expectedSum, "\(name) Vow: wrong sum")
        }
        let floor = Contender.timed("collect floor", divisor: 1, scale: 1e-6) {
            let collection = LockedCollection(capacity: count)
            for value in values {
                collection.append(value)
            }
            let gathered = collection.values
            check(gathered.count == count, "\(name) floor: \(gathered.count) values")
            check(gathered.reduce(0, +) == expectedSum, "\(name) floor: wrong sum")
        }
        let nio = Contender.timed("SwiftNIO", divisor: 1, scale: 1e-6) {
            let gathered = waitFor(EventLoopFuture.whenAllSucceed(futures, on: loop), "\(name) SwiftNIO")
            check(gathered.count == count, "\(name) SwiftNIO: \(gathered.count) values")
            check(gathered.reduce(0, +) == expectedSum, "\(name) SwiftNIO: wrong sum")
        }
        return measure(
            [vow, floor, nio], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: count, context: context)
    }
}

/// An array that takes one lock per append, as values arriving from many threads would need.
// @unchecked: `storage` is only read and written with `lock` held.
final class LockedCollection: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []

    init(capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// Appends `value` and returns how many values there are with it, so that the thread that
    /// adds the last one knows it.
    @discardableResult
    func append(_ value: Int) -> Int {
        lock.lock()
        storage.append(value)
        let count = storage.count
        lock.unlock()
        return count
    }

    var values: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
