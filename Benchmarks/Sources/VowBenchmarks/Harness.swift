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
        timed(name, divisor: divisor, scale: scale, setUp: {}, body: body)
    }

    /// A contender whose single metric, as for ``timed(_:divisor:scale:body:)``, is the time of
    /// `body` alone, given what `setUp` made beforehand: set-up that another scenario measures,
    /// or that would hide what this one is about, stays out of the figure.
    static func timed<Prepared>(
        _ name: String, divisor: Int, scale: Double = 1, setUp: @escaping () -> Prepared,
        body: @escaping (Prepared) -> Void
    ) -> Contender {
        Contender(name) {
            let prepared = setUp()
            let start = DispatchTime.now().uptimeNanoseconds
            body(prepared)
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            return [Double(elapsed) * scale / Double(divisor)]
        }
    }
}

/// The figures of every round, per contender and metric: `samples[contender][metric][round]`.
struct Samples {
    let contenders: [String]
    var samples: [[[Double]]]

    /// No figures yet, for `metrics` metrics of each of `contenders`.
    init(contenders: [String], metrics: Int) {
        self.contenders = contenders
        samples = Array(repeating: Array(repeating: [], count: metrics), count: contenders.count)
    }

    var metrics: Int { samples.first?.count ?? 0 }

    /// How many rounds have run: every contender has one figure per metric and round.
    var rounds: Int { samples.first?.first?.count ?? 0 }
}

/// Runs every contender once per round for `rounds` more rounds, adding their figures to
/// `samples`; before the first round of all, one warm-up round that is thrown away.
///
/// The machine is shared, so its speed drifts during a run. Running all contenders in each
/// round, with the first one rotating from round to round, spreads that drift over all of them
/// alike, and the ratios of their medians stay meaningful even when absolute figures do not.
/// The rotation goes on from the rounds already in `samples`, so that the rounds ``measure``
/// adds to a scenario continue the same sequence.
func compete(_ contenders: [Contender], rounds: Int, adding samples: inout Samples) {
    check(samples.contenders == contenders.map(\.name), "samples of other contenders")
    let first = samples.rounds
    for round in (first == 0 ? -1 : first)..<(first + rounds) {
        for offset in 0..<contenders.count {
            let index = (max(round, 0) + offset) % contenders.count
            let figures = contenders[index].batch()
            check(
                figures.count == samples.metrics,
                "\(contenders[index].name) reported \(figures.count) figures")
            guard round >= 0 else { continue }
            for (metric, figure) in figures.enumerated() {
                samples.samples[index][metric].append(figure)
            }
        }
    }
}

/// Runs a scenario's contenders for `rounds` rounds, then more while a ratio that steers one of
/// its metrics (see ``Row/steering``) has not settled, and reduces the figures to one row per
/// metric.
///
/// A ratio settles when its per-round values spread no wider than `context.spreadLimit`. Until
/// then, rounds are added half as many as `rounds` at a time, up to `context.maxRounds(base:)`:
/// a scenario whose rounds agree costs no more than before, and one that is noisy gets the
/// rounds it needs to say something, or says that it could not.
///
/// When the run counts instructions, the contenders run once each to be counted instead, and
/// there are no rows.
func measure(
    _ contenders: [Contender], scenario: String, metrics: [Metric], rounds: Int, opsPerBatch: Int,
    context: Context
) -> [Row] {
    if context.countInstructions {
        countInstructions(of: contenders, scenario: scenario, opsPerBatch: opsPerBatch, context: context)
        return []
    }
    var samples = Samples(contenders: contenders.map(\.name), metrics: metrics.count)
    compete(contenders, rounds: rounds, adding: &samples)
    let cap = context.maxRounds(base: rounds)
    let chunk = max(1, (rounds + 1) / 2)
    func rows() -> [Row] {
        summarize(
            samples, scenario: scenario, metrics: metrics, opsPerBatch: opsPerBatch,
            spreadLimit: context.spreadLimit)
    }
    var current = rows()
    while samples.rounds < cap {
        let loose = current.compactMap { row in
            row.steering.flatMap { $0.spread?.settled == false ? (row.metric.name, $0) : nil }
        }
        guard !loose.isEmpty else { break }
        let more = min(chunk, cap - samples.rounds)
        let described = loose.map { metric, baseline in
            "\(metric) ÷ \(baseline.contender) \(plusMinus(baseline.spread?.spread))"
        }
        progress(
            "    after \(samples.rounds) rounds: \(described.joined(separator: ", ")); \(more) more rounds")
        compete(contenders, rounds: more, adding: &samples)
        current = rows()
    }
    return current
}

/// The `fraction` quantile of `sorted` (ascending), interpolating linearly between the two
/// values nearest to it, numpy's default: the median is the 0.5 quantile, and for an even count
/// it is the mean of the two middle values.
func quantile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let position = fraction * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    return sorted[lower] + (position - Double(lower)) * (sorted[upper] - sorted[lower])
}

/// The median of `values`: the mean of the two middle values when their count is even.
func median(_ values: [Double]) -> Double {
    quantile(values.sorted(), 0.5)
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
