import Testing

@testable import Vow

@Suite struct ChainDescriptionTests {
    @Test func aPendingChainNamesEachStepDownToItsRoot() {
        let (root, resolver) = Promise<Int>.pending()
        let doubled = root.map(on: nil) { $0 * 2 }
        let text = doubled.map(on: nil) { "\($0)" }
        print(text.chainDescription)
        resolver.fulfill(1)
        print(text.chainDescription)
    }

    @Test func aWhenListsItsPendingInputs() {
        let (a, ra) = Promise<Int>.pending()
        let (b, rb) = Promise<Int>.pending()
        let both = when(fulfilled: [a.map(on: nil) { $0 }, b]).map(on: nil) { $0.count }
        print(both.chainDescription)
        ra.fulfill(1)
        print(both.chainDescription)
        rb.fulfill(2)
        print(both.chainDescription)
    }

    @Test func aLongChainIsCut() {
        let (root, resolver) = Promise<Int>.pending()
        var chain = root
        for _ in 0..<100 { chain = chain.map(on: nil) { $0 + 1 } }
        print(chain.chainDescription)
        resolver.fulfill(0)
    }

    @Test func aDroppedGuaranteeResolverIsNamed() {
        var g: Guarantee<Int>? = nil
        do {
            let (guarantee, _) = Guarantee<Int>.pending()
            g = guarantee.map(on: nil) { $0 }
        }
        print(g!.chainDescription)
    }
}

struct Boom: Error {}

@Suite struct FailureOriginProbe {
    @Test func probe() throws {
        let (root, resolver) = Promise<Int>.pending()
        let chain = root.map(on: nil) { $0 + 1 }.map(on: nil) { (_: Int) -> Int in throw Boom() }.map(on: nil) { $0 + 2 }
        let seen = Locked<String?>(nil)
        let done = chain.recover(on: nil) { _ -> Promise<Int> in
            seen.withLock { $0 = FailureOrigin.current?.description }
            return Promise.value(0)
        }
        resolver.fulfill(1)
        print("chain:", chain.failureOrigin as Any, "seen:", seen.withLock { $0 } as Any)
        _ = done
        let (r2, res2) = Promise<Int>.pending()
        let c2 = r2.map(on: nil) { $0 }
        res2.reject(Boom())
        print("c2:", c2.failureOrigin as Any)
        let (r3, res3) = Promise<Int>.pending()
        let other = Promise<Int>.pending()
        let w = when(fulfilled: [r3, other.promise]).map(on: nil) { $0 }
        res3.reject(Boom())
        print("when:", w.failureOrigin as Any, r3.failureOrigin as Any, w.chainDescription)
        other.resolver.fulfill(1)
        let t = Promise<Int>.value(1).then(on: nil) { _ in c2 }
        print("then-follow:", t.failureOrigin as Any)
    }
}
