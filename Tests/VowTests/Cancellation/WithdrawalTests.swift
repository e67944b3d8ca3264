import Dispatch
import Testing

@testable import Vow

/// Walking away frees everything at once: a consumer of a promise that stays pending, held by
/// someone else, takes its handler back when it withdraws, in whichever way it withdraws, so
/// that its step, its closure and what the closure captured are released in that call, long
/// before the promise settles.
///
/// Each test withdraws a great many consumers of one held, pending promise, each capturing an
/// object of its own, then counts the captured objects and the consumers' promises still alive,
/// and the handlers the promise still holds, before settling it.
@Suite struct WithdrawalTests {
    /// The ways a consumer withdraws from a pending promise it no longer needs.
    enum Way: String, CaseIterable, Sendable {
        case cancellingTheStep = "its own cancel()"
        case cancellingTheEndOfAChain = "cancel() at the end of a chain"
        case raceThatHasAWinner = "a race that has a winner"
        case whenThatHasARejection = "a when(fulfilled:) that has a rejection"
        case timeout = "a timeout"
        case cacheCallerLeaving = "a PromiseCache caller leaving"
        case ownerGoingAway = "its owner going away, with its CancelBag"

        /// Attaches a consumer of `shared` that captures `captured`, then has it withdraw, and
        /// returns the storage of every promise the consumer made, which must all be freed once
        /// the caller lets go of them.
        func withdraw(
            from shared: Promise<Int>, capturing captured: Captured, cache: PromiseCache<Int, Int>
        ) -> [AnyObject] {
            let consume = { (promise: Promise<Int>) in
                promise.map(on: nil) { value in withExtendedLifetime(captured) { value } }
            }
            switch self {
            case .cancellingTheStep:
                let step = consume(shared)
                step.cancel()
                return [step.storage]
            case .cancellingTheEndOfAChain:
                let step = consume(shared)
                let next = step.then(on: nil) { Promise.value($0) }
                let end = next.done(on: nil) { _ in }
                end.cancel()
                return [step.storage, next.storage, end.storage]
            case .raceThatHasAWinner:
                let step = consume(shared)
                return [step.storage, race(step, .value(0)).storage]
            case .whenThatHasARejection:
                let step = consume(shared)
                return [step.storage, when(fulfilled: [step, Promise(error: TestError.boom)]).storage]
            case .timeout:
                let step = consume(shared)
                return [step.storage, step.timeout(.zero, clock: ManualClock()).storage]
            case .cacheCallerLeaving:
                let caller = cache.value(for: 1)
                let step = consume(caller)
                step.cancel()
                return [caller.storage, step.storage]
            case .ownerGoingAway:
                // The owner is freed when this returns, and its bag with it.
                let owner = BagOwner()
                let step = shared.map(owner: owner) { _, value in withExtendedLifetime(captured) { value } }
                step.store(in: owner.chains)
                return [step.storage]
            }
        }
    }

    @Test(arguments: Way.allCases)
    func aWithdrawnConsumerOfAHeldPendingPromiseIsReleasedAtOnce(_ way: Way) async throws {
        let consumers = stressSize(2_000, full: 100_000, sanitized: 10_000)
        let (left, kept, slots, stillPending) = try await stressTest {
            let live = LiveObjects()
            let (shared, resolver) = Promise<Int>.pending()
            // The cache's one lookup is `shared`; a caller that stays keeps it in flight.
            let cache = PromiseCache<Int, Int> { _ in shared }
            let stayingCaller = cache.value(for: 1)
            // Weak references see each promise a consumer made freed, or kept by something,
            // exactly: a count of the process's memory would also see the tests beside this one.
            var made: [Weak] = []
            made.reserveCapacity(consumers * 3)
            for _ in 0..<consumers {
                for storage in way.withdraw(from: shared, capturing: Captured(live), cache: cache) {
                    made.append(Weak(storage))
                }
            }
            let kept = made.count { $0.object != nil }
            let left = live.count
            let slots = shared.pendingHandlerSlots + stayingCaller.pendingHandlerSlots
            let stillPending = shared.isPending
            resolver.fulfill(1)
            return (left, kept, slots, stillPending)
        }
        #expect(stillPending, "the shared promise settled: nothing was proven while it was pending")
        #expect(left == 0, "\(left) of \(consumers) captured objects were still alive after \(way.rawValue)")
        // The cache's own handler on `shared`, and the staying caller's, are all that is left.
        #expect(slots <= 2, "the promises still held \(slots) handler slots after \(way.rawValue)")
        #expect(kept == 0, "\(kept) promises the consumers made were still alive after \(way.rawValue)")
    }

