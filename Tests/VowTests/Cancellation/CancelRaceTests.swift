import Dispatch
import Testing
import Vow

/// `cancel()` racing with a resolution on another thread.
@Suite struct CancelRaceTests {
    @Test func cancelRacingFulfilSettlesOnceAndRunsEveryHandlerOnce() async throws {
        let (cancelWins, fulfilWins, tally) = try await stressTest {
            var cancelWins = 0
            var fulfilWins = 0
            let tally = try raceRounds(
                atMost: 100_000, sanitized: 10_000, until: { cancelWins > 0 && fulfilWins > 0 }
            ) { round in
                let (promise, resolver) = Promise<Int>.pending()
                let hooks = Counter()
                let handlers = Counter()
                resolver.onCancel { hooks.increment() }
                let mapped = promise.map(on: nil) { $0 + 1 }
                promise.pipe { _ in handlers.increment() }
                mapped.pipe { _ in handlers.increment() }
                let raced = runTogether(round: round, { resolver.fulfill(round) }, { promise.cancel() })
                let result = try #require(promise.result)
                #expect(handlers.value == 2, "round \(round): handlers ran \(handlers.value) times")
                if result.isCancellation {
                    cancelWins += 1
                    #expect(
                        hooks.value == 1,
                        "round \(round): the cancel won but onCancel ran \(hooks.value) times")
                    #expect(mapped.result?.isCancellation == true)
                } else {
                    fulfilWins += 1
                    #expect(try result.get() == round)
                    #expect(hooks.value == 0, "round \(round): the fulfil won but onCancel ran")
                    #expect(try mapped.result?.get() == round + 1)
                }
                return raced
            }
            return (cancelWins, fulfilWins, tally)
        }
        #expect(tally.raced > 0, "the two calls never ran at once in \(tally.rounds) rounds")
        #expect(cancelWins > 0)
        #expect(fulfilWins > 0)
    }

    @Test func cancellingTheEndOfAChainWhileItsStartResolvesRunsEachStepAtMostOnce() async throws {
        let (stopped, finished, tally) = try await stressTest {
            var stopped = 0
            var finished = 0
            let tally = raceRounds(atMost: 20_000, sanitized: 4_000, until: { stopped > 0 && finished > 0 }) {
                round in
                var raced = false
                let steps = Counter()
                let hooks = Counter()
                let (end, resolver): (Promise<Int>, Resolver<Int>) = {
                    let (promise, resolver) = Promise<Int>.pending()
                    resolver.onCancel { hooks.increment() }
                    let end = promise.map(on: nil) { value -> Int in
                        steps.increment()
                        return value
                    }.map(on: nil) { value -> Int in
                        steps.increment()
                        return value
                    }
                    return (end, resolver)
                }()
                // Most rounds race the two calls. Every eighth round makes them one after the
                // other instead, cancelling first and fulfilling first in turn, so that both
                // outcomes occur whatever the machine's timing: on a quiet one every raced round
                // may meet, and the fulfil, one barrier to the cancellation's three, then wins.
                switch round % 16 {
                case 0:
                    end.cancel()
                    resolver.fulfill(round)
                case 8:
                    resolver.fulfill(round)
                    end.cancel()
                default:
                    raced = runTogether(round: round, { resolver.fulfill(round) }, { end.cancel() })
                }
                #expect(steps.value <= 2)
                #expect(hooks.value <= 1)
                if hooks.value == 1 {
                    stopped += 1
                    #expect(steps.value == 0, "round \(round): the work was cancelled but a step ran")
                }
                if steps.value == 2 { finished += 1 }
                return raced
            }
            return (stopped, finished, tally)
        }
        #expect(tally.raced > 0, "the two calls never ran at once in \(tally.rounds) rounds")
        #expect(stopped > 0)
        #expect(finished > 0)
    }
}
