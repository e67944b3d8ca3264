import Dispatch
import Vow

/// "deep-chain": a chain of N inline steps on one pending promise, built and then resolved at
/// once, reported per step for each phase: attaching the N steps, and resolving the chain
/// until the last value can be read. A promise library must not recurse once per step here,
/// or a long enough chain overflows the stack.
///
/// - Vow: N `map(on: nil) { $0 + 1 }` on `Promise<Int>.pending()`, then `fulfill(0)`, then
///   the last promise's `result`, which must be `.success(N)`.
/// - hand-written floor: N + 1 ``FloorCell``s, each handing `value + 1` to the next, resolved
///   by a loop rather than by recursion.
func deepChainScenario() -> Scenario {
    let name = "deep-chain"
    let metrics = [
        Metric(
            name: "deep-chain/attach", unit: "ns/step",
            target: Target(baseline: "hand-written floor", atMost: 2)),
        Metric(
            name: "deep-chain/resolve", unit: "ns/step",
            target: Target(baseline: "hand-written floor", atMost: 2)),
    ]
    return Scenario(name: name) { context in
        let steps = context.size(full: 1_000_000, quick: 100_000)
        let rounds = context.size(full: 3, quick: 1)

        let vow = Contender("Vow") {
            let clock = Laps()
            let (first, resolver) = Promise<Int>.pending()
            var last = first
            for _ in 0..<steps {
                last = last.map(on: nil) { $0 + 1 }
            }
            let attached = clock.lap()
            resolver.fulfill(0)
            guard case .success(let value)? = last.result, value == steps else {
                fail("\(name) Vow: result \(String(describing: last.result)), expected .success(\(steps))")
            }
            let resolved = clock.lap()
            return [attached / Double(steps), resolved / Double(steps)]
        }
        let floor = Contender("hand-written floor") {
            let clock = Laps()
            let first = FloorCell.make()
            var last = first
            for _ in 0..<steps {
                let next = FloorCell.make()
                last.attach { Handoff(cell: next, value: $0 + 1) }
                last = next
            }
            let attached = clock.lap()
            FloorCell.settle(first, with: 0)
            guard let value = last.value, value == steps else {
                fail("\(name) floor: value \(String(describing: last.value)), expected \(steps)")
            }
            let resolved = clock.lap()
            return [attached / Double(steps), resolved / Double(steps)]
        }
        return measure(
            [vow, floor], scenario: name, metrics: metrics, rounds: rounds,
            opsPerBatch: steps, context: context)
    }
}

/// Times consecutive phases of one batch.
private final class Laps {
    private var start = DispatchTime.now().uptimeNanoseconds

    /// Nanoseconds since the previous lap, or since creation for the first.
    func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { start = now }
        return Double(now - start)
    }
}
