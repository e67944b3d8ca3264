import Dispatch
import Foundation

/// One implementation of a scenario's workload: Vow, or a baseline it is compared with.
///
/// `batch` runs one batch and returns one figure per metric of the scenario, already in the
/// metric's unit (time per operation, bytes per item…), so a scenario can report several
/// measurements taken in the same batch, such as attaching and resolving a deep chain.
struct Contender {
    let name: String
    let batch: () -> [Double]

    init(_ name: String, batch: @escaping () -> [Double]) {
        self.name = name
        self.batch = batch
    }

    /// A contender whose single metric is the wall-clock time of `body` divided by `divisor`,
    /// in nanoseconds scaled by `scale` (`1e-3` for microseconds, `1e-6` for milliseconds).
    static func timed(
        _ name: String, divisor: Int, scale: Double = 1, body: @escaping () -> Void
    ) -> Contender {
        Contender(name) {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            return [Double(elapsed) * scale / Double(divisor)]
        }
    }
}

/// The figures of every round, per contender and metric: `samples[contender][metric][round]`.
struct Samples {
    let contenders: [String]
    var samples: [[[Double]]]
}

/// Runs every contender once per round, after one warm-up round that is thrown away.
///
/// The machine is shared, so its speed drifts during a run. Running all contenders in each
/// round, with the first one rotating from round to round, spreads that drift over all of them
/// alike, and the ratios of their medians stay meaningful even when absolute figures do not.
func compete(_ contenders: [Contender], metrics: Int, rounds: Int) -> Samples {
    var result = Samples(
        contenders: contenders.map(\.name),
        samples: Array(repeating: Array(repeating: [], count: metrics), count: contenders.count))
    for round in -1..<rounds {
        for offset in 0..<contenders.count {
            let index = (max(round, 0) + offset) % contenders.count
            let figures = contenders[index].batch()
            check(figures.count == metrics, "\(contenders[index].name) reported \(figures.count) figures")
            guard round >= 0 else { continue }
            for (metric, figure) in figures.enumerated() {
                result.samples[index][metric].append(figure)
            }
        }
    }
    return result
}

/// The median of `values`: the mean of the two middle values when their count is even.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Stops the run when a contender computed a wrong result: a benchmark whose work was skipped
/// or broken would report a flattering figure for nothing.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fail(message())
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("vow-benchmarks: check failed: \(message)\n".utf8))
    exit(1)
}

/// Progress for a person watching a long run; standard output stays for the results table.
func progress(_ message: String) {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
}

/// Keeps values the optimizer could otherwise prove unused, and with them the work that made
/// them: storing an object publishes it to the heap, so allocation cannot be elided or moved
/// to the stack, and adding integers to a total that is later checked keeps their computation.
final class Sink {
    private(set) var object: AnyObject?
    private(set) var total = 0

    @inline(never)
    func keep(_ object: AnyObject) {
        self.object = object
    }

    @inline(never)
    func add(_ value: Int) {
        total &+= value
    }

    func reset() {
        object = nil
        total = 0
    }
}
