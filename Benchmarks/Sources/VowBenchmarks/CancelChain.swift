import Vow

/// "cancel-chain-10": what cancelling a chain costs, against resolving the same chain.
///
/// - Vow: `Promise<Int>.pending()` with an `onCancel` hook, ten `map(on: nil)` steps, then
///   `cancel()` on the last: the last ten promises reject with `PromiseError.cancelled` from
///   the end up, and the hook runs. Each operation checks that the hook ran and that the last
///   promise was cancelled.
/// - resolving it: the same chain, with the same hook, fulfilled instead of cancelled: every
///   step runs and the hook is dropped.
func cancelChainScenario() -> Scenario {
    let name = "cancel-chain-10"
    let steps = 10
    let metric = Metric(name: name, unit: "ns/op", target: Target(baseline: "Vow, resolved", atMost: 2.0))
    return Scenario(name: name) { context in
        let operations = context.size(full: 20_000, quick: 1_000)
        let rounds = context.size(full: 15, quick: 2)

        /// A pending promise with a hook that counts into `hooks`, and the end of a chain of
        /// ten inline steps on it.
        func makeChain(_ hooks: HookCount) -> (Resolver<Int>, Promise<Int>) {
            let (promise, resolver) = Promise<Int>.pending()
            resolver.onCancel { hooks.count += 1 }
            var last = promise
            for _ in 0..<steps {
                last = last.map(on: nil) { $0 + 1 }
            }
            return (resolver, last)
        }

        let cancelled = Contender.timed("Vow", divisor: operations) {
            let hooks = HookCount()
            for _ in 0..<operations {
                let (resolver, last) = makeChain(hooks)
                last.cancel()
                // Released only now: a resolver released first would cancel the chain itself.
                withExtendedLifetime(resolver) {}
                guard case .cancelled? = last.error as? PromiseError else {
                    fail("\(name) Vow: result \(String(describing: last.result)), expected a cancellation")
                }
            }
            check(hooks.count == operations, "\(name) Vow: \(hooks.count) hooks ran, expected \(operations)")
        }
        let resolved = Contender.timed("Vow, resolved", divisor: operations) {
            let hooks = HookCount()
            for _ in 0..<operations {
                let (resolver, last) = makeChain(hooks)
                resolver.fulfill(0)
                guard case .success(steps)? = last.result else {
                    fail(
                        "\(name) resolved: result \(String(describing: last.result)), expected .success(\(steps))"
                    )
                }
            }
            check(hooks.count == 0, "\(name) resolved: \(hooks.count) hooks ran, expected none")
        }
        return measure(
            [cancelled, resolved], scenario: name, metrics: [metric], rounds: rounds,
            opsPerBatch: operations, context: context)
    }
}

/// Counts the hooks that ran in ``cancelChainScenario()``.
// @unchecked: the scenario cancels and resolves on the benchmark thread alone, so the hooks run
// there too, one after another.
private final class HookCount: @unchecked Sendable {
    var count = 0
}
