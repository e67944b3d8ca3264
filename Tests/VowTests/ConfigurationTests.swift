import Dispatch
import Foundation
import Testing
import Vow

/// The only suite that changes the global `conf`; its tests run one at a time and restore it.
/// Other suites pass explicit queues and policies where the outcome depends on them.
@Suite(.serialized) struct ConfigurationTests {
    @Test func defaultsAreMainQueuesAndSkippingCancellation() {
        #expect(conf.catchPolicy == .allErrorsExceptCancellation)
    }

    @Test func settingTheQueuesChangesWhereDefaultHandlersRun() throws {
        let saved = conf.Q
        defer { conf.Q = saved }
        let mapping = TestQueue("vow.tests.conf.map")
        let returning = TestQueue("vow.tests.conf.return")
        conf.Q = (map: mapping.queue, return: returning.queue)
        #expect(conf.Q.map === mapping.queue)
        #expect(conf.Q.return === returning.queue)
        // Each operator reads the queue it defaults to when a nonisolated handler is attached:
        // `map` and `recover` the first, `done`, `catch` and `ensure` the second.
        let mapped = Promise.value(1).map { _ in (mapping.isCurrent, returning.isCurrent) }
        let recovered = Promise<Bool>(error: TestError.boom).recover { _ in
            Guarantee.value(mapping.isCurrent)
        }
        let ended = Recorder<String>()
        let finished = Promise.value(1).done { _ in
            ended.record(returning.isCurrent ? "done" : "done elsewhere")
        }
        Promise<Int>(error: TestError.boom)
            .catch { _ in ended.record(returning.isCurrent ? "catch" : "catch elsewhere") }
        let ensured = Promise.value(1).ensure {
            ended.record(returning.isCurrent ? "ensure" : "ensure elsewhere")
        }
        let (onMapping, onReturning) = try value(of: mapped)
        #expect(onMapping && !onReturning)
        #expect(try value(of: recovered))
        try value(of: finished)
        #expect(try value(of: ensured) == 1)
        returning.queue.sync {}
        #expect(Set(ended.all) == ["done", "catch", "ensure"])
    }

    @Test func aNonisolatedHandlerRunsOnTheDefaultQueue() throws {
        // Nonisolated code keeps PromiseKit's rule: the default queue, the main queue here.
        let onMain = Promise.value(1).map { _ in isOnMainQueue() }
        #expect(try value(of: onMain))
    }

    @Test @MainActor func theDefaultQueueIsTheMainQueueThatDispatchQueueMainNames() async {
        // A nonisolated handler without `on:` takes its turn on the main queue behind the
        // blocks sent there before it, and ahead of those sent after.
        let turns = Recorder<String>()
        DispatchQueue.main.async { turns.record("block 1") }
        let handler = attachedWithoutAQueue { turns.record("handler") }
        let (last, lastRan) = Guarantee<Void>.pending()
        DispatchQueue.main.async {
            turns.record("block 2")
            lastRan(())
        }
        #expect(turns.all.isEmpty, "main-queue work ran inside the call that sent it")
        await when(guarantees: [handler, last]).async()
        #expect(turns.all == ["block 1", "handler", "block 2"])
    }

    /// The `recover` of a closure that cannot throw, and returns a promise, names no policy: it
    /// reads the configured one, here the default, so it runs in this suite, which alone changes
    /// `conf`.
    @Test func aPromiseRecoveryWithoutAPolicyFollowsTheConfiguredPolicy() throws {
        for cancellation in recoverCancellations {
            let calls = Recorder<String>()
            let recovered: Promise<Int> = Promise<Int>(error: cancellation).recover { _ in
                calls.record("recovered")
                return Promise.value(2)
            }
            #expect(try error(of: recovered)?.isCancelled == true, "\(cancellation) was recovered")
            #expect(calls.all.isEmpty)
        }
        let recovered: Promise<Int> = Promise<Int>(error: TestError.boom).recover { _ in Promise.value(2) }
        #expect(try value(of: recovered) == 2)
    }

    @Test func theDefaultCatchPolicyIsConfigurable() throws {
        let saved = conf.catchPolicy
        defer { conf.catchPolicy = saved }
        conf.catchPolicy = .allErrors
        let caught = Recorder<Bool>()
        let finished = Guarantee<Void> { resolve in
            Promise<Int>(error: PromiseError.cancelled)
                .catch(on: nil) { caught.record($0.isCancelled) }
                .finally(on: nil) { resolve(()) }
        }
        try value(of: finished)
        #expect(caught.all == [true])
    }