    /// A task's waiter is the library's own, out of the test's reach: the slot count is the
    /// proof that it was let go.
    @Test func aTaskAwaitingAHeldPendingPromiseLetsGoOfItsWaiterWhenCancelled() async throws {
        let tasks = stressSize(1_000, full: 20_000, sanitized: 2_000)
        let (shared, resolver) = Promise<Int>.pending()
        for _ in 0..<tasks {
            let task = Task { try await shared.async() }
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
        }
        #expect(shared.pendingHandlerSlots == 0, "waiters were left attached: \(shared.pendingHandlerSlots)")
        #expect(shared.isPending)
        resolver.fulfill(1)
    }

    /// A step that is held, cancelled while its input is pending, lets its closure go at once.
    @Test func aHeldCancelledStepReleasesItsClosureAtOnce() {
        let live = LiveObjects()
        let (shared, resolver) = Promise<Int>.pending()
        let step = { [captured = Captured(live)] in
            shared.map(on: nil) { value in withExtendedLifetime(captured) { value } }
        }()
        #expect(live.count == 1)
        step.cancel()
        #expect(live.count == 0, "the cancelled step kept its closure while it was held")
        #expect(step.result?.isCancellation == true)
        resolver.fulfill(1)
        withExtendedLifetime(step) {}
    }

    /// The same for a timer's step, as Time.md promises: a cancelled timer releases its
    /// handler, and the chain behind it, at once.
    @Test func aHeldCancelledTimerStepReleasesItsClosureAtOnce() {
        let live = LiveObjects()
        let clock = ManualClock()
        let step = { [captured = Captured(live)] in
            // A step that may throw, as the example has: the map of a guarantee that
            // throws returns a promise, which can be cancelled.
            after(.seconds(100), clock: clock).map(on: nil) { () throws -> Int in
                try withExtendedLifetime(captured) { try Self.use(1) }
            }
        }()
        step.cancel()
        #expect(live.count == 0)
        #expect(clock.sleepers == 0)
        withExtendedLifetime(step) {}
    }

    private static func use(_ value: Int) throws -> Int { value }

    /// Withdrawing keeps the shared-consumer rule: a promise another consumer still waits for
    /// goes on, and its other handlers run, in the order they were attached.
    @Test func theOthersStillRunInOrderOnceSomeWithdrew() throws {
        let (shared, resolver) = Promise<Int>.pending()
        let order = Recorder<Int>()
        var kept: [Promise<Void>] = []
        for index in 0..<10 {
            let consumer = shared.done(on: nil) { _ in order.record(index) }
            if index % 3 == 1 { consumer.cancel() } else { kept.append(consumer) }
        }
        resolver.fulfill(1)
        for consumer in kept { try value(of: consumer) }
        #expect(order.all == [0, 2, 3, 5, 6, 8, 9])
    }

    /// Consumers that attach and withdraw in turn reuse one slot, and a handler list that has
    /// emptied starts over: the handlers of a long-lived promise do not grow with its history.
    @Test func slotsAreReusedAsConsumersComeAndGo() {
        let (shared, resolver) = Promise<Int>.pending()
        let first = shared.map(on: nil) { $0 }
        for _ in 0..<1_000 {
            shared.map(on: nil) { $0 }.cancel()
        }
        #expect(shared.pendingHandlerSlots == 1)
        let many = (0..<100).map { _ in shared.map(on: nil) { $0 } }
        for consumer in many.reversed() { consumer.cancel() }
        #expect(shared.pendingHandlerSlots == 1)
        first.cancel()
        #expect(shared.pendingHandlerSlots == 0)
        resolver.fulfill(1)
    }
}

/// An owner that keeps its chains in a bag, as a screen does.
final class BagOwner: Sendable {
    let chains = CancelBag()
}

/// Counts the ``Captured`` objects alive.
final class LiveObjects: Sendable {
    private let live = Protected(0)

    var count: Int { live.withLock { $0 } }

    fileprivate func change(by delta: Int) {
        live.withLock { $0 += delta }
    }
}

/// An object a consumer captures, counted while alive.
final class Captured: Sendable {
    private let live: LiveObjects

    init(_ live: LiveObjects) {
        self.live = live
        live.change(by: 1)
    }

    deinit {
        live.change(by: -1)
    }
}

/// A reference that does not keep its object alive.
struct Weak {
    weak var object: AnyObject?

    init(_ object: AnyObject) { self.object = object }
}

extension Promise {
    /// The object that stores the promise's result: what must be freed once nobody needs it.
    var storage: AnyObject {
        switch box {
        case .sealed(let box): box
        case .empty(let box): box
        }
    }

    /// How many handler slots the promise's box holds while pending, taken-back ones included;
    /// 0 once it has resolved.
    var pendingHandlerSlots: Int {
        guard case .empty(let box) = box else { return 0 }
        var state = (box: box, slots: 0)
        box.queue.read(&state) { state in
            if case .pending(let handlers) = state.box.sealant { state.slots = handlers.slots }
        }
        return state.slots
    }
}
