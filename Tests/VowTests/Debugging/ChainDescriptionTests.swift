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

    /// Two promises that wait on each other: the description names the cycle and ends, where
    /// it used to walk round it for good.
    @Test func aCycleIsNamedAndTheDescriptionEnds() {
        let later = Locked<Promise<Int>?>(nil)
        let (gate, opener) = Promise<Void>.pending()
        let first = #line + 1
        let waiting = gate.then(on: nil) { later.withLock { $0! } }
        let echo = waiting.map(on: nil) { $0 }
        later.withLock { $0 = echo }
        opener.fulfill(())
        #expect(
            echo.chainDescription == """
                Promise<Int>: map at \(file):\(first + 1), pending
                  1. then at \(file):\(first), pending: waits on step 0 of this path: a cycle, which nothing can settle
                """)
        // Cancelled, which settles both: a cycle left pending would keep itself alive for good.
        echo.cancel()
        #expect(echo.isRejected && waiting.isRejected)
    }

    /// A cycle through a combinator's input: the input's path reaches a box of the path above.
    @Test func aCycleThroughACombinatorsInputIsNamed() {
        let later = Locked<Promise<[Int]>?>(nil)
        let (gate, opener) = Promise<Void>.pending()
        let first = #line + 1
        let input = gate.then(on: nil) { later.withLock { $0! }.map(on: nil) { $0.count } }
        let all = when(fulfilled: [input])
        later.withLock { $0 = all }
        opener.fulfill(())
        #expect(
            all.chainDescription == """
                Promise<Array<Int>>: when(fulfilled:) at \(file):\(first + 1), pending: waits on 1 pending input
                  - then at \(file):\(first), pending
                    1. map at \(file):\(first), pending: waits on when(fulfilled:) at \(file):\(first + 1), above, which waits on this: a cycle, which nothing can settle
                """)
        all.cancel()
        #expect(all.isRejected)
    }

    /// However wide a tree of combinators, a description writes at most `maximumLines` lines,
    /// and says how many it left out.
    @Test func aWideTreeStopsAtTheLineLimitAndSaysSo() {
        let (root, resolver) = Promise<Int>.pending()
        let tree = when(
            fulfilled: (0..<8).map { _ in
                when(
                    fulfilled: (0..<8).map { _ in
                        when(fulfilled: (0..<8).map { _ in root.map(on: nil) { $0 } })
                    })
            })
        let lines = tree.chainDescription.split(separator: "\n").map(String.init)
        #expect(lines.count == ChainDescription.maximumLines + 1)
        #expect(
            lines.last?.hasPrefix("… ") == true
                && lines.last?.hasSuffix(" more lines left out: a description stops at 200") == true,
            "\(lines.last ?? "")")
        resolver.fulfill(1)
    }

    /// However long a chain, a description reads at most `maximumLinks` links, and says the
    /// path goes on.
    @Test func aChainLongerThanTheLinkLimitSaysThePathGoesOn() {
        let (root, resolver) = Promise<Int>.pending()
        var chain = root
        for _ in 0..<(ChainDescription.maximumLinks + 10) { chain = chain.map(on: nil) { $0 + 1 } }
        let lines = chain.chainDescription.split(separator: "\n").map(String.init)
        #expect(lines.count == ChainDescription.maximumPath + 2)
        #expect(lines.last == "  … the path goes on: a description reads at most 100000 links")
        #expect(!lines.contains { $0.contains("Promise.pending()") })
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
