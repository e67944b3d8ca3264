import Dispatch
import Foundation
import Vow

/// Runs the selected scenarios, prints the results table, and writes the results as JSON.
@main
struct VowBenchmarks {
    static func main() {
        let scenarios = allScenarios()
        let names = scenarios.map(\.name)
        let options: Options
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()), known: names)
        } catch {
            let firstLine = Options.usage.prefix { $0 != "\n" }
            let hint = "(--help describes the options and lists the scenarios)"
            FileHandle.standardError.write(
                Data("vow-benchmarks: \(error.message)\n\(firstLine)\n\(hint)\n".utf8))
            exit(2)
        }
        if options.help {
            print(usage(names))
            return
        }
        let selected = scenarios.filter { options.only.isEmpty || options.only.contains($0.name) }
        if options.list {
            print(selected.map(\.name).joined(separator: "\n"))
            return
        }

        // Vow reports a resolver released while pending, which here would mean a scenario
        // benchmarks work that can never finish: stop instead of measuring it.
        conf.logHandler = { event in fail("Vow reported: \(event)") }
        if options.countInstructions {
            // Under callgrind the program runs some fifty times slower: the main thread, sending
            // a main-actor scenario's round of handlers, would leave the main queue unserviced
            // for longer than the watch over it allows.
            conf.mainQueueStallThreshold = nil
        }

        let context = Context(
            quick: options.quick, spreadLimit: options.spreadLimit, maxRoundsFactor: options.maxRoundsFactor,
            countInstructions: options.countInstructions)
        let startLoad = loadAverage()
        let start = DispatchTime.now().uptimeNanoseconds
        var rows: [Row] = []
        for (index, scenario) in selected.enumerated() {
            progress("[\(index + 1)/\(selected.count)] \(scenario.name)…")
            let began = DispatchTime.now().uptimeNanoseconds
            rows += scenario.run(context)
            progress("    done in \(seconds(since: began))")
        }
        context.shutDown()
        let endLoad = loadAverage()
        progress(
            "all done in \(seconds(since: start)); load average \(startLoad) at start, \(endLoad) at end")
        // Counted batches have no figures: callgrind's dumps hold them.
        guard !options.countInstructions else { return }

        print(table(rows))
        print("\n" + tableLegend(spreadLimit: context.spreadLimit))
        let json = report(rows, context: context, startLoad: startLoad, endLoad: endLoad)
        do {
            try json.text.write(toFile: options.jsonPath, atomically: true, encoding: .utf8)
        } catch {
            fail("cannot write \(options.jsonPath): \(error)")
        }
        print("\nresults written to \(options.jsonPath)")
    }

    private static func usage(_ names: [String]) -> String {
        Options.usage + "\n" + names.map { "  " + $0 }.joined(separator: "\n")
    }

    private static func seconds(since start: UInt64) -> String {
        String(format: "%.1f s", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
