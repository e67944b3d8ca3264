import Foundation
import Testing

@testable import Vow

/// Documentation/Debugging.md quotes what Vow writes: every line its table of descriptions
/// quotes, the report it shows, and the lines its prose quotes. Each quote must be what a
/// description, a failure's origin or the default log handler writes now, so the guide cannot
/// drift from the code: a row added to the table is checked with the others, and fails until a
/// chain here writes it. The guide's blocks of code are checked apart, by
/// Scripts/check-code-blocks.
///
/// A quote's file and line (`App/main.swift:3`) stand for any site: both sides are compared with
/// every site replaced.
@Suite struct DebuggingGuideTests {
    /// The lines the guide's prose quotes as code, other than in its table and its report.
    static let proseQuotes = [
        "… 89 more steps …",
        "… the path goes on: a description reads at most 100000 links",
        "… 386 more lines left out: a description stops at 200",
        "its resolve function was released uncalled, so nothing can resolve it",
        "its resolver was released without settling it, so nothing can",
        "its input has arrived; its handler is queued or running",
        "map at App/Parser.swift:4",
        "pending", "fulfilled", "resolved", "rejected:", "cancelled",
    ]

    @Test func everyLineTheTableQuotesIsOneADescriptionWrites() throws {
        let rows = try Guide.read().section("Reading a description").filter { $0.hasPrefix("| `") }
        #expect(rows.count >= 10, "the table of Reading a description was not found")
        let written = Specimens.written
        var tabled: [String] = []
        for row in rows {
            let columns = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let first = try #require(
                columns.first?.split(separator: "`", omittingEmptySubsequences: false).dropFirst().first)
            // The second column quotes variants, such as a guarantee's, in double quotes or as
            // code; a span without a space names code, such as `when`.
            let variants = columns.dropFirst().flatMap { column in
                ["\"", "`"].flatMap { mark in
                    column.split(separator: Character(mark), omittingEmptySubsequences: false).enumerated()
                        .filter { $0.offset % 2 == 1 }.map { String($0.element) }
                }
            }.filter { $0.contains(" ") }
            let quotes = [String(first)] + variants
            for quote in quotes {
                let wanted = Guide.anySite(quote)
                let found = written.contains { $0.hasSuffix(wanted) }
                #expect(found, "no description writes a line ending in '\(quote)'")
            }
            tabled += quotes.map { Guide.anyStep(Guide.anySite($0)) }
        }
        // And the other way round: what a pending box waits on, as these chains write it, is
        // in the table, whatever the counts and the steps it names.
        let notes = Set(
            written.compactMap { line in
                line.range(of: ", pending: ").map { Guide.anyStep(String(line[$0.upperBound...])) }
            })
        for note in notes.sorted() {
            let listed = tabled.contains { note.hasSuffix($0) }
            #expect(listed, "the table does not list '\(note)'")
        }
    }

    @Test func theReportItShowsIsWhatTheLogHandlerPrints() throws {
        let shown = try Guide.read().block("text", in: "Why does my script hang?")
        let (download, resolver) = Promise<Data>.pending()
        let text = download.map { String(decoding: $0, as: UTF8.self) }
        let stuck = StuckWait(
            operation: "hang(_:)", site: CreationSite(fileID: "App/main.swift", line: 14), threshold: 10,
            chain: text.chainDescription)
        let printed = Configuration.printed(.report(stuck)).split(separator: "\n").map(String.init)
        let (expected, actual) = (shown.map(Guide.anySite), printed.map(Guide.anySite))
        #expect(actual == expected)
        resolver.fulfill(Data())
    }

    @Test func everyLineItsProseQuotesIsOneVowWrites() throws {
        // A code span may wrap across lines of the guide.
        let guide = try Guide.read().text.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: #" {2,}"#, with: " ", options: .regularExpression)
        let written = Specimens.written + [Specimens.failureOrigin()]
        for quote in Self.proseQuotes {
            let quoted = guide.contains("`\(quote)`")
            #expect(quoted, "the guide no longer quotes '\(quote)': update the list")
            let wanted = Guide.anySite(quote)
            let found = written.contains { $0.contains(wanted) }
            #expect(found, "nothing Vow writes contains '\(quote)'")
        }
    }
}

/// Debugging.md, and the parts of it the tests read.
private struct Guide {
    let text: String

    static func read() throws -> Guide {
        // Tests/VowTests/Debugging/ThisFile.swift, four folders below the checkout.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return Guide(
            text: try String(
                contentsOf: root.appendingPathComponent("Documentation/Debugging.md"), encoding: .utf8))
    }

    /// The lines of the section headed `heading`.
    func section(_ heading: String) -> [String] {
        var inside = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") {
                inside = line == "## \(heading)"
            } else if inside {
                lines.append(line)
            }
        }
        return lines
    }

    /// The lines of the first block fenced as `language` in the section headed `heading`.
    func block(_ language: String, in heading: String) throws -> [String] {
        let lines = section(heading)
        let start = try #require(lines.firstIndex(of: "```\(language)"), "no \(language) block in \(heading)")
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"))
        return Array(lines[(start + 1)..<end])
    }

    /// `text`, whose sites are placeholders already, with every count and every step that
    /// another waits on written as one placeholder.
    static func anyStep(_ text: String) -> String {
        text.replacingOccurrences(of: "[0-9]+", with: "N", options: .regularExpression)
            .replacingOccurrences(
                of: "waits on .+? at FILE:LINE", with: "waits on STEP at FILE:LINE",
                options: .regularExpression)
    }

    /// `text` with every site, such as `App/main.swift:3`, written as one placeholder.
    static func anySite(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"[A-Za-z0-9_./+-]+\.swift:[0-9]+"#, with: "FILE:LINE", options: .regularExpression)
    }
}

