import Dispatch
import Testing

@testable import Vow

/// Every way of making a ``PlacedHandler`` gives the plain function the queue its isolation
/// or its `on:` argument calls for, and `map` keeps that queue.
@Suite struct PlacedHandlerTests {
    @Test func aNonisolatedHandlerWithNoDefaultQueueRunsInline() {
        // The operators' default queues come from `conf`, which ConfigurationTests changes;
        // that suite checks where `.map` and `.return` send a handler.
        let inline: IntHandler = PlacedHandler({ (value: Int) in value + 1 }, else: .inline)
        guard case .inline = inline.queue else {
            Issue.record("a nonisolated handler with no default queue was placed on \(inline.queue)")
            return
        }
        #expect(inline.body(1) == 2)
    }

    @Test func aMainActorHandlerTakesTheMainQueue() async {
        let placed = await mainActorPlaced()
        guard case .main = placed.queue else {
            Issue.record("a main-actor handler was placed on \(placed.queue)")
            return
        }
        let value = await MainActor.run { placed.body(20) }
        #expect(value == 21)
    }

    @Test func theMainQueueAsVowKeepsItAndTheMainActorDispatcherTakeTheMainQueue() {
        // The default `conf.Q` is that object, so a nonisolated handler without `on:` goes there.
        let defaulted = HandlerQueue(MainQueueWatch.mainQueue, nil)
        guard case .main = defaulted else {
            Issue.record("a handler on Vow's main queue was placed on \(defaulted)")
            return
        }
        guard case .main = HandlerQueue(MainActorDispatcher.mainActor) else {
            Issue.record("the main actor's dispatcher was not placed on the main queue")
            return
        }
        // Another queue, even a serial one, keeps its object.
        let queue = DispatchQueue(label: "vow.tests.placed.other")
        guard case .queue(let chosen) = HandlerQueue(queue, nil) else {
            Issue.record("another queue was placed on \(HandlerQueue(queue, nil))")
            return
        }
        #expect(chosen === queue)
    }

    @Test func anActorsHandlerTakesTheActorEvenWithoutMentioningSelf() async {
        let writer = PlacingActor()
        let placed = await writer.placed()
        guard case .actor(let target) = placed.queue else {
            Issue.record("an actor's handler was placed on \(placed.queue)")
            return
        }
        #expect(target.actor === writer)
    }

    @Test func anActorBoundHandlerRunsThroughItsOwnersDispatcher() {
        let owner = PlacingActor()
        let placed: PlacedHandler<@Sendable (PlacingActor, Int) throws -> Int> = PlacedHandler(owner: owner) {
            (_: isolated PlacingActor, value: Int) in value
        }
        guard case .dispatched(let target) = placed.queue else {
            Issue.record("an actor-bound handler was placed on \(placed.queue)")
            return
        }
        #expect(target.dispatcher is OwnerDispatcher<PlacingActor>)
    }

    @Test func anOnQueueOrDispatcherHandlerTakesWhatItWasGiven() {
        let queue = DispatchQueue(label: "vow.tests.placed")
        let flagged: IntHandler = PlacedHandler(on: queue, flags: .barrier) { (value: Int) in value }
        guard case .flagged(let chosen) = flagged.queue else {
            Issue.record("a handler given flags was placed on \(flagged.queue)")
            return
        }
        #expect(chosen.queue === queue)

        let unflagged: IntHandler = PlacedHandler(on: queue, flags: []) { (value: Int) in value }
        guard case .queue = unflagged.queue else {
            Issue.record("a handler given empty flags was placed on \(unflagged.queue)")
            return
        }

        let dispatched: IntHandler = PlacedHandler(on: InlineDispatcher()) { (value: Int) in value }
        guard case .inline = dispatched.queue else {
            Issue.record("a handler given the inline dispatcher was placed on \(dispatched.queue)")
            return
        }
    }

    @Test func mapKeepsTheQueueAndWrapsTheBody() async {
        let writer = PlacingActor()
        let placed = await writer.placed()
        let wrapped = placed.map { body in { @Sendable (values: [Int]) in values.map(body) } }
        guard case .actor(let before) = placed.queue, case .actor(let after) = wrapped.queue else {
            Issue.record("the wrapped handler was placed on \(wrapped.queue)")
            return
        }
        #expect(after === before)

        let nonisolated: IntHandler = PlacedHandler({ (value: Int) in value * 2 }, else: .inline)
        let doubled = nonisolated.map { body in { @Sendable (values: [Int]) in values.map(body) } }
        #expect(doubled.body([1, 2, 3]) == [2, 4, 6])
    }
}

/// A placed handler of one number.
private typealias IntHandler = PlacedHandler<@Sendable (Int) -> Int>

/// Makes a ``PlacedHandler`` from a handler that inherits the isolation of the code that wrote
/// it, as every operator's handler does.
private func place(
    @_inheritActorContext(always) _ handler: @escaping @isolated(any) @Sendable (Int) -> Int
) -> IntHandler {
    PlacedHandler(handler, else: .inline)
}

/// A handler written in main-actor code.
@MainActor private func mainActorPlaced() -> IntHandler {
    place { $0 + 1 }
}

/// An actor whose handler uses only its argument.
private actor PlacingActor {
    func placed() -> IntHandler {
        place { $0 + 1 }
    }
}
