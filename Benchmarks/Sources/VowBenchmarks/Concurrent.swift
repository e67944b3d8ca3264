import Dispatch
import Foundation
import Vow

/// "concurrent-10k": the total time for 10,000 pieces of work to run on a concurrent queue
/// once they are released, setting up included; reported per batch of 10,000.
///
/// - Vow: 10,000 `Promise<Int>.pending()`, each with one `done(on: queue)` handler that checks
///   its value and leaves a dispatch group; then all 10,000 are fulfilled from the benchmark
///   thread, which waits on the group.
/// - Dispatch: 10,000 `queue.async(group:)` blocks, then a wait on the group.
/// - Swift concurrency: a detached task runs a task group of 10,000 child tasks, each
///   suspended in `withCheckedContinuation`; once all 10,000 continuations are collected, the
///   benchmark thread resumes them with their values, and waits until the group has summed
///   them. A continuation plays the pending promise, resuming it plays fulfilling.
func concurrentScenario() -> Scenario {
    let name = "concurrent-10k"
    let metric = Metric(name: name, unit: "ms/10k", target: Target(baseline: "Dispatch", atMost: 1.5))
    return Scenario(name: name) { context in
        let count = 10_000
        let rounds = context.size(full: 15, quick: 2)
        let queue = DispatchQueue(label: "vow-benchmarks.concurrent", attributes: .concurrent)
        let group = DispatchGroup()

        let vow = Contender.timed("Vow", divisor: 1, scale: 1e-6) {
            var resolvers: [Resolver<Int>] = []
            resolvers.reserveCapacity(count)
            for index in 0..<count {
                let (promise, resolver) = Promise<Int>.pending()
                group.enter()
                _ = promise.done(on: queue) { value in
                    check(value == index, "\(name) Vow: got \(value), expected \(index)")
                    group.leave()
                }
                resolvers.append(resolver)
            }
            for (index, resolver) in resolvers.enumerated() {
                resolver.fulfill(index)
            }
            group.wait()
        }
        let dispatch = Contender.timed("Dispatch", divisor: 1, scale: 1e-6) {
            for index in 0..<count {
                queue.async(group: group) {
                    check(index < count, "\(name) Dispatch: index \(index) out of range")
                }
            }
            group.wait()
        }
        let tasks = Contender.timed("Swift concurrency", divisor: 1, scale: 1e-6) {
            let collector = ContinuationCollector(expecting: count)
            let finished = DispatchSemaphore(value: 0)
            Task.detached {
                let sum = await withTaskGroup(of: Int.self) { children in
                    for _ in 0..<count {
                        children.addTask {
                            await withCheckedContinuation { collector.add($0) }
                        }
                    }
                    var sum = 0
                    for await value in children {
                        sum += value
                    }
                    return sum
                }
                check(sum == count * (count - 1) / 2, "\(name) Swift concurrency: sum \(sum)")
                finished.signal()
            }
            for (index, continuation) in collector.takeAll().enumerated() {
                continuation.resume(returning: index)
            }
            finished.wait()
        }
        return measure(
            [vow, dispatch, tasks], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: count, context: context)
    }
}

/// Gathers the continuations of suspended child tasks for the benchmark thread to resume.
// @unchecked: `continuations` is only read and written with `lock` held.
private final class ContinuationCollector: @unchecked Sendable {
    private let lock = NSLock()
    private let expected: Int
    private let complete = DispatchSemaphore(value: 0)
    private var continuations: [CheckedContinuation<Int, Never>] = []

    init(expecting expected: Int) {
        self.expected = expected
        continuations.reserveCapacity(expected)
    }

    func add(_ continuation: CheckedContinuation<Int, Never>) {
        lock.lock()
        continuations.append(continuation)
        let count = continuations.count
        lock.unlock()
        if count == expected {
            complete.signal()
        }
    }

    /// Blocks until every expected continuation has arrived, then hands them all over.
    func takeAll() -> [CheckedContinuation<Int, Never>] {
        complete.wait()
        lock.lock()
        defer { lock.unlock() }
        let taken = continuations
        continuations = []
        return taken
    }
}