/// One chain of each shape the guide describes, and the lines their descriptions write, every
/// site replaced; each chain is settled or cancelled before `lines()` returns.
private enum Specimens {
    /// The lines, written once for the tests that read them.
    static let written = lines()

    private static func lines() -> [String] {
        var described: [String] = []
        var settle: [() -> Void] = []

        // A pending path down to a root whose resolver is held; a guarantee's too.
        let (root, resolver) = Promise<Int>.pending()
        described.append(root.map(on: nil) { $0 }.chainDescription)
        let (guaranteed, resolve) = Guarantee<Int>.pending()
        described.append(guaranteed.chainDescription)
        settle.append { resolve(1) }

        // A step whose input arrived and whose handler waits for its queue.
        let dispatcher = ManualDispatcher()
        described.append(Promise.value(1).map(on: dispatcher) { $0 }.chainDescription)
        settle.append { _ = dispatcher.runAll() }

        // A combinator with two pending inputs; two of its inputs share a step.
        let shared = root.map(on: nil) { $0 }
        described.append(
            when(fulfilled: [shared.map(on: nil) { $0 }, shared.map(on: nil) { $0 }]).chainDescription)

        // A timer that a cancellation stops, a lazy promise, a shared lookup.
        let clock = ManualClock()
        described.append(root.timeout(.seconds(5), clock: clock).chainDescription)
        let lazy = Promise<Int>.lazy { $0.fulfill(1) }
        described.append(lazy.chainDescription)
        described.append(PromiseCache<Int, Int> { _ in root }.value(for: 1).chainDescription)

        // Work Vow runs for the promise, not yet done.
        let gate = DispatchSemaphore(value: 0)
        let working = DispatchQueue.global().async(.promise) { gate.wait() }
        described.append(working.chainDescription)
        settle.append {
            gate.signal()
            working.wait()
        }

        // A cycle along the path, and one through a combinator's input.
        described.append(contentsOf: cycles())

        // A long path, a wide tree, and a path longer than a description reads.
        var long = root
        for _ in 0..<100 { long = long.map(on: nil) { $0 } }
        described.append(long.chainDescription)
        let tree = when(
            fulfilled: (0..<8).map { _ in
                when(
                    fulfilled: (0..<8).map { _ in
                        when(fulfilled: (0..<8).map { _ in root.map(on: nil) { $0 } })
                    })
            })
        described.append(tree.chainDescription)
        var longest = root
        for _ in 0..<(ChainDescription.maximumLinks + 1) { longest = longest.map(on: nil) { $0 } }
        described.append(longest.chainDescription)

        // Each way to have settled, and the dropped resolvers.
        let (rejected, rejecter) = Promise<Int>.pending()
        rejecter.reject(TestError.boom)
        described += [rejected, Promise.value(1)].map(\.chainDescription)
        described.append(Guarantee.value(1).chainDescription)
        described += droppedResolvers()

        resolver.fulfill(1)
        for step in settle { step() }
        return described.flatMap { $0.split(separator: "\n").map { Guide.anySite(String($0)) } }
    }

    /// A promise and a guarantee whose resolvers were dropped: the guarantee as it stays, the
    /// promise as the log handler sees it when Vow reports the drop, and after.
    private static func droppedResolvers() -> [String] {
        let ((dropped, _), _) = expectingLeakReport(Guarantee<Int>.pending())
        let seen = Locked<String?>(nil)
        let held = Locked<Promise<Int>?>(nil)
        let line = #line + 1
        var pair: (Promise<Int>, Resolver<Int>)? = Promise<Int>.pending()
        LeakReports.shared.expect(CreationSite(fileID: #fileID, line: line)) {
            let description = held.withLock { $0 }?.chainDescription
            seen.withLock { $0 = description }
        }
        held.withLock { $0 = pair?.0 }
        pair = nil
        let reported = seen.withLock { $0 }
        let after = held.withLock { promise in
            defer { promise = nil }
            return promise?.chainDescription
        }
        return [dropped.chainDescription, reported ?? "", after ?? ""]
    }

    /// Two promises that wait on each other, and a combinator whose input waits on it; both
    /// cancelled once described, since a cycle left pending keeps itself alive.
    private static func cycles() -> [String] {
        let later = Locked<Promise<Int>?>(nil)
        let laterAll = Locked<Promise<[Int]>?>(nil)
        let (gate, opener) = Promise<Void>.pending()
        let echo = gate.then(on: nil) { later.withLock { $0! } }.map(on: nil) { $0 }
        later.withLock { $0 = echo }
        let all = when(fulfilled: [gate.then(on: nil) { laterAll.withLock { $0! }.map(on: nil) { $0.count } }]
        )
        laterAll.withLock { $0 = all }
        opener.fulfill(())
        defer {
            echo.cancel()
            all.cancel()
        }
        return [echo.chainDescription, all.chainDescription]
    }

    /// A failure's origin, as `FailureOrigin.description` writes it.
    static func failureOrigin() -> String {
        let failed = Promise.value(1).map(on: nil) { (_: Int) -> Int in throw TestError.boom }
        return Guide.anySite(failed.failureOrigin.map(String.init(describing:)) ?? "")
    }
}
