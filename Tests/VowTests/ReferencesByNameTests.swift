import Dispatch
import Testing

@testable import Vow

/// Vow's functions and methods passed by name compile and do what a call does, as they did
/// before calls recorded their line; a call still records it. This file compiling is half of
/// each test.
@Suite struct ReferencesByNameTests {
    /// `race(fulfilled:)` passes by name; `when` and `race(_:)` pass as closures, the way
    /// the migration guide gives, since a form of theirs would cost every call of them.
    @Test func combinatorsPassByNameOrAsClosures() throws {
        let batches = [[Promise.value(1), Promise.value(2)], [Promise.value(3)]]
        #expect(try batches.map(race(fulfilled:)).map { try $0.wait() }[1] == 3)
        #expect(try batches.map { when(fulfilled: $0) }.map { try $0.wait() } == [[1, 2], [3]])
        let combined = try Promise.value(batches[0]).then(on: nil) { when(fulfilled: $0) }.wait()
        #expect(combined == [1, 2])
        #expect(try batches.map { race($0) }.map { try $0.wait() }.count == 2)
    }

    @Test func timersAndWaitsPassedByName() throws {
        let timers =
            [0.0, 0.001].map(after(seconds:)) + [DispatchTimeInterval.milliseconds(1)].map(after(_:))
        #expect(timers.map(hang(_:)).count == 3)
        #expect(try [Promise.value(4)].map(hang(_:)) == [4])
        [Promise.value(1).cauterize()].forEach(hang(_:))
        let promise = Promise.value(5)
        let waiting: () throws -> Int = promise.wait
        #expect(try waiting() == 5)
        let guaranteeWaiting: () -> Int = Guarantee.value(6).wait
        #expect(guaranteeWaiting() == 6)
        let finalizerWaiting: () -> Void = promise.cauterize().wait
        finalizerWaiting()
    }

    @Test func methodsAndInitializersPassedByName() throws {
        let promise = Promise.value(1)
        let asVoid: () -> Promise<Void> = promise.asVoid
        #expect(throws: Never.self) { try asVoid().wait() }
        let guaranteeAsVoid: () -> Guarantee<Void> = Guarantee.value(1).asVoid
        guaranteeAsVoid().wait()
        let ending: () -> Finalizer = promise.cauterize
        ending().wait()
        let failures = [TestError.boom].map(Promise<Int>.init(error:))
        #expect(throws: TestError.boom) { try failures[0].wait() }
        let cache = PromiseCache<Int, Int> { Promise.value($0 * 10) }
        #expect(try [1, 2].map(cache.value(for:)).map { try $0.wait() } == [10, 20])
    }

    /// A reference records the operation and no line; a call, which matches both forms, records
    /// its line as ever.
    @Test func aReferenceRecordsNoLineAndACallRecordsItsOwn() {
        let (root, resolver) = Promise<Int>.pending()
        let referenced = [[root]].map(race(fulfilled:))[0]
        let line = #line + 1
        let called = race(fulfilled: [root])
        #expect(
            referenced.chainDescription.hasPrefix("Promise<Int>: race(fulfilled:), its line not recorded"))
        #expect(
            called.chainDescription.hasPrefix(
                "Promise<Int>: race(fulfilled:) at VowTests/ReferencesByNameTests.swift:\(line)"))
        let failed = [TestError.boom].map(Promise<Int>.init(error:))[0]
        #expect(failed.failureOrigin == nil)
        resolver.fulfill(1)
    }
}
