import Dispatch
import Testing
import Vow

@Suite struct EnsureTests {
    // MARK: ensure

    @Test func ensureRunsOnSuccessAndPassesTheValueOn() throws {
        let ran = Recorder<String>()
        let ensured = Promise.value(3).ensure { ran.record("ensure") }
        #expect(try value(of: ensured) == 3)
        #expect(ran.all == ["ensure"])
    }

    @Test func ensureRunsOnFailureAndPassesTheErrorOn() throws {
        let ran = Recorder<String>()
        let ensured = Promise<Int>(error: TestError.boom).ensure { ran.record("ensure") }
        #expect(try error(of: ensured) as? TestError == .boom)
        #expect(ran.all == ["ensure"])
    }

    @Test func ensureRunsForCancellationsToo() throws {
        let ran = Recorder<String>()
        let ensured = Promise<Int>(error: PromiseError.cancelled).ensure { ran.record("ensure") }
        #expect(try error(of: ensured)?.isCancelled == true)
        #expect(ran.all == ["ensure"])
    }

    @Test func ensureWaitsForAPendingPromise() throws {
        let ran = Recorder<String>()
        let (source, resolver) = Promise<Int>.pending()
        let ensured = source.ensure(on: nil) { ran.record("ensure") }
        #expect(ran.all.isEmpty)
        #expect(ensured.isPending)
        DispatchQueue.global().async { resolver.fulfill(4) }
        #expect(try value(of: ensured) == 4)
        #expect(ran.all == ["ensure"])
    }

    @Test func ensureRunsBeforeTheDownstreamHandler() throws {
        let order = Recorder<String>()
        let finished = Promise.value(1)
            .ensure { order.record("ensure") }
            .done { _ in order.record("done") }
        try value(of: finished)
        #expect(order.all == ["ensure", "done"])
    }

    @Test func ensureRunsOnTheGivenQueue() throws {
        let queue = TestQueue("vow.tests.ensure")
        let onQueue = Recorder<Bool>()
        let ensured = Promise<Int>(error: TestError.other).ensure(on: queue.queue) {
            onQueue.record(queue.isCurrent)
        }
        #expect(try error(of: ensured) as? TestError == .other)
        #expect(onQueue.all == [true])
    }

    // MARK: ensureThen

    @Test func ensureThenPassesTheValueOnAfterItsGuarantee() throws {
        let order = Recorder<String>()
        let ensured = Promise.value(5)
            .ensureThen {
                after(seconds: 0).map(on: nil) { order.record("guarantee") }
            }
            .get { _ in order.record("downstream") }
        #expect(try value(of: ensured) == 5)
        #expect(order.all == ["guarantee", "downstream"])
    }

    @Test func ensureThenPassesTheErrorOnAfterItsGuarantee() throws {
        let order = Recorder<String>()
        let ensured = Promise<Int>(error: TestError.boom)
            .ensureThen {
                after(seconds: 0).map(on: nil) { order.record("guarantee") }
            }
            .tap { _ in order.record("downstream") }
        #expect(try error(of: ensured) as? TestError == .boom)
        #expect(order.all == ["guarantee", "downstream"])
    }

    @Test func ensureThenHoldsTheResultUntilItsGuaranteeResolves() throws {
        let order = Recorder<String>()
        let (gate, open) = Guarantee<Void>.pending()
        let bodyRan = Promise<Void>.pending()
        let (source, resolver) = Promise<Int>.pending()
        let downstream =
            source
            .ensureThen(on: nil) {
                order.record("body")
                bodyRan.resolver.fulfill()
                return gate
            }
            .map(on: nil) { value -> Int in
                order.record("downstream")
                return value * 10
            }
        resolver.fulfill(7)
        try value(of: bodyRan.promise)
        #expect(downstream.isPending, "the result was passed on before the guarantee resolved")
        #expect(order.all == ["body"])
        order.record("guarantee resolved")
        open(())
        #expect(try value(of: downstream) == 70)
        #expect(order.all == ["body", "guarantee resolved", "downstream"])
    }

    @Test func ensureThenHoldsAnErrorUntilItsGuaranteeResolves() throws {
        let order = Recorder<String>()
        let (gate, open) = Guarantee<Void>.pending()
        let bodyRan = Promise<Void>.pending()
        let downstream = Promise<Int>(error: TestError.other)
            .ensureThen {
                bodyRan.resolver.fulfill()
                return gate
            }
            .tap(on: nil) { _ in order.record("downstream") }
        try value(of: bodyRan.promise)
        #expect(downstream.isPending, "the error was passed on before the guarantee resolved")
        DispatchQueue.global().async {
            order.record("guarantee resolved")
            open(())
        }
        #expect(try error(of: downstream) as? TestError == .other)
        #expect(order.all == ["guarantee resolved", "downstream"])
    }

    @Test func ensureThenRunsOnTheGivenQueue() throws {
        let queue = TestQueue("vow.tests.ensureThen")
        let onQueue = Recorder<Bool>()
        let ensured = Promise.value("kept").ensureThen(on: queue.queue) {
            onQueue.record(queue.isCurrent)
            return Guarantee()
        }
        #expect(try value(of: ensured) == "kept")
        #expect(onQueue.all == [true])
    }
}
