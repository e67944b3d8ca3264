import Dispatch
import Testing

@testable import Vow

/// An actor running a promise loop, each step of which sends the next to the same actor, and
/// handlers that another thread sends it meanwhile: those get their turn within a bounded number
/// of the loop's steps, in the order they were sent, while each step still runs after the one
/// that sent it.
@Suite struct ActorFairnessTests {
    /// The step at which the loop tells the other thread that it is running.
    static let running = 1000

    /// The step at which the loop gives up: the other thread's handler never ran.
    static let cap = 1_000_000

    @Test func aHandlerAnotherThreadSendsRunsWithinABoundedNumberOfALoopsSteps() async throws {
        let loop = PromiseLoop()
        let loopRunning = DispatchSemaphore(value: 0)
        let finished = await loop.run(signalling: loopRunning, at: Self.running, giveUpAt: Self.cap)
        let sent = Protected<(before: Int, after: Int)?>(nil)
        let recorded = DispatchSemaphore(value: 0)
        onAThreadOfItsOwn {
            defer { recorded.signal() }
            guard loopRunning.wait(timeout: .now() + patience) == .success else { return }
            // The step the loop had begun before the handler was sent, and after: the send
            // happened while the loop was at some step in between.
            let before = loop.steps
            Guarantee.value(1).done(owner: loop) { loop, count in loop.interrupt(count) }.endChain()
            sent.withLock { $0 = (before, loop.steps) }
        }
        let outcome = try await bounded { await finished.async() }
        // The loop may end, its handler having run, before the sending thread has noted the step.
        #expect(try await bounded { recorded.wait(timeout: .now() + patience) } == .success)
        let sentAt = try #require(sent.withLock { $0 }, "the other thread did not send its handler")
        let ranAt = try #require(outcome.interruptionsRanAt.first, "the loop gave up at \(outcome.steps)")
        // It raced: the loop was well under way when the handler was sent, and stopped only
        // because the handler ran.
        #expect(sentAt.before >= Self.running)
        #expect(outcome.steps == ranAt)
        #expect(outcome.stepsOutOfOrder == 0)
        // Between two readings of the mailbox the actor runs at most `foldInterval` handlers: a
        // handler sent after one reading is taken at the next, and runs before the step queued
        // then. Every step of the loop is one handler, so the handler ran at most that many
        // steps after the last step begun before it was sent.
        #expect(
            ranAt - sentAt.after <= ActorMailboxes.foldInterval,
            "sent between steps \(sentAt.before) and \(sentAt.after), ran at step \(ranAt)")
    }

    /// A handler that sends the actor many handlers at once, fanning out, does not push one
    /// that another thread sent before behind all of them: it runs after at most
    /// `foldInterval` of them. It used to run after every one, since the mailbox was read only
    /// after so many handlers had run, not sent.
    @Test func aHandlerAnotherThreadSendsRunsWithinABoundedNumberOfAFanOut() async throws {
        let fan = FanOut()
        let fanning = DispatchSemaphore(value: 0)
        let sent = DispatchSemaphore(value: 0)
        let done = await fan.start(fanningOut: 1_000, signalling: fanning, after: sent)
        onAThreadOfItsOwn {
            guard fanning.wait(timeout: .now() + patience) == .success else { return }
            Guarantee.value(()).done(owner: fan) { fan, _ in fan.record(-1) }.endChain()
            sent.signal()
        }
        let order = try await bounded { await done.async() }
        let position = try #require(order.firstIndex(of: -1), "the other thread's handler did not run")
        #expect(
            position <= ActorMailboxes.foldInterval,
            "ran after \(position) of the handlers the actor sent itself after it")
        #expect(order.filter { $0 >= 0 } == Array(0..<1_000), "the actor's own ran out of order")
    }

    @Test func handlersAnotherThreadSendsRunInTheOrderSentWhileTheActorLoops() async throws {
        let loop = PromiseLoop()
        let loopRunning = DispatchSemaphore(value: 0)
        let finished = await loop.run(signalling: loopRunning, at: Self.running, giveUpAt: Self.cap)
        let count = 200
        onAThreadOfItsOwn {
            guard loopRunning.wait(timeout: .now() + patience) == .success else { return }
            for index in 0..<count {
                Guarantee.value(index).done(owner: loop) { loop, index in
                    loop.record(index, stoppingAfter: count)
                }.endChain()
            }
        }
        let outcome = try await bounded { await finished.async() }
        #expect(outcome.interruptions == Array(0..<count))
        // Each of them ran while the loop still ran: none waited for it to end.
        #expect(outcome.interruptionsRanAt.allSatisfy { $0 > Self.running && $0 < Self.cap })
        #expect(outcome.stepsOutOfOrder == 0)
    }
}

