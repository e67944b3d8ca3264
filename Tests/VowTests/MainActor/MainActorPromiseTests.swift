import Dispatch
import Foundation
import Testing
import Vow

/// A value that is not `Sendable`: a class with mutable state, as app code is full of.
final class Draft {
    var words: [String]

    init(_ words: String...) {
        self.words = words
    }
}

/// A `@MainActor` model that keeps its drafts in main-actor promises and records where each
/// handler ran.
@MainActor final class DraftDesk {
    var visited: [String] = []
    var offMainQueue: [String] = []
    let desk = Draft("desk")

    func touch(_ name: String) {
        MainActor.assertIsolated()
        if !isOnMainQueue() { offMainQueue.append(name) }
        visited.append(name)
    }
}

/// Every operator of a main-actor promise carries a value that is not `Sendable`, runs its
/// handler on the main actor, and keeps the value the very object it was.
@Suite struct MainActorPromiseTests {
    @Test @MainActor func theValueOperatorsCarryTheSameObjectOnTheMainActor() async throws {
        let desk = DraftDesk()
        let draft = Draft("first")
        let chain = MainActorPromise.value(draft)
            .map { value -> Draft in
                desk.touch("map")
                value.words.append("map")
                return value
            }
            .then { value -> MainActorPromise<Draft> in
                desk.touch("then")
                value.words.append("then")
                return .value(value)
            }
            .then { value -> MainActorGuarantee<Draft> in
                desk.touch("then(guarantee)")
                return .value(value)
            }
            .compactMap { value -> Draft? in
                desk.touch("compactMap")
                return value
            }
            .get { value in
                desk.touch("get")
                value.words.append("get")
            }
            .tap { result in
                desk.touch("tap")
                if case .success(let value) = result { value.words.append("tap") }
            }
        let finished = try await chain.async()
        #expect(finished === draft)
        #expect(draft.words == ["first", "map", "then", "get", "tap"])
        #expect(desk.visited == ["map", "then", "then(guarantee)", "compactMap", "get", "tap"])
        #expect(desk.offMainQueue.isEmpty)
    }

    @Test @MainActor func handlersCaptureStateThatIsNotSendable() async throws {
        let notes = Draft()
        let done = MainActorPromise.value(Draft("a", "b")).done { value in notes.words += value.words }
        try await done.async()
        #expect(notes.words == ["a", "b"])
    }

    @Test @MainActor func aHandlerNeverRunsInsideTheCallThatAttachedIt() async throws {
        let desk = DraftDesk()
        let done = MainActorPromise.value(Draft()).done { _ in desk.touch("done") }
        #expect(desk.visited.isEmpty)
        try await done.async()
        #expect(desk.visited == ["done"])
    }

    @Test @MainActor func aPendingPromiseSettlesThroughItsResolverFromAnotherThread() async throws {
        let (promise, resolver) = MainActorPromise<Draft>.pending()
        DispatchQueue.global().async {
            Task { @MainActor in resolver.fulfill(Draft("late")) }
        }
        #expect(try await promise.async().words == ["late"])
    }

    @Test @MainActor func theInitializerRunsItsBodyAtOnceAndAThrowRejects() async {
        var ran = false
        let promise = MainActorPromise<Draft> { _ in
            ran = true
            throw TestError.boom
        }
        #expect(ran)
        #expect(await settled(promise).failure as? TestError == .boom)
    }

    @Test @MainActor func aSharedPromiseComesInAndASendableValueGoesBackOut() async throws {
        let shared = Promise<Int>.pending()
        let drafted = MainActorPromise(shared.promise).map { count in
            Draft(String(repeating: "w", count: count))
        }
        let counted = Promise(drafted.map { $0.words[0].count })
        DispatchQueue.global().async { shared.resolver.fulfill(3) }
        #expect(try await counted.async() == 3)

        let guaranteed = Guarantee(MainActorGuarantee(Guarantee.value(2)).map { Draft("\($0)") }.map(\.words))
        #expect(await guaranteed.async() == ["2"])
    }

    @Test @MainActor func aTransformReturningNilRejectsNamingTheInput() async {
        let rejected = MainActorPromise.value(Draft("x")).compactMap { _ -> Int? in nil }
        do {
            _ = try await rejected.async()
            Issue.record("a nil transform fulfilled")
        } catch let PromiseError.compactMap(value, type) {
            #expect((value as? String)?.contains("Draft") == true)
            #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        } catch {
            Issue.record("rejected with \(error)")
        }
    }

    @Test @MainActor func errorsReachRecoverEnsureAndCatchOnTheMainActor() async throws {
        let desk = DraftDesk()
        let failing = MainActorPromise<Draft>(error: TestError.boom)
        let recovered = failing.recover { error -> MainActorPromise<Draft> in
            desk.touch("recover")
            #expect(error as? TestError == .boom)
            return .value(Draft("recovered"))
        }
        .ensure { desk.touch("ensure") }
        #expect(try await recovered.async().words == ["recovered"])

        let guaranteed = failing.recover { _ in
            desk.touch("recover(guarantee)")
            return MainActorGuarantee.value(Draft("fallback"))
        }
        #expect(await guaranteed.async().words == ["fallback"])

        let caught = Guarantee<Void>.pending()
        failing.catch { _ in
            desk.touch("catch")
            caught.resolve(())
        }
        await caught.guarantee.async()
        #expect(desk.visited == ["recover", "ensure", "recover(guarantee)", "catch"])
        #expect(desk.offMainQueue.isEmpty)
    }

