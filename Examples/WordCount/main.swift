// wordcount: reads text files concurrently and summarises them.
//
//     swift run wordcount                 # the package's own Sources directory
//     swift run wordcount README.md Docs  # files, or directories searched for text files
import Dispatch
import Foundation
import Vow

/// What one file contributed. A value type, so it can cross from the reading queues to the main one.
struct FileCount: Sendable {
    let path: String
    let lines: Int
    let words: Int
    let frequencies: [String: Int]
}

struct NoSuchPath: Error, CustomStringConvertible {
    let path: String
    var description: String { "no such file or directory: \(path)" }
}

/// Expands each root: a file stands for itself, a directory for the text files beneath it.
func textFiles(under roots: [String]) throws -> [String] {
    let textExtensions: Set<String> = ["swift", "md", "txt"]
    var files: [String] = []
    for root in roots {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw NoSuchPath(path: root)
        }
        guard isDirectory.boolValue else {
            files.append(root)
            continue
        }
        guard let walk = FileManager.default.enumerator(atPath: root) else { continue }
        while let relative = walk.nextObject() as? NSString {
            // Hidden entries are skipped so that `.build` and `.git` do not swamp a run on the package root.
            if relative.lastPathComponent.hasPrefix(".") {
                walk.skipDescendants()
            } else if textExtensions.contains(relative.pathExtension) {
                files.append((root as NSString).appendingPathComponent(relative as String))
            }
        }
    }
    return files
}

func count(_ path: String) throws -> FileCount {
    // Decoding leniently: one stray byte should not make a whole file unreadable.
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    let words = text.split { !$0.isLetter }.map { $0.lowercased() }
    let frequencies = words.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    let lines = text.utf8.count { $0 == UInt8(ascii: "\n") }
    return FileCount(path: path, lines: lines, words: words.count, frequencies: frequencies)
}

func summarise(_ counts: [FileCount]) -> String {
    guard !counts.isEmpty else { return "No .swift, .md or .txt files found." }
    func row(_ number: Int, _ label: String) -> String {
        String(repeating: " ", count: max(0, 8 - String(number).count)) + "\(number)  \(label)"
    }
    // Single letters are mostly generic parameters and the tails of contractions, not words.
    let frequencies = counts.reduce(into: [:]) { $0.merge($1.frequencies, uniquingKeysWith: +) }
        .filter { $0.key.count > 1 }
    // Ties are broken by name so that the output is the same on every run.
    let largest = counts.sorted { ($0.words, $1.path) > ($1.words, $0.path) }.prefix(5)
    let common = frequencies.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(10)
    return """
        \(counts.count) files, \(counts.reduce(0) { $0 + $1.lines }) lines, \
        \(counts.reduce(0) { $0 + $1.words }) words

        Largest files by words:
        \(largest.map { row($0.words, $0.path) }.joined(separator: "\n"))

        Most common words:
        \(common.map { row($0.value, $0.key) }.joined(separator: "\n"))
        """
}

let arguments = Array(CommandLine.arguments.dropFirst())
let roots =
    arguments.isEmpty ? [FileManager.default.fileExists(atPath: "Sources") ? "Sources" : "."] : arguments

let finished = firstly {
    // Walking a large tree is disk work too, so it leaves the main thread like the reads do.
    DispatchQueue.global().async(.promise) { try textFiles(under: roots) }
}.then { files in
    // The iterator is lazy, so a read starts only when one of the four slots is free: however
    // large the tree, no more than four files' text is in memory at once. This handler is
    // top-level code, so it runs on the main actor; the iterator leaves it for `when`, which is
    // why the closure inside it is `@Sendable` rather than main-actor isolated.
    let reads = files.lazy.map { @Sendable path in DispatchQueue.global().async(.promise) { try count(path) }
    }
    return when(fulfilled: reads.makeIterator(), concurrently: 4)
}.map(on: .global()) { counts in
    summarise(counts)
}.done { report in
    // `done` runs on the main queue by default; `hang` below keeps that queue serviced.
    print(report)
}

do {
    try hang(finished)
} catch {
    FileHandle.standardError.write(Data("wordcount: \(error)\n".utf8))
    exit(1)
}
