/// The command line: `vow-benchmarks [--quick] [--json PATH] [--only SCENARIO[,SCENARIO…]]
/// [--spread PERCENT] [--max-rounds-factor F] [--count-instructions] [--list]`, or `--help`.
struct Options {
    var quick = false
    var jsonPath = "benchmark-results.json"
    /// The scenarios to run, in the suite's order; empty means all of them.
    var only: [String] = []
    /// The widest spread at which a ratio counts as settled, as a fraction (the option takes a
    /// percentage).
    var spreadLimit = 0.10
    /// How many times its base rounds a scenario may run while its ratio has not settled.
    var maxRoundsFactor = 3.0
    /// Whether to run each contender once, between the markers that callgrind counts
    /// instructions between, instead of timing rounds; see InstructionCount.swift.
    var countInstructions = false

    static let usage = """
        usage: vow-benchmarks [--quick] [--json PATH] [--only SCENARIO[,SCENARIO...]]
                              [--spread PERCENT] [--max-rounds-factor F] [--count-instructions]
                              [--list]

          --quick          a few iterations of everything, to prove the suite runs (well under a minute);
                           never adds rounds
          --json PATH      where to write the results (default: benchmark-results.json)
          --only NAMES     run only these scenarios; may be repeated
          --spread PERCENT a ratio has settled when the interquartile range of its per-round values
                           is at most PERCENT of their median (default: 10)
          --max-rounds-factor F
                           while a scenario's ratio has not settled, add rounds up to F times its
                           base rounds (default: 3; 1 adds none)
          --count-instructions
                           run each contender once to warm up and once between the markers that
                           callgrind counts between, and time nothing; Benchmarks/Scripts/budget
                           --instructions runs it under valgrind
          --list           print the names of the scenarios selected, one a line, and run nothing
          --help           show this help

        scenarios:
        """

    /// Why the command line was refused, to print above the usage.
    struct Refusal: Error {
        let message: String
    }

    /// Whether the user asked for help rather than a run.
    var help = false
    /// Whether a script asked for the names of the selected scenarios rather than a run.
    var list = false

    init(arguments: [String], known: [String]) throws(Refusal) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                quick = true
            case "--help", "-h":
                help = true
            case "--list":
                list = true
            case "--count-instructions":
                countInstructions = true
            case "--json":
                guard let path = remaining.popFirst(), !path.hasPrefix("--") else {
                    throw Refusal(message: "--json needs a path")
                }
                jsonPath = path
            case "--spread":
                guard let text = remaining.popFirst(), let percent = Double(text), percent.isFinite,
                    percent >= 0
                else {
                    throw Refusal(message: "--spread needs a percentage, 0 or more")
                }
                spreadLimit = percent / 100
            case "--max-rounds-factor":
                guard let text = remaining.popFirst(), let factor = Double(text), factor.isFinite, factor >= 1
                else {
                    throw Refusal(message: "--max-rounds-factor needs a number, 1 or more")
                }
                maxRoundsFactor = factor
            case "--only":
                guard let names = remaining.popFirst(), !names.hasPrefix("--") else {
                    throw Refusal(message: "--only needs a scenario name")
                }
                for name in names.split(separator: ",").map(String.init) {
                    guard known.contains(name) else {
                        throw Refusal(message: "unknown scenario '\(name)'")
                    }
                    only.append(name)
                }
            default:
                throw Refusal(message: "unknown option '\(argument)'")
            }
        }
    }
}
