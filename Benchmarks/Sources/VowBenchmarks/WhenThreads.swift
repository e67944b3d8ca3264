import Dispatch
import NIOCore
import Vow

/// "when-threads": `when(fulfilled:)` over 10,000 pending promises whose values arrive from
/// several threads at once, as the results of concurrent work do; reported per batch of 10,000.
/// Only the arrival is timed: from the first input resolved to the moment the benchmark thread,
/// blocked on a semaphore, is woken by the code that has all the values. Making the pending
/// inputs and attaching the aggregation beforehand is set-up, left out of the figure, because
/// creation-pending and when-10k measure it.
///
/// In every contender, `DispatchQueue.concurrentPerform` resolves the inputs in 16 slices of
/// 625 consecutive ones, input `i` with the value `i`, on the benchmark thread and Dispatch's
/// worker threads, one per active core; whichever thread completes the aggregation checks the
/// count and the sum of the values and signals the semaphore.
///
/// - Vow: 10,000 `Promise<Int>.pending()`, `when(fulfilled:)` over the promises, then
///   `done(on: nil)`, which checks and signals, and `catch(on: nil)`, which stops the run; the
///   slices fulfil the resolvers.
/// - collect floor: the slices append each value under one lock to an array with room reserved
///   for all (when-10k's floor); the append that makes it 10,000 long checks and signals. The
///   least a thread-safe fan-in can do: no order kept, no errors, no promises.
/// - SwiftNIO: on the loop's thread, 10,000 `loop.makePromise(of: Int.self)`, and
///   `EventLoopFuture.whenAllSucceed` over their futures with `whenSuccess`, which checks and
///   signals, and `whenFailure`, which stops the run; the slices `succeed` the promises. A
///   promise succeeded off its loop sends the value to the loop's thread, so every input costs
///   SwiftNIO a hop: that is what its design asks of results that come from other threads.
///
/// Target ≤10 × collect floor, when-10k's: the floor's values cross between threads under a
/// lock as `when`'s do, so the ratio asks what `when` adds to a fan-in, as in when-10k, only
/// with the values arriving late and from several threads.
func whenThreadsScenario() -> Scenario {
    let name = "when-threads"
    let metric = Metric(name: name, unit: "ms/10k", target: Target(baseline: "collect floor", atMost: 10))
    return Scenario(name: name) { context in
        let count = 10_000
        let slices = 16
        let expectedSum = count * (count - 1) / 2
        // More than when-10k's: a round lasts a few milliseconds, and which threads take which
        // slices changes from one to the next.
        let rounds = context.size(full: 30, quick: 2)
        let loop = context.loop
        let semaphore = DispatchSemaphore(value: 0)

        /// Resolves input `i` with `i`, in slices taken by as many threads as there are cores.
        func arrive(_ resolve: @Sendable (Int) -> Void) {
            let size = count / slices
            DispatchQueue.concurrentPerform(iterations: slices) { slice in
                for index in slice * size..<(slice + 1) * size {
                    resolve(index)
                }
            }
        }

        /// Checks what a contender gathered and wakes the benchmark thread.
        @Sendable func deliver(_ values: [Int], _ contender: String) {
            check(values.count == count, "\(name) \(contender): \(values.count) values")
            check(values.reduce(0, +) == expectedSum, "\(name) \(contender): wrong sum")
            semaphore.signal()
        }

        let vow = Contender.timed("Vow", divisor: 1, scale: 1e-6) {
            let inputs = (0..<count).map { _ in Promise<Int>.pending() }
            when(fulfilled: inputs.map(\.promise)).done(on: nil) { values in
                deliver(values, "Vow")
            }.catch(on: nil) { error in
                fail("\(name) Vow: rejected with \(error)")
            }
            return inputs.map(\.resolver)
        } body: { resolvers in
            arrive { resolvers[$0].fulfill($0) }
            semaphore.wait()
        }
        let floor = Contender.timed("collect floor", divisor: 1, scale: 1e-6) {
            LockedCollection(capacity: count)
        } body: { collection in
            arrive { index in
                if collection.append(index) == count {
                    deliver(collection.values, "collect floor")
                }
            }
            semaphore.wait()
        }
        let nio = Contender.timed("SwiftNIO", divisor: 1, scale: 1e-6) {
            let prepared = loop.submit {
                let promises = (0..<count).map { _ in loop.makePromise(of: Int.self) }
                let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
                all.whenSuccess { deliver($0, "SwiftNIO") }
                all.whenFailure { error in fail("\(name) SwiftNIO: failed with \(error)") }
                return promises
            }
            return waitFor(prepared, "\(name) SwiftNIO: setting up")
        } body: { promises in
            arrive { promises[$0].succeed($0) }
            semaphore.wait()
        }
        return measure(
            [vow, floor, nio], scenario: name, metrics: [metric], rounds: rounds, opsPerBatch: count,
            context: context)
    }
}