/// What a ``PromiseLoop`` saw, once it stopped.
struct LoopOutcome: Sendable {
    /// How many steps the loop began.
    var steps: Int
    /// The steps that did not find the step before them finished, as the one that sent them.
    var stepsOutOfOrder: Int
    /// The handlers other threads sent, in the order they ran.
    var interruptions: [Int]
    /// The step the loop had begun when each of those handlers ran.
    var interruptionsRanAt: [Int]
}

/// An actor whose every step sends the next step to itself, until a handler sent from another
/// thread stops it or it has run `giveUpAt` steps.
actor PromiseLoop {
    /// The steps begun so far, readable from any thread while the loop runs.
    nonisolated let stepsBegun = Protected(0)
    private var finished: (@Sendable (LoopOutcome) -> Void)?
    private var outcome = LoopOutcome(steps: 0, stepsOutOfOrder: 0, interruptions: [], interruptionsRanAt: [])
    private var stopping = false
    private var lastFinishedStep = 0

    /// The steps begun so far.
    nonisolated var steps: Int { stepsBegun.withLock { $0 } }

    /// Starts the loop, signalling `semaphore` once it begins step `mark`; the guarantee is
    /// fulfilled once it stops.
    func run(signalling semaphore: DispatchSemaphore, at mark: Int, giveUpAt cap: Int) -> Guarantee<
        LoopOutcome
    > {
        let (guarantee, fulfill) = Guarantee<LoopOutcome>.pending()
        finished = fulfill
        Guarantee.value(1).done { step in self.step(step, signalling: semaphore, at: mark, giveUpAt: cap) }
        return guarantee
    }

    /// Stops the loop after its current step, noting the step at which this ran.
    func interrupt(_ index: Int) {
        record(index, stoppingAfter: 1)
    }

    /// Notes that the handler `index` ran, and stops the loop once `count` of them have.
    func record(_ index: Int, stoppingAfter count: Int) {
        outcome.interruptions.append(index)
        outcome.interruptionsRanAt.append(outcome.steps)
        if outcome.interruptions.count == count {
            stopping = true
        }
    }

    private func step(_ number: Int, signalling semaphore: DispatchSemaphore, at mark: Int, giveUpAt cap: Int)
    {
        if lastFinishedStep != number - 1 {
            outcome.stepsOutOfOrder += 1
        }
        guard !stopping, number <= cap else {
            finished?(outcome)
            finished = nil
            return
        }
        outcome.steps = number
        stepsBegun.withLock { $0 = number }
        if number == mark {
            semaphore.signal()
        }
        // Written in the actor's method, the handler runs on the actor: the loop re-arms itself.
        Guarantee.value(number + 1).done { next in
            self.step(next, signalling: semaphore, at: mark, giveUpAt: cap)
        }
        // Noted after the send, so that a next step run inside it would find this one unfinished.
        lastFinishedStep = number
    }
}

/// An actor whose second handler, written in its method, sends it many handlers at once, once
/// another thread has sent it one.
actor FanOut {
    private var order: [Int] = []
    private var expected = 0
    private var finished: (@Sendable ([Int]) -> Void)?

    /// Runs a first handler, which sends a second; that one signals `fanning`, waits for
    /// `sent`, then sends `count` handlers here. The guarantee is fulfilled with the order in
    /// which they and the other thread's ran.
    func start(fanningOut count: Int, signalling fanning: DispatchSemaphore, after sent: DispatchSemaphore)
        -> Guarantee<[Int]>
    {
        let (guarantee, fulfill) = Guarantee<[Int]>.pending()
        finished = fulfill
        expected = count + 1
        Guarantee.value(()).done {
            // The second handler, so that the reading of the mailbox that a task makes first
            // is behind it.
            Guarantee.value(()).done {
                fanning.signal()
                _ = sent.wait(timeout: .now() + patience)
                for index in 0..<count {
                    Guarantee.value(index).done { self.record($0) }
                }
            }
        }
        return guarantee
    }

    /// Notes that handler `index` ran; -1 is the other thread's.
    func record(_ index: Int) {
        order.append(index)
        if order.count == expected {
            finished?(order)
            finished = nil
        }
    }
}
