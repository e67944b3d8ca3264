import Foundation

/// A contender's figure for one metric over the rounds of a run.
struct Figure {
    let contender: String
    let median: Double
    let min: Double
    let rounds: Int
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

    /// Whether Vow reached the target, or `nil` when the metric has none.
    var met: Bool? {
        switch metric.target {
        case nil:
            return nil
        case .absolute(let limit):
            return vow.median <= limit
        case .ratio(let name, let limit):
            guard let baseline = baselines.first(where: { $0.contender == name }) else { return nil }
            return ratio(to: baseline) <= limit
        }
    }
}

/// Reduces the samples of a run to medians and minimums, one row per metric.
func summarize(_ samples: Samples, scenario: String, metrics: [Metric], opsPerBatch: Int) -> [Row] {
    check(samples.contenders.first == "Vow", "\(scenario): Vow must be the first contender")
    return metrics.enumerated().map { metric, description in
        let figures = samples.contenders.enumerated().map { contender, name in
            let values = samples.samples[contender][metric]
            return Figure(
                contender: name, median: median(values), min: values.min() ?? .nan, rounds: values.count)
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
    switch target {
    case nil: ""
    case .ratio(_, let limit): "≤" + String(format: "%.2f", limit)
    case .absolute(let limit): "≤" + formatted(limit) + " abs"
    }
}

/// The results as aligned text: one line per baseline, the target and verdict on the line of
/// the baseline the target refers to.
func table(_ rows: [Row]) -> String {
    var lines: [[String]] = [["scenario", "unit", "Vow", "baseline", "figure", "ratio", "target", "met?"]]
    for row in rows {
        let verdict = row.met.map { $0 ? "yes" : "NO" } ?? ""
        let targetBaseline: String? =
            if case .ratio(let name, _)? = row.metric.target { name } else { nil }
        var verdictShown = false
        for (index, baseline) in row.baselines.enumerated() {
            let first = index == 0
            let carriesTarget =
                targetBaseline == baseline.contender || (targetBaseline == nil && first)
            lines.append([
                first ? row.metric.name : "",
                first ? row.metric.unit : "",
                first ? formatted(row.vow.median) : "",
                baseline.contender,
                formatted(baseline.median),
                String(format: "%.2f", row.ratio(to: baseline)),
                carriesTarget ? describe(row.metric.target) : "",
                carriesTarget ? verdict : "",
            ])
            verdictShown = verdictShown || carriesTarget
        }
        if row.baselines.isEmpty || !verdictShown {
            lines.append([
                row.metric.name, row.metric.unit, formatted(row.vow.median), "", "", "",
                describe(row.metric.target), verdict,
            ])
        }
    }
    let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max() ?? 0 }
    let numeric: Set<Int> = [2, 4, 5]
    return lines.map { cells in
        cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return numeric.contains(column) ? padding + cell : cell + padding
        }.joined(separator: "  ").trimmingTrailingSpaces()
    }.joined(separator: "\n")
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
func report(_ rows: [Row], quick: Bool, startLoad: String, endLoad: String) -> JSON {
    .object([
        ("date", .string(ISO8601DateFormatter().string(from: Date()))),
        ("quick", .bool(quick)),
        ("swift", .string(swiftVersion)),
        ("machine", machine(startLoad: startLoad, endLoad: endLoad)),
        ("scenarios", .array(rows.map(json))),
    ])
}

private func json(_ row: Row) -> JSON {
    let target: JSON =
        switch row.metric.target {
        case nil: .null
        case .ratio(let baseline, let limit):
            .object([("baseline", .string(baseline)), ("ratio", .number(limit))])
        case .absolute(let limit): .object([("baseline", .null), ("absolute", .number(limit))])
        }
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
