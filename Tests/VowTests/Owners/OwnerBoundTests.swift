import Dispatch
import Testing
import Vow

/// A view-controller-like owner: main-actor state, handlers written in its methods.
@MainActor final class BoundScreen {
    var shown: [String] = []
    var errors: [TestError] = []
    var spinnerStops = 0

    func show(_ text: Promise<String>) -> Promise<Void> {
        text.done(owner: self) { screen, text in
            MainActor.assertIsolated()
            screen.shown.append(text)
        }
    }

    func showLength(_ text: Promise<String>) -> Promise<Int> {
        text.then(owner: self) { screen, text in
            screen.shown.append(text)
            return Promise.value(text.count)
        }.map(owner: self) { _, count in count * 10 }
    }

    func showOrFallBack(_ text: Promise<String>) -> Promise<String> {
        text.recover(owner: self) { screen, error in
            screen.errors.append(error as! TestError)
            return Guarantee.value("fallback")
        }.ensure(owner: self) { screen in
            screen.spinnerStops += 1
        }
    }

    func report(_ text: Promise<String>) -> Finalizer {
        text.done(owner: self) { screen, text in screen.shown.append(text) }
            .catch(owner: self) { screen, error in screen.errors.append(error as! TestError) }
    }
}

/// A service: an actor whose state the bound handlers touch without `await`.
actor Directory {
    var names: [Int: String] = [:]
    var failures = 0
    var inFlight = 0

    func name(_ id: Int, from source: Promise<String>) -> Promise<String> {
        inFlight += 1
        return source.map(owner: self) { directory, name in
            directory.assertIsolated()
            directory.names[id] = name
            return name.uppercased()
        }.ensure(owner: self) { directory in
            directory.inFlight -= 1
        }
    }

    func chained(_ source: Promise<String>) -> Promise<Int> {
        source.then(owner: self) { directory, name in
            directory.names[0] = name
            return Promise.value(name.count)
        }.recover(owner: self) { directory, _ in
            directory.failures += 1
            return Promise.value(-1)
        }
    }

    func store(_ source: Promise<String>) -> Finalizer {
        source.done(owner: self) { directory, name in directory.names[1] = name }
            .catch(owner: self) { directory, _ in directory.failures += 1 }
    }

    /// Callable without `await`: the body runs on the actor.
    nonisolated func cachedName(_ id: Int, orElse fetch: @escaping @Sendable () -> Promise<String>)
        -> Promise<String>
    {
        firstly(owner: self) { directory in
            directory.assertIsolated()
            if let name = directory.names[id] { return Promise.value(name) }
            return fetch().map(owner: directory) { directory, name in
                directory.names[id] = name
                return name
            }
        }
    }

    func snapshot() -> (names: [Int: String], failures: Int, inFlight: Int) {
        (names, failures, inFlight)
    }
}

@Suite struct OwnerBoundTests {
    @Test @MainActor func aMainActorOwnersHandlersRunOnTheMainActorWithTheOwner() async throws {
        let screen = BoundScreen()
        try await bounded { try await screen.show(.value("hello")).async() }
        #expect(screen.shown == ["hello"])
        #expect(try await bounded { try await screen.showLength(.value("four")).async() } == 40)
        #expect(screen.shown == ["hello", "four"])
    }

    @Test @MainActor func recoverAndEnsureGetTheOwner() async throws {
        let screen = BoundScreen()
        let result = screen.showOrFallBack(Promise(error: TestError.other))
        #expect(try await bounded { try await result.async() } == "fallback")
        #expect(screen.errors == [.other])
        #expect(screen.spinnerStops == 1)
    }

    @Test @MainActor func catchGetsTheOwner() async throws {
        let screen = BoundScreen()
        let (promise, resolver) = Promise<String>.pending()
        let finalizer = screen.report(promise)
        let ended = Guarantee<Void> { resolve in finalizer.finally { resolve(()) } }
        resolver.reject(TestError.boom)
        try await bounded { await ended.async() }
        #expect(screen.errors == [.boom])
    }

    @Test @MainActor func aPendingChainDoesNotKeepItsOwnerAlive() {
        let (promise, resolver) = Promise<String>.pending()
        weak var gone: BoundScreen?
        var chain: Promise<Void>?
        do {
            let screen = BoundScreen()
            gone = screen
            chain = screen.show(promise)
        }
        #expect(gone == nil, "the pending chain kept its owner")
        #expect(chain?.isPending == true)
        resolver.fulfill("settled, so that nothing is left pending")
    }

