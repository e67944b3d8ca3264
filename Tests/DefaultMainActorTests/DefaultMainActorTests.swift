// This target is built as a new Xcode 26 app project builds its code: every declaration is
// main-actor isolated unless it says otherwise (`.defaultIsolation(MainActor.self)`), with the
// "approachable concurrency" upcoming features, `NonisolatedNonsendingByDefault` and
// `InferIsolatedConformances`. Each test is written as app code would be, with no annotation
// beyond those Troubleshooting.md gives for this setting; that the target compiles with no
// warning is half of what it checks.
import Dispatch
import Foundation
import Synchronization
import Testing
import Vow

/// An error of the app's, cancellable by its own rule, written with no annotation: a
/// conformance to a protocol that refines `Sendable`, as `Error` does, is not inferred
/// main-actor isolated, so Vow may read `isCancelled` on any thread.
struct RequestError: CancellableError, Equatable {
    var isCancelled: Bool
}

/// A dispatcher of the app's, which runs work on a queue of its own and counts it. `Dispatcher`
/// is `Sendable`, so the class is too, and its mutable state needs a lock or an atomic
/// (Troubleshooting: "stored property … of 'Sendable'-conforming class … is mutable").
final class BackgroundDispatcher: Dispatcher {
    let queue = DispatchQueue(label: "app.background")
    let dispatched = Atomic(0)

    func dispatch(_ work: @escaping @Sendable () -> Void) {
        dispatched.wrappingAdd(1, ordering: .relaxed)
        queue.async(execute: work)
    }
}

/// A record the app decodes off the main actor: `nonisolated`, because in this module its
/// `Codable` conformance would otherwise be main-actor isolated (Troubleshooting: "main
/// actor-isolated conformance of 'Headline' to 'Decodable' cannot be used in nonisolated
/// context").
nonisolated struct Headline: Codable, Equatable {
    var title: String
}

/// Decoding, which belongs off the main actor: `nonisolated`, or a handler given `on:` could
/// not call it (Troubleshooting: "call to main actor-isolated global function 'decodeHeadline'
/// in a synchronous nonisolated context").
nonisolated func decodeHeadline(_ data: Data) throws -> Headline {
    try JSONDecoder().decode(Headline.self, from: data)
}

/// A view model, main-actor isolated by default, whose handlers touch its state directly.
final class FeedModel {
    var titles: [String] = []
    var steps: [String] = []
    var failure: (any Error)?

    func record(_ step: String) {
        MainActor.assertIsolated()
        steps.append(step)
    }

    /// The value operators: each handler touches the model.
    func loadTitles(_ fetched: Promise<[String]>) -> Promise<Void> {
        fetched.map { titles in
            self.record("map")
            return titles.map { $0.uppercased() }
        }.compactMap { titles -> [String]? in
            self.record("compactMap")
            return titles
        }.then { titles -> Promise<[String]> in
            self.record("then")
            return Promise.value(titles)
        }.get { _ in
            self.record("get")
        }.tap { _ in
            self.record("tap")
        }.mapValues { title -> String in
            title + "!"
        }.filterValues { title in
            !title.isEmpty
        }.sortedValues { lhs, rhs in
            lhs < rhs
        }.done { titles in
            self.record("done")
            self.titles = titles
        }
    }

    /// The error operators.
    func recoverFrom(_ failing: Promise<Int>) -> Guarantee<Int> {
        failing.recover { error -> Promise<Int> in
            self.record("recover")
            throw error
        }.ensure {
            self.record("ensure")
        }.ensureThen {
            self.record("ensureThen")
            return Guarantee()
        }.recover { error -> Guarantee<Int> in
            self.failure = error
            return Guarantee.value(-1)
        }
    }

    /// A chain ending in `catch` and `finally`.
    func finish(_ failing: Promise<Int>) -> Guarantee<Void> {
        failing.done { _ in
            self.record("never")
        }.catch { error in
            self.record("catch")
            self.failure = error
        }.finally {
            self.record("finally")
        }
    }
}

@Suite struct DefaultMainActorTests {
    @Test func everyValueOperatorRunsOnTheMainActorAndTouchesTheModel() async throws {
        let model = FeedModel()
        let (fetched, resolver) = Promise<[String]>.pending()
        let loaded = model.loadTitles(fetched)
        DispatchQueue.global().async { resolver.fulfill(["b", "a"]) }
        try await loaded.async()
        #expect(model.titles == ["A!", "B!"])
        #expect(model.steps == ["map", "compactMap", "then", "get", "tap", "done"])
    }

