import Dispatch
import Testing
import Vow

/// Cancelling a chain as long as the user makes it, through every kind of link that waits on
/// several upstreams, walks it in a loop: it reaches the root's work on a thread whose stack is
/// an eighth of a Dispatch worker's on Apple platforms, and stops it exactly once.
///
/// Each link recursed five frames deep before, and cancelling a chain of 4,000 races
/// overflowed a 512 KiB stack.
@Suite struct DeepCancellationTests {
    /// A kind of link, each made from the promise before it.
    enum Link: String, CaseIterable, CustomTestStringConvertible {
        /// `race([acc, loser])`.
        case race
        /// `race(acc, loser)` of guarantees, behind a step that makes a promise of it.
        case raceOfGuarantees
        /// `when(fulfilled: [acc, other])`.
        case whenOfArray
        /// `when(fulfilled: acc, other).map { … }`: the reduce form.
        case whenReduce
        /// `when(resolved: [acc])`.
        case whenResolved
        /// `when(fulfilled: [acc, value] iterator, concurrently: 1)`: a throttle.
        case whenConcurrently
        /// `acc.timeout(seconds:)`.
        case timeout
        /// A `PromiseCache` whose lookup is the promise before.
        case cacheLookup

        var testDescription: String { rawValue }
    }

    /// How many links a chain has: enough to overflow ``smallStack`` ten times over, had each
    /// link still recursed as it did before. With `VOW_STRESS=full`, a hundred thousand in a
    /// debug build, a million in an optimized one, and twenty thousand under Thread Sanitizer.
    static let links: Int = {
        #if DEBUG
        stressSize(deepEnough, full: 100_000, sanitized: 20_000)
        #else
        stressSize(deepEnough, full: 1_000_000, sanitized: 20_000)
        #endif
    }()

    @Test(arguments: Link.allCases)
    func cancellingTheEndOfALongChainStopsTheRootOnce(_ kind: Link) async throws {
        let outcome = try await stressTest(stackSize: smallStack) { try Self.cancelChain(of: kind) }
        #expect(outcome.rootStops == 1, "the root's work hears the cancellation exactly once")
        #expect(outcome.tailWasCancelled, "the chain's last promise rejects with cancelled")
        #expect(
            outcome.sideStops == outcome.expectedSideStops,
            "every other input of every link hears it once, as far as nothing else waits for it")
    }

    /// What cancelling a chain did.
    struct Outcome: Sendable {
        var rootStops: Int
        var tailWasCancelled: Bool
        var sideStops: Int
        var expectedSideStops: Int
    }

    /// Builds a chain of ``links`` links of `kind` on a stoppable root, lets go of every
    /// promise but the last, cancels it, and reports what heard the cancellation.
    private static func cancelChain(of kind: Link) throws -> Outcome {
        let sideStops = Counter()
        var sideResolvers: [Resolver<Int>] = []
        /// Another input of a link: pending work, whose resolver is kept so that only the
        /// cancellation can end it.
        func sideInput() -> Promise<Int> {
            let (promise, resolver) = Promise<Int>.pending()
            resolver.onCancel { sideStops.increment() }
            sideResolvers.append(resolver)
            return promise
        }
        var caches: [PromiseCache<Int, Int>] = []
        let (root, tailWasCancelled) = StoppableWork.start { root -> Bool in
            var acc = root
            for _ in 0..<links {
                switch kind {
                case .race:
                    acc = race([acc, sideInput()])
                case .raceOfGuarantees:
                    let previous = acc.recover(on: nil) { _ in Guarantee.value(0) }
                    let side = sideInput().recover(on: nil) { _ in Guarantee.value(0) }
                    acc = race(previous, side).then(on: nil) { Promise.value($0) }
                case .whenOfArray:
                    acc = when(fulfilled: [acc, sideInput()]).map(on: nil) { $0[0] }
                case .whenReduce:
                    acc = when(fulfilled: acc, sideInput()).map(on: nil) { $0 + $1 }
                case .whenResolved:
                    acc = when(resolved: [acc]).then(on: nil) { Promise.value($0.count) }
                case .whenConcurrently:
                    acc = when(fulfilled: [acc, Promise.value(0)].makeIterator(), concurrently: 1)
                        .map(on: nil) { $0[0] }
                case .timeout:
                    acc = acc.timeout(seconds: 3_600)
                case .cacheLookup:
                    // Handed over once: a lookup that kept the promise would keep it from being
                    // cancelled, since something else could still wait for it.
                    let previous = Protected<Promise<Int>?>(acc)
                    let cache = PromiseCache<Int, Int> { _ in
                        try previous.withLock { promise in
                            defer { promise = nil }
                            guard let promise else { throw TestError.boom }
                            return promise
                        }
                    }
                    caches.append(cache)
                    acc = cache.value(for: 0)
                }
            }
            acc.cancel()
            return acc.result?.isCancellation == true
        }
        let expectedSideStops =
            switch kind {
            case .race, .raceOfGuarantees, .whenOfArray, .whenReduce: links
            case .whenResolved, .whenConcurrently, .timeout, .cacheLookup: 0
            }
        let outcome = Outcome(
            rootStops: root.stopCount, tailWasCancelled: tailWasCancelled,
            sideStops: sideStops.value, expectedSideStops: expectedSideStops)
        withExtendedLifetime(caches) {}
        return outcome
    }
}
