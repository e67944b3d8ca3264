import Foundation

/// A contender's figure for one metric over the rounds of a run.
struct Figure {
    let contender: String
    let median: Double
    let min: Double
    let rounds: Int
    /// For a baseline, how Vow's ratio to it varied from round to round; `nil` for Vow itself.
    let spread: Spread?
}

/// How Vow's ratio to one baseline varied over the rounds of a run.
///
/// Every contender runs once in each round, so each round gives one ratio of two figures taken
/// a few seconds apart, which the machine's slower and faster spells touch alike: their spread
/// tells how far the run's figure can be trusted, where the spread of either figure alone
/// would mostly tell how busy the machine was.
struct Spread {
    let median: Double
    /// The first and third quartiles: half the rounds gave a ratio between them.
    let q1: Double
    let q3: Double
    let min: Double
    let max: Double
    /// The interquartile range relative to the median, `(q3 - q1) / median`; not a number when
    /// the median is not positive.
    let spread: Double
    /// The rounds whose figures gave a ratio: all of them, unless a baseline's figure was 0.
    let rounds: Int
    /// Whether `spread` is within the run's limit (`--spread`).
    let settled: Bool

    init(vow: [Double], baseline: [Double], limit: Double) {
        let ratios = zip(vow, baseline).map { $0 / $1 }.filter(\.isFinite).sorted()
        median = quantile(ratios, 0.5)
        q1 = quantile(ratios, 0.25)
        q3 = quantile(ratios, 0.75)
        min = ratios.first ?? .nan
        max = ratios.last ?? .nan
        spread = median > 0 ? (q3 - q1) / median : .nan
        rounds = ratios.count
        settled = spread <= limit
    }
}

/// One metric of one scenario, with Vow's figure first and then each baseline's.
struct Row {
    let scenario: String
    let metric: Metric
    let opsPerBatch: Int
    let figures: [Figure]

    var vow: Figure { figures[0] }
    var baselines: ArraySlice<Figure> { figures.dropFirst() }

    /// Vow's median over the baseline's: below 1, Vow is faster or smaller.
    func ratio(to baseline: Figure) -> Double {
        vow.median / baseline.median
    }

    /// The baseline the target names, or `nil` when the metric has no target or that baseline
    /// did not run.
    var targetBaseline: Figure? {
        metric.target.flatMap { target in baselines.first { $0.contender == target.baseline } }
    }

    /// The baseline whose ratio decides whether the metric needs more rounds: the one its
    /// target names, or else the first; `nil` without baselines.
    var steering: Figure? {
        targetBaseline ?? baselines.first
    }

    /// Whether Vow reached the target, or `nil` when the metric has none.
    var met: Bool? {
        guard let target = metric.target, let baseline = targetBaseline else { return nil }
        return ratio(to: baseline) <= target.atMost
    }
}

/// Reduces the samples of a run to medians and minimums, and the paired ratios of each round
/// to their spread, one row per metric.
func summarize(
    _ samples: Samples, scenario: String, metrics: [Metric], opsPerBatch: Int, spreadLimit: Double
) -> [Row] {
    check(samples.contenders.first == "Vow", "\(scenario): Vow must be the first contender")
    return metrics.enumerated().map { metric, description in
        let vow = samples.samples[0][metric]
        let figures = samples.contenders.enumerated().map { contender, name in
            let values = samples.samples[contender][metric]
            return Figure(
                contender: name, median: median(values), min: values.min() ?? .nan, rounds: values.count,
                spread: contender == 0 ? nil : Spread(vow: vow, baseline: values, limit: spreadLimit))
        }
        return Row(scenario: scenario, metric: description, opsPerBatch: opsPerBatch, figures: figures)
    }
}

// MARK: - Table

/// Formats a figure with about three significant digits, enough for figures this noisy.
func formatted(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    let magnitude = abs(value)
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
    return String(format: "%.\(decimals)f", value)
}

private func describe(_ target: Target?) -> String {
    target.map { "≤" + String(format: "%.2f", $0.atMost) } ?? ""
}

/// Half the spread, as a percentage either side of the median: `±4%` for a spread of 8%.
func plusMinus(_ spread: Double?) -> String {
    guard let spread, spread.isFinite else { return "±n/a" }
    return String(format: "±%.0f%%", spread * 50)
}

