/// The command line: `vow-benchmarks [--quick] [--json PATH] [--only SCENARIO[,SCENARIO…]]
/// [--list]`, or `--help`.
struct Options {
    var quick = false
    var jsonPath = "benchmark-results.json"
    /// The scenarios to run, in the suite's order; empty means all of them.
    var only: [String] = []

    static let usage = """
        usage: vow-benchmarks [--quick] [--json PATH] [--only SCENARIO[,SCENARIO...]] [--list]

          --quick          a few iterations of everything, to prove the suite runs (well under a minute)
          --json PATH      where to write the results (default: benchmark-results.json)
          --only NAMES     run only these scenarios; may be repeated
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
            case "--json":
                guard let path = remaining.popFirst(), !path.hasPrefix("--") else {
                    throw Refusal(message: "--json needs a path")
                }
                jsonPath = path
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