    @Test(arguments: OwnerGoneCase.allCases)
    @MainActor func onceTheOwnerIsGoneHandlersAreSkippedAndTheChainCancelled(_ step: OwnerGoneCase)
        async throws
    {
        let (promise, resolver) = Promise<String>.pending()
        let (chain, onGoneEnd) = step.attach(to: promise)
        let afterwards = Counter()
        let ending = chain.done(on: nil) { afterwards.increment() }
        resolver.resolve(step.input)
        let outcome = try await bounded { await ending.asResult() }
        #expect(outcome.isCancellation, "\(step): \(summary(outcome))")
        #expect(afterwards.value == 0)
        #expect(onGoneEnd() == 0, "\(step): the handler ran for an owner that was gone")
    }

    @Test @MainActor func aGoneOwnersCatchIsSkipped() async throws {
        let (promise, resolver) = Promise<String>.pending()
        var finalizer: Finalizer?
        weak var gone: BoundScreen?
        do {
            let screen = BoundScreen()
            gone = screen
            finalizer = screen.report(promise)
        }
        #expect(gone == nil)
        let ended = Guarantee<Void> { resolve in finalizer!.finally { resolve(()) } }
        resolver.reject(TestError.boom)
        try await bounded { await ended.async() }
    }

    @Test func anActorOwnersHandlersRunOnTheActor() async throws {
        let directory = Directory()
        let name = try await bounded { try await directory.name(7, from: .value("ada")).async() }
        #expect(name == "ADA")
        let state = await directory.snapshot()
        #expect(state.names == [7: "ada"])
        #expect(state.inFlight == 0)
        #expect(try await bounded { try await directory.chained(.value("grace")).async() } == 5)
        #expect(
            try await bounded { try await directory.chained(Promise(error: TestError.boom)).async() } == -1)
        #expect(await directory.snapshot().failures == 1)
    }

    @Test func anActorOwnersCatchRunsOnTheActor() async throws {
        let directory = Directory()
        let finalizer = await directory.store(Promise(error: TestError.boom))
        let ended = Guarantee<Void> { resolve in finalizer.finally { resolve(()) } }
        try await bounded { await ended.async() }
        #expect(await directory.snapshot().failures == 1)
    }

    @Test func onceAnActorOwnerIsGoneItsHandlersAreSkipped() async throws {
        let (promise, resolver) = Promise<String>.pending()
        weak var gone: Directory?
        var chain: Promise<String>?
        do {
            let directory = Directory()
            gone = directory
            chain = await directory.name(1, from: promise)
        }
        #expect(gone == nil, "the pending chain kept its actor")
        resolver.fulfill("late")
        let outcome = try await bounded { [chain] in await chain!.asResult() }
        #expect(outcome.isCancellation)
    }

    @Test func firstlyRunsItsBodyOnTheActorOwner() async throws {
        let directory = Directory()
        let fetches = Counter()
        let fetch: @Sendable () -> Promise<String> = {
            fetches.increment()
            return .value("turing")
        }
        #expect(try await bounded { try await directory.cachedName(3, orElse: fetch).async() } == "turing")
        #expect(try await bounded { try await directory.cachedName(3, orElse: fetch).async() } == "turing")
        #expect(fetches.value == 1)
    }

    @Test func aNonisolatedOwnerGetsItsHandlersOnTheDefaultQueue() async throws {
        final class Log: Sendable {
            let lines = Recorder<String>()
        }
        let log = Log()
        let done = Promise.value("line").done(owner: log) { log, line in
            #expect(isOnMainQueue(), "conf.Q.return is the main queue")
            log.lines.record(line)
        }
        try await bounded { try await done.async() }
        #expect(log.lines.all == ["line"])
    }
}

/// Each owner-bound operator, attached for an owner that is gone by the time its input
/// settles: the chain, and how many times the handler ran.
enum OwnerGoneCase: CaseIterable, Sendable {
    case then, map, done, recover, ensure

    var input: Result<String, any Error> {
        self == .recover ? .failure(TestError.boom) : .success("value")
    }

    func attach(to promise: Promise<String>) -> (Promise<Void>, () -> Int) {
        let runs = Counter()
        let chain: Promise<Void>
        do {
            let owner = Recorder<String>()
            switch self {
            case .then:
                chain = promise.then(owner: owner) { _, _ in
                    runs.increment(); return Promise.value(())
                }
            case .map: chain = promise.map(owner: owner) { _, _ in runs.increment() }
            case .done: chain = promise.done(owner: owner) { _, _ in runs.increment() }
            case .recover:
                chain = promise.recover(owner: owner) { _, _ in
                    runs.increment(); return Promise.value("")
                }.asVoid()
            case .ensure: chain = promise.ensure(owner: owner) { _ in runs.increment() }.asVoid()
            }
        }
        return (chain, { runs.value })
    }
}

extension Promise {
    /// The result, waited for without throwing.
    func asResult() async -> Result<T, any Error> {
        do { return .success(try await async()) } catch { return .failure(error) }
    }
}