    @Test func configurationIsSafeToUseFromManyThreads() {
        let saved = conf.Q
        defer { conf.Q = saved }
        let queues = (0..<4).map { DispatchQueue(label: "vow.tests.conf.\($0)") }
        let torn = Protected(0)
        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
            if index.isMultiple(of: 3) {
                let queue = queues[index % queues.count]
                conf.Q = (map: queue, return: queue)
            } else {
                // A pair is written whole, so a reader never sees half of one change. (Only
                // the pairs written here have equal halves: on Linux each read of
                // `DispatchQueue.main` makes a new object.)
                let pair = conf.Q
                if let map = pair.map, queues.contains(where: { $0 === map }), pair.return !== map {
                    torn.withLock { $0 += 1 }
                }
                _ = conf.catchPolicy
            }
        }
        #expect(torn.withLock { $0 } == 0)
        #expect(queues.contains { $0 === conf.Q.map })
    }

    /// Replacing the log handler releases the old one. If that held the last reference to a
    /// pending resolver, the resolver reports itself through the configuration while the new
    /// handler is being installed: the setter must not hold its lock then.
    @Test func replacingALogHandlerThatOwnsAPendingResolverDoesNotDeadlock() throws {
        LeakReports.install()
        let saved = conf.logHandler
        defer { conf.logHandler = saved }
        let events = Recorder<String>()
        let (reported, report) = Guarantee<Void>.pending()
        // Each handler hands every event on to the suite's, so that tests running meanwhile
        // lose no report.
        let site: CreationSite
        do {
            let ((_, resolver), made) = expectingLeakReport(Promise<Int>.pending())
            site = made
            conf.logHandler = { [resolver] event in
                _ = resolver
                saved(event)
            }
        }
        DispatchQueue.global().async {
            conf.logHandler = { event in
                saved(event)
                events.record("\(event)")
                report(())
            }
        }
        try value(of: reported)
        #expect(events.all.contains(LogEvent.pendingPromiseDeallocated(createdAt: site).description))
        #expect(LeakReports.shared.count(at: site) == 1)
    }

    @Test func droppingAPendingResolverIsReportedWithWhereThePromiseWasMade() {
        let (_, pending) = expectingLeakReport(Promise<Int>.pending())
        let (_, made) = expectingLeakReport(Promise<Int> { _ in })
        #expect(LeakReports.shared.count(at: pending) == 1)
        #expect(LeakReports.shared.count(at: made) == 1)
        #expect(pending.fileID == "VowTests/ConfigurationTests.swift")
    }

    @Test func theReportSaysWhereThePromiseWasMade() {
        let site = CreationSite(fileID: "App/Loader.swift", line: 42)
        #expect(
            LogEvent.pendingPromiseDeallocated(createdAt: site).description
                == "A pending promise's resolver was released unresolved: the promise can never resolve. "
                + "It was made at App/Loader.swift:42.")
        #expect(
            LogEvent.pendingGuaranteeDeallocated(createdAt: nil).description
                == "A pending guarantee's resolve function was released uncalled: it can never resolve.")
    }

    @Test func droppingAPendingGuaranteeResolveIsReported() {
        let (_, pending) = expectingLeakReport(Guarantee<Int>.pending())
        let (_, made) = expectingLeakReport(Guarantee<Int> { _ in })
        #expect(LeakReports.shared.count(at: pending) == 1)
        #expect(LeakReports.shared.count(at: made) == 1)
    }

    @Test func resolvedPromisesAreNotReported() {
        let ((_, resolver), pending) = expectingLeakReport(Promise<Int>.pending())
        resolver.fulfill(1)
        let (_, made) = expectingLeakReport(Promise<Void> { $0.fulfill() })
        let (_, guaranteed) = expectingLeakReport(Guarantee<Int> { $0(1) })
        #expect([pending, made, guaranteed].map(LeakReports.shared.count(at:)) == [0, 0, 0])
    }

    @Test func cauterizeReportsTheSwallowedError() throws {
        let finished = Promise<Void>.pending()
        let events = LeakReports.shared.capturing {
            Promise<Int>(error: TestError.boom).cauterize().finally(on: nil) { finished.resolver.fulfill() }
            _ = try? value(of: finished.promise)
        }
        let swallowed = events.compactMap { event -> TestError? in
            if case .cauterized(let error) = event { error as? TestError } else { nil }
        }
        #expect(swallowed == [.boom])
    }

    /// A box released while pending hands its handlers to the trampoline, outside its `deinit`,
    /// which only reads the phase: they are still released, and with them what they captured.
    @Test func theHandlersOfAPendingPromiseReleasedUnresolvedAreFreed() {
        final class Token: Sendable {}
        weak var captured: Token?
        func attachAndDrop() -> CreationSite {
            let token = Token()
            captured = token
            let ((promise, _), site) = expectingLeakReport(Promise<Int>.pending())
            _ = promise.map(on: nil) { _ in token }
            _ = promise.done(on: nil) { _ in _ = token }
            return site
        }
        let site = attachAndDrop()
        #expect(captured == nil)
        #expect(LeakReports.shared.count(at: site) == 1)
    }

    /// Swift Testing drains the main queue on a thread other than the main thread, so only the
    /// queue, not `Thread.isMainThread`, shows that `wait()` runs inside a main-queue block.
    @Test func waitInsideAMainQueueBlockIsReported() throws {
        LeakReports.install()
        let saved = conf.logHandler
        defer { conf.logHandler = saved }
        // The gate opens only when the event arrives, so `wait()` must block and report first;
        // a late fallback keeps a failure from blocking the main queue for good.
        let (gate, open) = Guarantee<String>.pending()
        // Every other event goes on to the suite's handler, so that tests running meanwhile lose
        // no report.
        conf.logHandler = { event in
            if case .waitOnMainThread = event { open("reported") } else { saved(event) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + patience) { open("not reported") }
        let waited = Guarantee<String> { resolve in
            DispatchQueue.main.async { resolve(gate.wait()) }
        }
        #expect(try value(of: waited, within: 2 * patience) == "reported")
    }

    @Test func logEventsDescribeThemselves() {
        let events: [LogEvent] = [
            .waitOnMainThread, .pendingPromiseDeallocated(createdAt: nil),
            .pendingGuaranteeDeallocated(createdAt: nil), .cauterized(TestError.boom),
            .report(MainQueueStall(threshold: 1)),
        ]
        let descriptions = Set(events.map(\.description))
        #expect(descriptions.count == events.count)
        #expect(descriptions.allSatisfy { !$0.isEmpty })
    }

    /// The stalled-queue report itself is checked by `ServerChecks`, a program whose main queue
    /// never runs; here the main queue runs, so handlers sent to it for longer than the
    /// threshold must not be reported. The threshold's bad values are checked in the same
    /// test, since they turn the report off for the whole process while they hold.
    @Test func aServicedMainQueueIsNeverReportedStalledAndTheThresholdRejectsBadValues() throws {
        #expect(conf.mainQueueStallThreshold == 1)
        let events = try LeakReports.shared.capturing {
            let handler: @isolated(any) @Sendable (Int) -> Void = { @MainActor _ in }
            var sent: [Guarantee<Void>] = []
            let end = Date(timeIntervalSinceNow: 1.5)
            while Date() < end {
                sent.append(Guarantee.value(1).done(handler))
                Thread.sleep(forTimeInterval: 0.01)
            }
            _ = try value(of: when(guarantees: sent))
        }
        let stalls = events.filter { if case .report(_ as MainQueueStall) = $0 { true } else { false } }
        #expect(stalls.isEmpty, "a serviced main queue was reported stalled: \(stalls)")

        defer { conf.mainQueueStallThreshold = 1 }
        for bad: Double in [0, -1, .nan, .infinity, -.infinity] {
            conf.mainQueueStallThreshold = bad
            #expect(conf.mainQueueStallThreshold == nil, "\(bad) was kept as a threshold")
        }
        conf.mainQueueStallThreshold = 2.5
        #expect(conf.mainQueueStallThreshold == 2.5)
    }
}

/// Attaches `body` as a handler written in nonisolated code, without `on:`.
private func attachedWithoutAQueue(_ body: @escaping @Sendable () -> Void) -> Guarantee<Void> {
    Guarantee.value(1).done { _ in body() }
}
