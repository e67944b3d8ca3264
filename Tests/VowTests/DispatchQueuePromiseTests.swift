import Dispatch
import Testing
import Vow

@Suite struct DispatchQueuePromiseTests {
    @Test func aThrowingBodyGivesAPromiseThatFulfils() throws {
        let shouldThrow = false
        let inferred = DispatchQueue.global().async(.promise) { () throws -> Int in
            if shouldThrow { throw TestError.boom }
            return 42
        }
        let promise: Promise<Int> = inferred
        #expect(try value(of: promise) == 42)
    }

    @Test func aThrowingBodyGivesAPromiseThatRejects() throws {
        let promise = DispatchQueue.global().async(.promise) { () throws -> Int in
            throw TestError.boom
        }
        #expect(try error(of: promise) as? TestError == .boom)
    }

    @Test func aBodyThatThrowsAtRuntimeRejects() throws {
        let promise = DispatchQueue.global().async(.promise) {
            try failIfAsked(true)
        }
        #expect(try error(of: promise) as? TestError == .other)
    }

    @Test func aNonThrowingBodyGivesAGuarantee() throws {
        let inferred = DispatchQueue.global().async(.promise) { 6 * 7 }
        let guarantee: Guarantee<Int> = inferred
        #expect(try value(of: guarantee) == 42)
    }

    @Test func aVoidBodyGivesAGuaranteeOfVoid() throws {
        let ran = Recorder<String>()
        let inferred = DispatchQueue.global().async(.promise) { ran.record("body") }
        let guarantee: Guarantee<Void> = inferred
        try value(of: guarantee)
        #expect(ran.all == ["body"])
    }

    @Test func aThrowingBodyRunsOnTheQueue() throws {
        let queue = TestQueue("vow.tests.dispatch.promise")
        let promise = queue.queue.async(.promise) { () throws -> Bool in
            try failIfAsked(false)
            return queue.isCurrent
        }
        #expect(try value(of: promise))
    }

    @Test func aNonThrowingBodyRunsOnTheQueue() throws {
        let queue = TestQueue("vow.tests.dispatch.guarantee")
        let guarantee: Guarantee<Bool> = queue.queue.async(.promise) { queue.isCurrent }
        #expect(try value(of: guarantee))
    }

    @Test func theBodyRunsOnTheMainQueueWhenAsked() throws {
        let guarantee = DispatchQueue.main.async(.promise) { "on main" }
        #expect(try value(of: guarantee) == "on main")
    }

    @Test func bodiesOnASerialQueueRunInOrder() throws {
        let queue = TestQueue("vow.tests.dispatch.serial")
        let order = Recorder<Int>()
        let guarantees = (0..<20).map { index in queue.queue.async(.promise) { order.record(index) } }
        try value(of: when(guarantees: guarantees))
        #expect(order.all == Array(0..<20))
    }

    @Test func theGroupIsEnteredUntilTheBodyRan() throws {
        let group = DispatchGroup()
        let ran = Recorder<String>()
        let guarantee = DispatchQueue.global().async(.promise, group: group) { ran.record("guarantee") }
        let promise = DispatchQueue.global().async(.promise, group: group) { () throws -> Int in
            ran.record("promise")
            return 1
        }
        #expect(group.wait(timeout: .now() + patience) == .success)
        #expect(Set(ran.all) == ["guarantee", "promise"])
        try value(of: guarantee)
        #expect(try value(of: promise) == 1)
    }

    @Test func aChainCanFollow() throws {
        let chained = DispatchQueue.global().async(.promise) { 20 }.map { $0 + 1 }.then { value in
            DispatchQueue.global().async(.promise) { () throws -> Int in value * 2 }
        }
        #expect(try value(of: chained) == 42)
    }
}

private func failIfAsked(_ fail: Bool) throws {
    if fail { throw TestError.other }
}
