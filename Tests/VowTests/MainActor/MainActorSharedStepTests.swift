import Dispatch
import Testing
import Vow

/// The operators of main-actor promises whose other side is shared work, or many promises at
/// once: `firstly`, `ensureThen`, `when(resolved:)`, `when(guarantees:)`, a `when` over
/// main-actor and shared promises together, `recover` to shared work, and a guarantee's `then`
/// to shared work.
@Suite struct MainActorSharedStepTests {
    @Test @MainActor func firstlyRunsItsBodyAtOnceAndAThrowRejects() async throws {
        var ran = false
        let started = firstly { () -> MainActorPromise<Draft> in
            ran = true
            return .value(Draft("first"))
        }
        #expect(ran, "the body runs in the call")
        #expect(try await started.async().words == ["first"])

        let thrown = firstly { () throws -> MainActorPromise<Draft> in throw TestError.boom }
        #expect(await settled(thrown).failure as? TestError == .boom)

        let draft = Draft("kept")
        let guaranteed = firstly { MainActorGuarantee.value(draft) }.map { $0.words.count }
        #expect(await guaranteed.async() == 1)
    }

    @Test @MainActor func ensureThenWaitsForItsGuaranteeAndPassesTheResultOn() async throws {
        let desk = DraftDesk()
        let (closing, close) = MainActorGuarantee<Void>.pending()
        let (entered, enter) = Guarantee<Void>.pending()
        let draft = Draft("x")
        let ensured = MainActorPromise.value(draft).ensureThen {
            desk.touch("ensureThen")
            enter(())
            return closing
        }
        let (sharedClosing, sharedClose) = Guarantee<Void>.pending()
        let (sharedEntered, sharedEnter) = Guarantee<Void>.pending()
        let failed = MainActorPromise<Draft>(error: TestError.boom).ensureThen {
            desk.touch("ensureThen(shared)")
            sharedEnter(())
            return sharedClosing
        }
        // Both handlers have run; neither step may settle before its guarantee resolves.
        await entered.async()
        await sharedEntered.async()
        #expect(desk.visited == ["ensureThen", "ensureThen(shared)"])
        #expect(ensured.isPending, "settled before the guarantee resolved")
        #expect(failed.isPending, "settled before the shared guarantee resolved")
        close(())
        DispatchQueue.global().async { sharedClose(()) }
        #expect(try await ensured.async() === draft)
        #expect(await settled(failed).failure as? TestError == .boom)
        #expect(desk.offMainQueue.isEmpty)
    }

    @Test @MainActor func whenResolvedReportsEveryResultInOrder() async {
        let (slow, slowResolver) = MainActorPromise<Draft>.pending()
        let fast = Draft("fast")
        let all = when(resolved: slow, MainActorPromise(error: TestError.boom), .value(fast))
        #expect(all.isPending, "one rejection ended the wait")
        let late = Draft("late")
        slowResolver.fulfill(late)
        let results = await all.async()
        #expect(results.count == 3)
        #expect((try? results[0].get()) === late)
        #expect(results[1].failure as? TestError == .boom)
        #expect((try? results[2].get()) === fast)
        #expect(await when(resolved: [MainActorPromise<Draft>]()).async().isEmpty)
    }

    @Test @MainActor func whenGuaranteesGathersEveryValueInOrder() async {
        let (slow, resolve) = MainActorGuarantee<Draft>.pending()
        let fast = Draft("fast")
        let all = when(guarantees: [slow, .value(fast)])
        let late = Draft("late")
        resolve(late)
        let values = await all.async()
        #expect(values.count == 2 && values[0] === late && values[1] === fast)
    }

    @Test @MainActor func aSharedPromiseJoinsAWhenOfMainActorPromisesThroughTheBridge() async throws {
        let (count, countResolver) = Promise<Int>.pending()
        let draft = Draft("mixed")
        let both = when(fulfilled: MainActorPromise.value(draft), MainActorPromise(count))
        DispatchQueue.global().async { countResolver.fulfill(2) }
        let (value, counted) = try await both.async()
        #expect(value === draft && counted == 2)

        let (rejected, rejecter) = Promise<Int>.pending()
        let (waiting, waiter) = MainActorPromise<Draft>.pending()
        let failing = when(fulfilled: waiting, MainActorPromise(rejected))
        DispatchQueue.global().async { rejecter.reject(TestError.boom) }
        #expect(await settled(failing).failure as? TestError == .boom)
        waiter.fulfill(draft)
    }

    @Test @MainActor func recoverTurnsToSharedWorkAndItsValueComesBack() async throws {
        let desk = DraftDesk()
        let failing = MainActorPromise<Int>(error: TestError.boom)
        let retried = failing.recover { error -> Promise<Int> in
            desk.touch("recover(shared)")
            #expect(error as? TestError == .boom)
            return Promise { seal in DispatchQueue.global().async { seal.fulfill(7) } }
        }
        #expect(try await retried.async() == 7)

        let rethrown = failing.recover { error -> Promise<Int> in throw error }
        #expect(await settled(rethrown).failure as? TestError == .boom)

        let kept = MainActorPromise<Int>(error: CancellationError())
            .recover(policy: .allErrorsExceptCancellation) { _ in Promise.value(1) }
        #expect(await settled(kept).failure is CancellationError, "the policy covers no cancellation")

        let total = failing.recover { _ -> Guarantee<Int> in
            desk.touch("recover(shared guarantee)")
            return .value(8)
        }
        #expect(await total.async() == 8)
        #expect(desk.visited == ["recover(shared)", "recover(shared guarantee)"])
        #expect(desk.offMainQueue.isEmpty)
    }

    @Test @MainActor func aGuaranteeTurnsToSharedWorkAndItsValueComesBack() async throws {
        let desk = DraftDesk()
        let draft = Draft("a", "b")
        let base = MainActorGuarantee.value(draft)
        let promised = base.then { value -> Promise<Int> in
            desk.touch("then(shared)")
            let count = value.words.count
            return Promise { seal in DispatchQueue.global().async { seal.fulfill(count) } }
        }
        #expect(try await promised.async() == 2)

        let guaranteed = base.then { value -> Guarantee<String> in
            desk.touch("then(shared guarantee)")
            return .value(value.words.joined())
        }
        .map { Draft($0) }
        #expect(await guaranteed.async().words == ["ab"])

        let thrown = base.then { _ -> Promise<Int> in throw TestError.boom }
        #expect(await settled(thrown).failure as? TestError == .boom)
        #expect(desk.visited == ["then(shared)", "then(shared guarantee)"])
        #expect(desk.offMainQueue.isEmpty)
    }
}