    @Test @MainActor func aRecoverPolicyLeavesCancellationAlone() async {
        let (promise, resolver) = MainActorPromise<Draft>.pending()
        let recovered = promise.recover { _ in .value(Draft("recovered")) }
            .recover(policy: .allErrorsExceptCancellation) { _ in .value(Draft("never")) }
        promise.cancel()
        #expect(await settled(recovered).isCancellation)
        resolver.fulfill(Draft("late"))
        #expect(await settled(promise).isCancellation, "the cancellation settled it first")
    }

    @Test @MainActor func cancellingTheLastStepCancelsSharedWorkNothingElseWaitsOn() async {
        let (step, resolver) = { () -> (MainActorPromise<Draft>, Resolver<Int>) in
            let (source, resolver) = Promise<Int>.pending()
            return (MainActorPromise(source).map { Draft("\($0)") }, resolver)
        }()
        step.cancel()
        #expect(resolver.isCancelled, "the source had no other consumer and no handle")
        #expect(await settled(step).isCancellation)

        let (kept, keptResolver) = Promise<Int>.pending()
        let other = MainActorPromise(kept).map { Draft("\($0)") }
        other.cancel()
        #expect(kept.isPending, "a handle to the source keeps it, as for any step")
        #expect(!keptResolver.isCancelled)
        keptResolver.fulfill(1)
        #expect(await settled(other).isCancellation)
    }

    @Test @MainActor func cancellingAStepFreesWhatItsHandlerCapturedAtOnce() {
        weak var captured: Draft?
        let (source, resolver) = MainActorPromise<Int>.pending()
        do {
            let draft = Draft("captured")
            captured = draft
            let step = source.map { _ in draft.words.count }
            step.cancel()
        }
        #expect(captured == nil, "the withdrawn handler still holds what it captured")
        #expect(source.isPending, "a handle keeps the source")
        resolver.fulfill(1)
    }

    /// Its doc comment once named the promise's event; the guarantee's is the one logged.
    @Test @MainActor func aGuaranteesDroppedResolveFunctionIsReportedAsAGuaranteesLeak() {
        var line = 0
        let events = LeakReports.shared.capturing {
            line = #line + 1
            let (guarantee, resolve) = MainActorGuarantee<Draft>.pending()
            _ = resolve
            _ = guarantee
        }
        let site = CreationSite(fileID: #fileID, line: line)
        let guarantees = events.filter {
            if case .pendingGuaranteeDeallocated(site) = $0 { true } else { false }
        }
        let promises = events.filter {
            if case .pendingPromiseDeallocated(site) = $0 { true } else { false }
        }
        #expect(guarantees.count == 1, "\(events)")
        #expect(promises.isEmpty, "\(events)")
    }

    @Test @MainActor func aGuaranteesOperatorsRunOnTheMainActor() async throws {
        let desk = DraftDesk()
        let (guarantee, resolve) = MainActorGuarantee<Draft>.pending()
        let chain = guarantee.map { value -> Draft in
            desk.touch("map")
            value.words.append("map")
            return value
        }
        .get { _ in desk.touch("get") }
        .then { value -> MainActorGuarantee<Draft> in
            desk.touch("then")
            return .value(value)
        }
        let done = chain.done { _ in desk.touch("done") }
        let promised = chain.then { value -> MainActorPromise<Int> in
            desk.touch("then(promise)")
            return .value(value.words.count)
        }
        DispatchQueue.global().async {
            Task { @MainActor in resolve(Draft("g")) }
        }
        await done.async()
        #expect(try await promised.async() == 2)
        #expect(desk.visited == ["map", "get", "then", "done", "then(promise)"])
        #expect(desk.offMainQueue.isEmpty)
    }

    @Test @MainActor func whenGathersTheValuesInOrderAndRaceTakesTheFirst() async throws {
        let (slow, slowResolver) = MainActorPromise<Draft>.pending()
        let fast = Draft("fast")
        let both = when(fulfilled: [slow, MainActorPromise.value(fast)])
        let pair = when(fulfilled: MainActorPromise.value(fast), MainActorPromise.value(1))
        let winner = race(slow, MainActorPromise.value(fast))
        #expect(try await winner.async() === fast)
        let late = Draft("slow")
        slowResolver.fulfill(late)
        let gathered = try await both.async()
        #expect(gathered.count == 2 && gathered[0] === late && gathered[1] === fast)
        let (first, second) = try await pair.async()
        #expect(first === fast && second == 1)
    }

    @Test @MainActor func whenRejectsWithTheFirstErrorAndAnEmptyRaceIsBadInput() async {
        let (pending, resolver) = MainActorPromise<Draft>.pending()
        let rejected = when(fulfilled: [pending, MainActorPromise(error: TestError.boom)])
        #expect(await settled(rejected).failure as? TestError == .boom)
        resolver.fulfill(Draft())
        guard case .badInput? = await settled(race([MainActorPromise<Draft>]())).failure as? PromiseError
        else {
            Issue.record("an empty race did not reject with badInput")
            return
        }
    }

    @Test @MainActor func readingTheResultWaitsForNothing() async throws {
        let (promise, resolver) = MainActorPromise<Draft>.pending()
        #expect(promise.isPending)
        #expect(promise.result == nil)
        let draft = Draft("now")
        resolver.fulfill(draft)
        #expect(promise.value === draft)
        #expect(!promise.isPending)
        resolver.reject(TestError.boom)
        #expect(promise.value === draft, "the first settlement wins")
    }
}

/// How `promise` settled, once it has.
@MainActor func settled<T>(_ promise: MainActorPromise<T>) async -> Result<T, any Error> {
    do {
        return .success(try await promise.async())
    } catch {
        return .failure(error)
    }
}

extension Result {
    /// The error of a rejection, or `nil`.
    var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