/// The results as aligned text: one line per baseline, with Vow's ratio to it and that ratio's
/// spread over the rounds, the target and verdict on the line of the baseline the target refers
/// to, and the rounds run on the first line of each metric.
func table(_ rows: [Row]) -> String {
    var lines: [[String]] = [
        ["scenario", "unit", "Vow", "baseline", "figure", "ratio", "spread", "target", "met?", "rounds"]
    ]
    for row in rows {
        let verdict = row.met.map { $0 ? "yes" : "NO" } ?? ""
        let targetName = row.metric.target?.baseline
        var verdictShown = false
        for (index, baseline) in row.baselines.enumerated() {
            let first = index == 0
            let carriesTarget =
                targetName == baseline.contender || (targetName == nil && first)
            let spread = baseline.spread.map { plusMinus($0.spread) + ($0.settled ? "" : " unsettled") }
            lines.append([
                first ? row.metric.name : "",
                first ? row.metric.unit : "",
                first ? formatted(row.vow.median) : "",
                baseline.contender,
                formatted(baseline.median),
                String(format: "%.2f", row.ratio(to: baseline)),
                spread ?? "",
                carriesTarget ? describe(row.metric.target) : "",
                carriesTarget ? verdict : "",
                first ? String(row.vow.rounds) : "",
            ])
            verdictShown = verdictShown || carriesTarget
        }
        if row.baselines.isEmpty || !verdictShown {
            lines.append([
                row.metric.name, row.metric.unit, formatted(row.vow.median), "", "", "", "",
                describe(row.metric.target), verdict, row.baselines.isEmpty ? String(row.vow.rounds) : "",
            ])
        }
    }
    let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max() ?? 0 }
    let numeric: Set<Int> = [2, 4, 5, 9]
    return lines.map { cells in
        cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return numeric.contains(column) ? padding + cell : cell + padding
        }.joined(separator: "  ").trimmingTrailingSpaces()
    }.joined(separator: "\n")
}

/// What the table's ratio and spread columns mean, for below it.
func tableLegend(spreadLimit: Double) -> String {
    let limit = String(format: "%g%%", spreadLimit * 100)
    return """
        ratio:   Vow's median ÷ the baseline's median, over the rounds
        spread:  half the interquartile range of the per-round ratios (each round's Vow ÷ baseline),
                 relative to their median; unsettled when the whole range is wider than \(limit)
        """
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " {
            text.removeLast()
        }
        return text
    }
}

// MARK: - JSON

/// The run's results for `chart.py` and for comparing runs.
func report(_ rows: [Row], context: Context, startLoad: String, endLoad: String) -> JSON {
    .object([
        ("date", .string(ISO8601DateFormatter().string(from: Date()))),
        ("quick", .bool(context.quick)),
        ("spreadLimit", .number(context.spreadLimit)),
        ("maxRoundsFactor", .number(context.maxRoundsFactor)),
        ("swift", .string(swiftVersion)),
        ("machine", machine(startLoad: startLoad, endLoad: endLoad)),
        ("scenarios", .array(rows.map(json))),
    ])
}

private func json(_ row: Row) -> JSON {
    let target: JSON =
        row.metric.target.map {
            .object([("baseline", .string($0.baseline)), ("ratio", .number($0.atMost))])
        }
        ?? .null
    return .object([
        ("name", .string(row.metric.name)),
        ("scenario", .string(row.scenario)),
        ("unit", .string(row.metric.unit)),
        ("better", .string(row.metric.better.rawValue)),
        ("opsPerBatch", .number(Double(row.opsPerBatch))),
        ("target", target),
        ("met", row.met.map(JSON.bool) ?? .null),
        (
            "results",
            .array(
                row.figures.map { figure in
                    .object([
                        ("contender", .string(figure.contender)),
                        ("median", .number(figure.median)),
                        ("min", .number(figure.min)),
                        ("rounds", .number(Double(figure.rounds))),
                    ])
                })
        ),
        ("ratios", .object(row.baselines.map { ($0.contender, .number(row.ratio(to: $0))) })),
        (
            "spreads",
            .object(
                row.baselines.compactMap { baseline in
                    baseline.spread.map { (baseline.contender, json($0)) }
                })
        ),
    ])
}

private func json(_ spread: Spread) -> JSON {
    .object([
        ("median", .number(spread.median)),
        ("q1", .number(spread.q1)),
        ("q3", .number(spread.q3)),
        ("min", .number(spread.min)),
        ("max", .number(spread.max)),
        ("spread", .number(spread.spread)),
        ("rounds", .number(Double(spread.rounds))),
        ("settled", .bool(spread.settled)),
    ])
}

/// The compiler's version, as far as conditional compilation can tell it.
private var swiftVersion: String {
    #if compiler(>=6.4)
    "6.4 or later"
    #elseif compiler(>=6.3)
    "6.3"
    #elseif compiler(>=6.2)
    "6.2"
    #elseif compiler(>=6.1)
    "6.1"
    #else
    "6.0"
    #endif
}

private func machine(startLoad: String, endLoad: String) -> JSON {
    let info = ProcessInfo.processInfo
    #if arch(x86_64)
    let architecture = "x86_64"
    #elseif arch(arm64)
    let architecture = "arm64"
    #else
    let architecture = "other"
    #endif
    return .object([
        ("cores", .number(Double(info.processorCount))),
        ("activeCores", .number(Double(info.activeProcessorCount))),
        ("memoryGiB", .number((Double(info.physicalMemory) / 1_073_741_824).rounded())),
        ("architecture", .string(architecture)),
        ("cpu", cpuModel().map(JSON.string) ?? .null),
        ("os", .string(info.operatingSystemVersionString)),
        ("loadAverageAtStart", .string(startLoad)),
        ("loadAverageAtEnd", .string(endLoad)),
    ])
}

private func cpuModel() -> String? {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
    let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
}

/// The 1, 5 and 15 minute load averages, which tell how busy the shared machine was.
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}
