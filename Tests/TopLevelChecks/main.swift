// Top-level code is main-actor isolated in the Swift 6 mode, and a test file is not top-level
// code, so this executable is where every operator is written the way a script writes it: with
// no annotation, touching top-level state. CI runs it; it exits non-zero if a handler ran off
// the main actor, ran twice, or never ran.
import Dispatch
import Foundation
import Vow

var visited: [String] = []
var offMainActor: [String] = []

/// Whether the main queue, the main actor's executor, runs this code. After `dispatchMain()` a
/// thread other than the main thread drains that queue, so the queue is what is checked.
let mainQueueKey = DispatchSpecificKey<Bool>()
DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)

// A function declared at top level is nonisolated, unlike the variables beside it, so the one
// that touches them says `@MainActor`; the handlers calling it need nothing.
@MainActor func touch(_ name: String) {
    MainActor.assertIsolated()
    if DispatchQueue.getSpecific(key: mainQueueKey) != true && !Thread.isMainThread {
        offMainActor.append(name)
    }
    visited.append(name)
}

struct Missing: Error {}

let failing = Promise<Int>(error: Missing())

let values = firstly { () -> Promise<Int> in
    touch("firstly")
    return Promise.value(1)
}.then { value -> Promise<Int> in
    touch("then")
    return Promise.value(value + 1)
}.map { value in
    touch("map")
    return value * 10
}.compactMap { value -> Int? in
    touch("compactMap")
    return value
}.get { _ in
    touch("get")
}.tap { _ in
    touch("tap")
}

let sequences = values.map { [$0] }.mapValues { value -> Int in
    touch("mapValues")
    return value
}.flatMapValues { value -> [Int] in
    touch("flatMapValues")
    return [value]
}.compactMapValues { value -> Int? in
    touch("compactMapValues")
    return value
}.filterValues { _ in
    touch("filterValues")
    return true
}.map { $0 + [0] }.sortedValues { lhs, rhs in
    touch("sortedValues")
    return lhs < rhs
}.firstValue { _ in
    touch("firstValue")
    return true
}.map { [$0] }.thenMap { value -> Promise<Int> in
    touch("thenMap")
    return Promise.value(value)
}.thenFlatMap { value -> Promise<[Int]> in
    touch("thenFlatMap")
    return Promise.value([value])
}.done { _ in
    touch("done")
}

let recoveries = sequences.then { failing }.recover { _ -> Promise<Int> in
    touch("recover")
    return failing
}.recover { _ -> Guarantee<Int> in
    touch("recover(guarantee)")
    return Guarantee.value(0)
}.then { _ in
    failing.ensure {
        touch("ensure")
    }.ensureThen {
        touch("ensureThen")
        return Guarantee()
    }.catch { _ in
        touch("catch")
    }.finally {
        touch("finally")
    }
}.then {
    Guarantee.value(1).map { value -> Int in
        touch("guarantee.map")
        return value
    }.done { _ in
        touch("guarantee.done")
    }
}

hang(recoveries)

// A script's values that are not `Sendable` travel in main-actor promises: a class with mutable
// state, passed from step to step and captured by the handlers, all with no annotation.
final class Sheet {
    var lines: [String] = []
}

let sheet = Sheet()
let drafted = firstly {
    MainActorPromise(Promise.value(2))
}.map { count -> Sheet in
    touch("main.map")
    let drafted = Sheet()
    drafted.lines = Array(repeating: "line", count: count)
    return drafted
}.then { drafted -> MainActorPromise<Sheet> in
    touch("main.then")
    drafted.lines.append("then")
    return .value(drafted)
}.get { drafted in
    touch("main.get")
    sheet.lines = drafted.lines
}
let finished = try hang(drafted)
let recovered = MainActorPromise<Sheet>(error: Missing()).recover { _ -> MainActorGuarantee<Sheet> in
    touch("main.recover")
    return .value(finished)
}.wait()
if recovered !== finished || sheet.lines != ["line", "line", "then"] {
    FileHandle.standardError.write(Data("top-level checks: a main-actor promise lost its value\n".utf8))
    exit(1)
}

let expected = [
    "firstly", "then", "map", "compactMap", "get", "tap", "mapValues", "flatMapValues", "compactMapValues",
    "filterValues", "sortedValues", "firstValue", "thenMap", "thenFlatMap", "done", "recover",
    "recover(guarantee)", "ensure", "ensureThen", "catch", "finally", "guarantee.map", "guarantee.done",
    "main.map", "main.then", "main.get", "main.recover",
]
var failures: [String] = []
if visited != expected {
    failures.append("handlers ran as \(visited), expected \(expected)")
}
if !offMainActor.isEmpty {
    failures.append("handlers ran off the main actor: \(offMainActor)")
}
if failures.isEmpty {
    print("top-level checks: \(visited.count) handlers ran on the main actor, in order")
} else {
    FileHandle.standardError.write(Data(failures.map { "top-level checks: \($0)\n" }.joined().utf8))
    exit(1)
}