    @Test func theErrorOperatorsRunOnTheMainActor() async {
        let model = FeedModel()
        let recovered = await model.recoverFrom(Promise(error: RequestError(isCancelled: false))).async()
        #expect(recovered == -1)
        #expect(model.failure as? RequestError == RequestError(isCancelled: false))
        #expect(model.steps == ["recover", "ensure", "ensureThen"])
        await model.finish(Promise(error: RequestError(isCancelled: false))).async()
        #expect(model.steps.suffix(2) == ["catch", "finally"])
    }

    @Test func aCancellableErrorOfTheAppsIsACancellation() async {
        let model = FeedModel()
        // `catch` skips cancellations by default, so only `finally` runs.
        await model.finish(Promise(error: RequestError(isCancelled: true))).async()
        #expect(model.steps == ["finally"])
        #expect(model.failure == nil)
    }

    @Test func aHandlerGivenOnIsNonisolatedAndRunsWhereItSays() async throws {
        let background = DispatchQueue(label: "app.decode")
        let onMain = try await Promise.value(1).map(on: background) { _ in
            Thread.isMainThread
        }.async()
        #expect(!onMain)
        let dispatcher = BackgroundDispatcher()
        let viaDispatcher = try await Promise.value(2).map(on: dispatcher) { $0 * 2 }.async()
        #expect(viaDispatcher == 4)
        #expect(dispatcher.dispatched.load(ordering: .relaxed) == 1)
    }

    @Test func decodingRunsOffTheMainActorAndTheResultLandsOnIt() async throws {
        let model = FeedModel()
        let data = Data(#"{"title":"Vow"}"#.utf8)
        try await Promise.value(data).map(on: .global()) { data in
            try decodeHeadline(data)
        }.done { headline in
            model.titles.append(headline.title)
        }.async()
        #expect(model.titles == ["Vow"])
    }

    @Test func theFreeFunctionsCompose() async throws {
        let model = FeedModel()
        let both = try await when(fulfilled: Promise.value(1), Promise.value("one")).async()
        #expect(both.0 == 1 && both.1 == "one")
        let first = try await race(Promise.value(1), after(seconds: 5).map { 2 }).async()
        #expect(first == 1)
        let started = try await firstly {
            model.record("firstly")
            return Promise.value(3)
        }.async()
        #expect(started == 3)
        let sum = try await reduce([1, 2, 3], 0) { total, value in
            Promise.value(total + value)
        }.async()
        #expect(sum == 6)
        let doubled = try await map([1, 2], as: .parallel) { value in
            Promise.value(value * 2)
        }.async()
        #expect(doubled == [2, 4])
        let attempts = try await retry(attempts: 2) { Promise.value(4) }.async()
        #expect(attempts == 4)
        let (slow, resolver) = Promise<Int>.pending()
        let late = slow.timeout(seconds: 0.01)
        await #expect(throws: PromiseError.self) { try await late.async() }
        resolver.fulfill(0)
        #expect(model.steps == ["firstly"])
    }

    @Test func theAsyncBridgesWorkBothWays() async throws {
        let model = FeedModel()
        let fromAsync = Promise { () async throws -> Int in
            model.record("async body")
            return 5
        }
        #expect(try await fromAsync.async() == 5)
        let fromQueue = await DispatchQueue.global().async(.promise) { 6 }.async()
        #expect(fromQueue == 6)
        var seen: [Int] = []
        for await result in [Promise.value(7), Promise.value(8)].resolutions {
            if case .success(let value) = result { seen.append(value) }
        }
        #expect(seen.sorted() == [7, 8])
        #expect(model.steps == ["async body"])
    }

    @Test func aGuaranteeChainRunsOnTheMainActor() async {
        let model = FeedModel()
        let shown = await Guarantee.value(2).map { value -> Int in
            model.record("guarantee.map")
            return value * 3
        }.then { value in
            Guarantee.value(value + 1)
        }.get { _ in
            model.record("guarantee.get")
        }.async()
        #expect(shown == 7)
        #expect(model.steps == ["guarantee.map", "guarantee.get"])
    }

    @Test func aValueThatIsNotSendableTravelsInAMainActorPromise() async throws {
        let model = FeedModel()
        // In this module every class is main-actor isolated, and so `Sendable`; a class that
        // opts out, as a wrapper of a framework's object would, is what needs the main-actor
        // promise.
        nonisolated final class Draft {
            var lines: [String] = []
        }
        let drafted = MainActorPromise(Promise.value("first")).map { line -> Draft in
            model.record("main.map")
            let draft = Draft()
            draft.lines.append(line)
            return draft
        }.get { draft in
            model.record("main.get")
            draft.lines.append("second")
        }
        let lines = try await drafted.map(\.lines).async()
        #expect(lines == ["first", "second"])
        #expect(model.steps == ["main.map", "main.get"])
    }
}
