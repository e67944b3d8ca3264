import Testing
import Vow

@Suite struct DeepChainTests {
    /// PromiseKit overflows an 8 MiB stack at 10,000 inline steps; Vow's trampoline runs each
    /// nested resolution after the current one returns, so the stack stays flat, and a chain
    /// that would overflow a small stack many times over if each step nested runs on it.
    @Test func aLongChainOfInlineStepsResolvesOnASmallStack() async throws {
        let steps = stressSize(deepEnough, full: 1_000_000, sanitized: 100_000)
        #expect(try await stressTest(stackSize: smallStack) { try Self.chain(steps: steps) } == steps)
    }

    /// The value at the end of `steps` inline `map` steps on a promise fulfilled with 0.
    private static func chain(steps: Int) throws -> Int {
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for _ in 0..<steps {
            tail = tail.map(on: nil) { $0 + 1 }
        }
        resolver.fulfill(0)
        return try value(of: tail)
    }

    @Test func aLongChainOfGuaranteesResolvesOnASmallStack() async throws {
        let steps = stressSize(deepEnough, full: 200_000, sanitized: 20_000)
        #expect(
            try await stressTest(stackSize: smallStack) { try Self.guaranteeChain(steps: steps) } == steps)
    }

    /// The value at the end of `steps` inline `map` steps on a guarantee resolved with 0.
    private static func guaranteeChain(steps: Int) throws -> Int {
        let (root, resolve) = Guarantee<Int>.pending()
        var tail = root
        for _ in 0..<steps {
            tail = tail.map(on: nil) { $0 + 1 }
        }
        resolve(0)
        return try value(of: tail)
    }

    @Test func aRejectionTravelsDownALongChainOnASmallStack() async throws {
        let steps = stressSize(deepEnough, full: 200_000, sanitized: 20_000)
        let error = try await stressTest(stackSize: smallStack) { try Self.rejectedChain(steps: steps) }
        #expect(error == .boom)
    }

    /// The error at the end of `steps` inline `map` steps on a promise rejected with `boom`.
    private static func rejectedChain(steps: Int) throws -> TestError? {
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for _ in 0..<steps {
            tail = tail.map(on: nil) { $0 + 1 }
        }
        resolver.reject(TestError.boom)
        return try error(of: tail) as? TestError
    }

    /// Each pending box owns the next link of its chain; released recursively, a long unresolved
    /// chain would overflow the stack. Only the root resolver is reported. (Outside the serialized
    /// ConfigurationTests, since it changes nothing of `conf`: its turn among the stress tests
    /// would hold up that suite's other tests.)
    @Test func releasingALongUnresolvedChainIsSafeAndReportedOnce() async throws {
        let steps = stressSize(deepEnough, full: 100_000, sanitized: 10_000)
        let reports = try await stressTest(stackSize: smallStack) {
            let site = {
                let ((root, _), site) = expectingLeakReport(Promise<Int>.pending())
                var tail = root
                for _ in 0..<steps {
                    tail = tail.map(on: nil) { $0 + 1 }
                }
                return site
            }()
            return LeakReports.shared.count(at: site)
        }
        #expect(reports == 1)
    }
}

/// A chain of lazy promises, each waiting on the one before: waking the last wakes every one,
/// and releasing or cancelling a dormant chain releases every one, all on a small stack. Each
/// used to recurse a frame or more per link, and overflowed 512 KiB within 700 links.
@Suite struct LazyChainTests {
    /// `links` lazy promises, each of whose work returns the one before, on a lazy root of 0.
    private static func lazyChain(links: Int) -> Promise<Int> {
        var tail = Promise<Int>.lazy { resolver in resolver.fulfill(0) }
        for _ in 0..<links {
            let previous = tail
            tail = Promise<Int>.lazy { previous }
        }
        return tail
    }

    @Test func wakingALongLazyChainRunsOnASmallStack() async throws {
        let links = stressSize(deepEnough, full: 200_000, sanitized: 20_000)
        let value = try await stressTest(stackSize: smallStack) { try Self.lazyChain(links: links).wait() }
        #expect(value == 0)
    }

    @Test func releasingADormantLazyChainRunsOnASmallStack() async throws {
        let links = stressSize(deepEnough, full: 200_000, sanitized: 20_000)
        let released = try await stressTest(stackSize: smallStack) { () -> Bool in
            weak var last: Promise<Int>?
            do {
                let chain = Self.lazyChain(links: links)
                last = chain
            }
            return last == nil
        }
        #expect(released)
    }

    @Test func cancellingADormantLazyChainRunsOnASmallStack() async throws {
        let links = stressSize(deepEnough, full: 200_000, sanitized: 20_000)
        let cancelled = try await stressTest(stackSize: smallStack) { () -> Bool in
            let chain = Self.lazyChain(links: links)
            chain.cancel()
            return chain.isRejected
        }
        #expect(cancelled)
    }
}
