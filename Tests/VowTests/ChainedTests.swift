import Dispatch
import Testing
import Vow

/// A thenable of a user's own, which leaves `Chained` as its default.
final class Mailbox<T: Sendable>: Thenable, Sendable {
    let promise: Promise<T>

    init(_ promise: Promise<T>) {
        self.promise = promise
    }

    func pipe(to handler: @escaping @Sendable (Result<T, any Error>) -> Void) {
        promise.pipe(to: handler)
    }

    var result: Result<T, any Error>? {
        promise.result
    }
}

/// The one form of `recover`, and of a guarantee's `then`, whose result the closure's thenable
/// decides through `Thenable.Chained`: each kind of closure gives what it gave when each had a
/// form of its own, and runs the step that kind promises.
@Suite struct ChainedTests {
    @Test func aGuaranteeRecoveryOnAQueueGivesAGuaranteeThatReceivesCancellations() throws {
        for cancellation in recoverCancellations {
            let recovered: Guarantee<Int> = Promise<Int>(error: cancellation).recover(on: .global()) {
                error in
                Guarantee.value(error.isCancelled ? 1 : 0)
            }
            #expect(try value(of: recovered) == 1, "\(cancellation) was not recovered")
        }
    }

    @Test func aPromiseRecoveryOnADispatcherGivesAPromise() throws {
        let recovered: Promise<Int> = Promise<Int>(error: TestError.boom).recover(on: .inline) { _ in
            Promise<Int>(error: TestError.other)
        }
        #expect(try error(of: recovered) as? TestError == .other)
    }

    @Test func aThrowingRecoveryThatReturnsAGuaranteeGivesAPromise() throws {
        let rethrown: Promise<Int> = Promise<Int>(error: TestError.boom).recover { error in
            if error is TestError { throw TestError.other }
            return Guarantee.value(1)
        }
        #expect(try error(of: rethrown) as? TestError == .other)
    }

    @Test func aRecoveryToAThenableOfYourOwnGivesAPromiseThatFollowsIt() throws {
        let (replacement, resolver) = Promise<Int>.pending()
        let recovered: Promise<Int> = Promise<Int>(error: TestError.boom).recover { _ in Mailbox(replacement)
        }
        #expect(recovered.isPending)
        resolver.fulfill(5)
        #expect(try value(of: recovered) == 5)
    }

    @Test func aGuaranteeThenThatReturnsAPromiseGivesAPromise() throws {
        let failed: Promise<Int> = Guarantee.value(1).then { _ in Promise<Int>(error: TestError.boom) }
        #expect(try error(of: failed) as? TestError == .boom)
        let mailed: Promise<Int> = Guarantee.value(1).then(on: .global()) { n in Mailbox(.value(n + 1)) }
        #expect(try value(of: mailed) == 2)
    }

    @Test func aGuaranteeThenThatReturnsAGuaranteeStaysAGuarantee() throws {
        let doubled: Guarantee<Int> = Guarantee.value(2).then(on: .inline) { n in Guarantee.value(n * 2) }
        #expect(try value(of: doubled) == 4)
    }

    @Test func aThrowingGuaranteeThenGivesAPromise() throws {
        let failed: Promise<Int> = Guarantee.value(1).then { n in
            if n == 1 { throw TestError.boom }
            return Guarantee.value(n)
        }
        #expect(try error(of: failed) as? TestError == .boom)
    }

    @Test func eachKindIsWhatTheCompilerInfers() {
        let guaranteed = Promise<Int>(error: TestError.boom).recover { _ in Guarantee.value(0) }
        let promised = Promise<Int>(error: TestError.boom).recover { _ in Promise.value(0) }
        let chained = Guarantee.value(0).then { n in Promise.value(n) }
        #expect(type(of: guaranteed) == Guarantee<Int>.self)
        #expect(type(of: promised) == Promise<Int>.self)
        #expect(type(of: chained) == Promise<Int>.self)
    }
}
