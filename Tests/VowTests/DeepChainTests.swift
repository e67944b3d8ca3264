import Testing
import Vow

@Suite struct DeepChainTests {
    /// PromiseKit overflows the stack at 10,000 inline steps; Vow's trampoline runs each
    /// nested resolution after the current one returns, so the stack stays flat.
    @Test func millionInlineStepsResolveWithoutStackOverflow() throws {
        let steps = 1_000_000
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for _ in 0..<steps {
            tail = tail.map(on: nil) { $0 + 1 }
        }
        resolver.fulfill(0)
        #expect(try value(of: tail) == steps)
    }

    @Test func deepChainOfGuaranteesResolves() throws {
        let steps = 200_000
        let (root, resolve) = Guarantee<Int>.pending()
        var tail = root
        for _ in 0..<steps {
            tail = tail.map(on: nil) { $0 + 1 }
        }
        resolve(0)
        #expect(try value(of: tail) == steps)
    }

    @Test func rejectionTravelsDownADeepChain() throws {
        let (root, resolver) = Promise<Int>.pending()
        var tail = root
        for _ in 0..<200_000 {
            tail = tail.map(on: nil) { $0 + 1 }
        }
        resolver.reject(TestError.boom)
        #expect(try error(of: tail) as? TestError == .boom)
    }
}
