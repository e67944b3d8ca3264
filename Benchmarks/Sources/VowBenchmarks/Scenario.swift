import Foundation
import NIOCore
import NIOPosix

/// What a scenario's Vow figure should reach: at most a ratio to one baseline's figure from
/// the same run, a limit that suits metrics where lower is better. Absolute figures mean
/// little on a shared machine, so every target is a ratio.
struct Target {
    let baseline: String
    let atMost: Double
}

/// Which way a metric's figure improves.
enum Better: String {
    /// A time or a size: the smaller the figure, the better.
    case lower
    /// A rate, such as operations per second: the larger the figure, the better.
    case higher
}

/// One figure a scenario reports for every contender, such as the time to attach a step.
struct Metric {
    let name: String
    let unit: String
    let target: Target?
    /// Which way the figure improves. Every metric of the suite so far is a time or a size;
    /// the results file states it, so that tools comparing runs need not guess it from the unit.
    var better = Better.lower
}

/// A benchmark that can be selected with `--only name`, reporting one or more metrics.
struct Scenario {
    let name: String
    let run: (Context) -> [Row]
}

/// What every scenario of a run shares: the mode, how many rounds a scenario may add, and the
/// SwiftNIO event loops, started only if a selected scenario needs them.
final class Context {
    let quick: Bool
    /// The widest spread of a ratio's per-round values, as a fraction of their median, at which
    /// it counts as settled.
    let spreadLimit: Double
    /// How many times its base rounds a scenario may run while its ratio has not settled; 1 in
    /// quick runs, which never add rounds.
    let maxRoundsFactor: Double
    /// Whether each scenario's contenders run once to be counted by callgrind rather than timed
    /// (see InstructionCount.swift).
    let countInstructions: Bool
    private var groups: [MultiThreadedEventLoopGroup] = []

    init(quick: Bool, spreadLimit: Double, maxRoundsFactor: Double, countInstructions: Bool) {
        self.quick = quick
        self.spreadLimit = spreadLimit
        self.maxRoundsFactor = quick ? 1 : maxRoundsFactor
        self.countInstructions = countInstructions
    }

    /// A loop with a thread of its own, as a server would run it.
    var loop: any EventLoop { loop(0) }

    /// A second loop with a thread of its own, for a scenario whose work moves between two.
    var secondLoop: any EventLoop { loop(1) }

    private func loop(_ index: Int) -> any EventLoop {
        while groups.count <= index {
            groups.append(MultiThreadedEventLoopGroup(numberOfThreads: 1))
        }
        return groups[index].next()
    }

    /// Returns once every loop made so far has run all that was sent to it, so that no loop
    /// thread is still busy with one batch while callgrind counts the next.
    func settleLoops() {
        for group in groups {
            do {
                try group.next().submit {}.wait()
            } catch {
                fail("an event loop did not run an empty task: \(error)")
            }
        }
    }

    /// Picks the full or the quick variant of a size.
    func size(full: Int, quick: Int) -> Int {
        self.quick ? quick : full
    }

    /// The most rounds a scenario whose base is `base` rounds may run.
    func maxRounds(base: Int) -> Int {
        max(base, Int((Double(base) * maxRoundsFactor).rounded(.down)))
    }

    func shutDown() {
        for group in groups {
            do {
                try group.syncShutdownGracefully()
            } catch {
                progress("vow-benchmarks: could not shut an event loop down: \(error)")
            }
        }
        groups = []
    }
}

/// Every scenario in the order they run.
func allScenarios() -> [Scenario] {
    [
        latencyScenario(steps: 1),
        latencyScenario(steps: 2),
        latencyScenario(steps: 3),
        idiomQueuesScenario(),
        concurrentScenario(),
        inlineMap3Scenario(),
        doneCatchScenario(),
        creationResolvedScenario(),
        creationPendingScenario(),
        whenScenario(),
        whenThreadsScenario(),
        deepChainScenario(),
        mainActorHopScenario(),
        mainActorChainScenario(),
        actorChainScenario(),
        actorContendedScenario(),
        mainActorPromiseScenario(),
        cancelChainScenario(),
        manualClockTimersScenario(),
        processLaunchScenario(),
        // Last, because it tunes the allocator's trimming for the rest of the process.
        memoryScenario(),
    ]
}

/// Waits for a SwiftNIO future from outside its loop, failing the run on an error: the
/// benchmarks' futures never fail unless something is broken.
func waitFor<T: Sendable>(_ future: EventLoopFuture<T>, _ what: String) -> T {
    do {
        return try future.wait()
    } catch {
        fail("\(what): \(error)")
    }
}
