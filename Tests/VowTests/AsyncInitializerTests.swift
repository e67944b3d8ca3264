import Foundation
import Testing
import Vow

@Suite struct AsyncInitializerTests {
    // MARK: Promise { try await … }

    @Test func theReturnedValueFulfilsThePromise() async throws {
        let (gate, open) = Guarantee<Void>.pending()
        let promise = Promise {
            await gate.fulfilled
            return try await square(7)
        }
        // The operation cannot finish before the gate opens, so the promise waits for it.
        #expect(promise.isPending)
        open(())
        #expect(try await bounded { try await promise.fulfilled } == 49)
    }

    @Test func aThrowRejectsThePromise() async throws {
        let promise = Promise<Int> { throw TestError.boom }
        await #expect(throws: TestError.boom) {
            try await bounded { try await promise.fulfilled }
        }
        #expect(promise.error as? TestError == .boom)
    }

    @Test func aThrownCancellationErrorRejectsAsACancellation() async throws {
        let promise = Promise<Int> { throw CancellationError() }
        let error = await #expect(throws: CancellationError.self) {
            try await bounded { try await promise.fulfilled }
        }
        #expect(error?.isCancelled == true)
    }

    @Test func theOperationSeesTheTaskLocalValuesInScope() async throws {
        let promise = Trace.$label.withValue("outer") {
            Promise { Trace.label }
        }
        #expect(try await bounded { try await promise.fulfilled } == "outer")
    }

    @Test(arguments: [TaskPriority.low, .high])
    func theOperationRunsAtTheGivenPriority(priority: TaskPriority) async throws {
        let promise = Promise(priority: priority) { Task.currentPriority }
        #expect(try await bounded { try await promise.fulfilled } == priority)
    }

    @Test func theResultCanBeChainedLikeAnyPromise() async throws {
        let chained = Promise { try await square(3) }.map { $0 + 1 }
        #expect(try await bounded { try await chained.fulfilled } == 10)
    }

    // MARK: Guarantee { await … }

    @Test func theReturnedValueResolvesTheGuarantee() async throws {
        let (gate, open) = Guarantee<Void>.pending()
        let guarantee = Guarantee {
            await gate.fulfilled
            return "opened"
        }
        #expect(guarantee.isPending)
        open(())
        #expect(try await bounded { await guarantee.fulfilled } == "opened")
    }

    @Test func theGuaranteeOperationSeesTheTaskLocalValuesInScope() async throws {
        let guarantee = Trace.$label.withValue("outer") {
            Guarantee { Trace.label }
        }
        #expect(try await bounded { await guarantee.fulfilled } == "outer")
    }

    @Test(arguments: [TaskPriority.low, .high])
    func theGuaranteeOperationRunsAtTheGivenPriority(priority: TaskPriority) async throws {
        let guarantee = Guarantee(priority: priority) { Task.currentPriority }
        #expect(try await bounded { await guarantee.fulfilled } == priority)
    }

    // MARK: Isolation

    @MainActor @Test func aClosureWrittenOnTheMainActorRunsThere() async throws {
        let screen = Screen()
        let loaded = screen.reload()
        let counted = screen.countInPlace()
        let rendered = screen.render()
        #expect(try await bounded { try await loaded.fulfilled } == "loaded on the main queue")
        #expect(try await bounded { try await counted.fulfilled } == "counted on the main queue")
        #expect(try await bounded { await rendered.fulfilled } == "rendered on the main queue")
        #expect(screen.visits == 3)
    }

    // MARK: The resolver spellings

    @Test func theResolverSpellingsStillRunTheirBodyAtOnce() throws {
        let events = Recorder<String>()
        let labelled = Promise<Int>(resolver: { $0.fulfill(1) })
        let anonymous = Promise<Int> { $0.fulfill(2) }
        let named = Promise { resolver in
            events.record("promise body")
            resolver.fulfill(3)
        }
        let guarantee = Guarantee { seal in
            events.record("guarantee body")
            seal(4)
        }
        events.record("returned")
        // Each is resolved on return: the body ran at once, on this thread, not in a task.
        #expect(events.all == ["promise body", "guarantee body", "returned"])
        #expect([labelled.value, anonymous.value, named.value, guarantee.value] == [1, 2, 3, 4])
    }

    @MainActor @Test func theResolverSpellingsStillRunTheirBodyAtOnceOnTheMainActor() throws {
        let screen = Screen()
        let promise = screen.settleAtOnce()
        #expect(promise.value == 1)
        #expect(screen.visits == 1)
    }
}

/// A task-local value for the operation to read.
private enum Trace {
    @TaskLocal static var label = "none"
}

/// Squares `number` after a suspension, the way an async API would.
private func square(_ number: Int) async throws -> Int {
    await Task.yield()
    return number * number
}

/// Main-actor state that the operations touch, which compiles only if their closures are
/// isolated to the main actor.
@MainActor private final class Screen {
    private(set) var visits = 0

    /// Where the work ran, checked both ways: the runtime's isolation check stops the test run if
    /// it fails, and the queue check (``isOnMainQueue()``) fails the test.
    private func visit(_ action: String) -> String {
        MainActor.assertIsolated("the \(action) left the main actor")
        visits += 1
        return "\(action) on \(isOnMainQueue() ? "the main queue" : "another queue")"
    }

    private func load() async -> String {
        await Task.yield()
        return visit("loaded")
    }

    func reload() -> Promise<String> {
        Promise { await self.load() }
    }

    func countInPlace() -> Promise<String> {
        Promise { self.visit("counted") }
    }

    func render() -> Guarantee<String> {
        Guarantee { self.visit("rendered") }
    }

    func settleAtOnce() -> Promise<Int> {
        Promise { resolver in
            visits += 1
            resolver.fulfill(visits)
        }
    }
}
