import Testing

@testable import Vow

/// A chain describes itself in debug builds, which is how the suite runs: each step's operation,
/// its line in this file, and its state, down to the pending root; a combinator lists its
/// pending inputs; long paths are cut. Each test writes its chain on consecutive lines after a
/// `#line` it names them by.
@Suite struct ChainDescriptionTests {
    let file = "VowTests/ChainDescriptionTests.swift"

    @Test func aPendingChainNamesEachStepDownToItsRootAndItsResolver() {
        let first = #line + 1
        let (root, resolver) = Promise<Int>.pending()
        let doubled = root.map(on: nil) { $0 * 2 }
        let text = doubled.map(on: nil) { "\($0)" }
        #expect(
            text.chainDescription == """
                Promise<String>: map at \(file):\(first + 2), pending
                  1. map at \(file):\(first + 1), pending
                  2. Promise.pending() at \(file):\(first), pending: its resolver is held and has not settled it
                """)
        resolver.fulfill(1)
        #expect(text.chainDescription == "Promise<String>: map at \(file):\(first + 2), fulfilled")
    }

    @Test func aSettledPromiseSaysHowItSettled() {
        let first = #line + 1
        let (rejectedRoot, rejecter) = Promise<Int>.pending()
        let (cancelledRoot, canceller) = Promise<Int>.pending()
        rejecter.reject(TestError.boom)
        cancelledRoot.cancel()
        // Held until the promise is cancelled: a resolver released first is reported.
        withExtendedLifetime(canceller) {}
        #expect(
            rejectedRoot.chainDescription
                == "Promise<Int>: Promise.pending() at \(file):\(first), rejected: boom")
        #expect(
            cancelledRoot.chainDescription
                == "Promise<Int>: Promise.pending() at \(file):\(first + 1), cancelled")
        #expect(Promise.value(1).chainDescription == "Promise<Int>: fulfilled")
        #expect(Guarantee.value(1).chainDescription == "Guarantee<Int>: resolved")
    }

    @Test func aStepWhoseBodyReturnedAPromiseWaitsOnThatPromise() {
        let first = #line + 1
        let (inner, resolver) = Promise<Int>.pending()
        let outer = Promise.value(1).then(on: nil) { _ in inner }
        #expect(
            outer.chainDescription == """
                Promise<Int>: then at \(file):\(first + 1), pending
                  1. Promise.pending() at \(file):\(first), pending: its resolver is held and has not settled it
                """)
        resolver.fulfill(2)
    }

    @Test func aStepWhoseInputArrivedSaysItsHandlerIsQueued() {
        let dispatcher = ManualDispatcher()
        let line = #line + 1
        let step = Promise.value(1).map(on: dispatcher) { $0 + 1 }
        #expect(
            step.chainDescription
                == "Promise<Int>: map at \(file):\(line), pending: its input has arrived; its handler is queued or running"
        )
        #expect(dispatcher.runAll() == 1)
        #expect(step.chainDescription == "Promise<Int>: map at \(file):\(line), fulfilled")
    }

    @Test func aCombinatorListsOnlyItsPendingInputs() {
        let first = #line + 1
        let (a, settleA) = Promise<Int>.pending()
        let (b, settleB) = Promise<Int>.pending()
        let both = when(fulfilled: [a.map(on: nil) { $0 }, b]).map(on: nil) { $0.count }
        let lines = both.chainDescription.split(separator: "\n").map(String.init)
        #expect(lines.first == "Promise<Int>: map at \(file):\(first + 2), pending")
        #expect(lines.dropFirst().first?.hasSuffix(", pending: waits on 2 pending inputs") == true)
        #expect(
            Array(lines.dropFirst(2)) == [
                "     - map at \(file):\(first + 2), pending",
                "       1. Promise.pending() at \(file):\(first), pending: its resolver is held and has not settled it",
                "     - Promise.pending() at \(file):\(first + 1), pending: its resolver is held and has not settled it",
            ])
        settleA.fulfill(1)
        let after = both.chainDescription.split(separator: "\n").map(String.init)
        #expect(after.dropFirst().first?.hasSuffix(", pending: waits on 1 pending input") == true)
        #expect(
            Array(after.dropFirst(2)) == [
                "     - Promise.pending() at \(file):\(first + 1), pending: its resolver is held and has not settled it"
            ])
        settleB.fulfill(2)
        #expect(both.chainDescription == "Promise<Int>: map at \(file):\(first + 2), fulfilled")
    }

    @Test func aLongChainShowsItsStartAndEndAndCountsTheRest() {
        let first = #line + 1
        let (root, resolver) = Promise<Int>.pending()
        var chain = root
        for _ in 0..<100 { chain = chain.map(on: nil) { $0 + 1 } }
        let lines = chain.chainDescription.split(separator: "\n").map(String.init)
        let step = "map at \(file):\(first + 2), pending"
        #expect(lines.count == ChainDescription.maximumPath + 1)
        #expect(lines[0] == "Promise<Int>: \(step)")
        #expect(
            lines[1...5] == ["  1. \(step)", "  2. \(step)", "  3. \(step)", "  4. \(step)", "  5. \(step)"])
        #expect(lines[6] == "  … 89 more steps …")
        #expect(
            lines[7...11] == [
                "  95. \(step)", "  96. \(step)", "  97. \(step)", "  98. \(step)", "  99. \(step)",
            ])
        #expect(
            lines[12]
                == "  100. Promise.pending() at \(file):\(first), pending: its resolver is held and has not settled it"
        )
        resolver.fulfill(0)
    }

    @Test func aGuaranteeWhoseResolveFunctionWasDroppedSaysNothingCanResolveIt() {
        let first = #line + 1
        let (held, resolve) = Guarantee<Int>.pending()
        #expect(
            held.chainDescription
                == "Guarantee<Int>: Guarantee.pending() at \(file):\(first), pending: its resolve function is held and has not been called"
        )
        resolve(1)
        let ((dropped, _), site) = expectingLeakReport(Guarantee<Int>.pending())
        #expect(
            dropped.chainDescription
                == "Guarantee<Int>: Guarantee.pending() at \(site), pending: its resolve function was released uncalled, so nothing can resolve it"
        )
        #expect(LeakReports.shared.count(at: site) == 1)
    }

    @Test @MainActor func eachKindOfPromiseSaysWhatItIs() {
        let clock = ManualClock()
        let first = #line + 1
        let (root, resolver) = Promise<Int>.pending()
        let limited = root.timeout(.seconds(5), clock: clock)
        let lazy = Promise<Int>.lazy { $0.fulfill(1) }
        let cache = PromiseCache<Int, Int> { _ in root }
        let looked = cache.value(for: 1)
        let retried = retry(attempts: 2, clock: clock) { root }
        let raced = race([root, limited])
        let onMain = MainActorPromise(root).map { $0 + 1 }
        let held =
            "Promise.pending() at \(file):\(first), pending: its resolver is held and has not settled it"

        #expect(
            limited.chainDescription == """
                Promise<Int>: timeout at \(file):\(first + 1), pending: waits on 2 pending inputs
                  - \(held)
                  - timeout's timer at \(file):\(first + 1), pending: waits on work that a cancellation stops
                """)
        #expect(
            lazy.chainDescription
                == "Promise<Int>: Promise.lazy at \(file):\(first + 2), pending: lazy: its work starts once something waits on it"
        )
        #expect(
            looked.chainDescription.hasPrefix(
                "Promise<Int>: PromiseCache.value(for:) at \(file):\(first + 4), pending"))
        #expect(
            looked.chainDescription.contains(
                "shares the lookup below with every caller of its key\n  1. PromiseCache lookup at \(file):\(first + 4)"
            ))
        #expect(looked.chainDescription.hasSuffix(held))
        #expect(retried.chainDescription.hasPrefix("Promise<Int>: retry at \(file):\(first + 5), pending"))
        #expect(
            raced.chainDescription.hasPrefix(
                "Promise<Int>: race at \(file):\(first + 6), pending: waits on 2 pending inputs"))
        #expect(
            onMain.chainDescription == """
                MainActorPromise<Int>: map at \(file):\(first + 7), pending
                  1. MainActorPromise(_:) at \(file):\(first + 7), pending
                  2. \(held)
                """)
        resolver.fulfill(1)
    }
}
