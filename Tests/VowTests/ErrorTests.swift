import Foundation
import Testing
import Vow

@Suite struct ErrorTests {
    // MARK: Descriptions

    @Test func theListCoversEveryCase() {
        #expect(Set(allPromiseErrors.map(\.caseName)).count == 9)
    }

    @Test func everyCaseHasANonEmptyDescription() {
        for error in allPromiseErrors {
            #expect(!error.description.isEmpty, "\(error.caseName) has an empty description")
        }
    }

    @Test func descriptionsAreDistinct() {
        let descriptions = allPromiseErrors.map(\.description)
        #expect(Set(descriptions).count == allPromiseErrors.count, "descriptions: \(descriptions)")
    }

    @Test func debugDescriptionsNameTheCase() {
        for error in allPromiseErrors {
            let name = error.caseName
            #expect(
                error.debugDescription.hasPrefix("PromiseError.\(name):"),
                "debugDescription of \(name): \(error.debugDescription)")
        }
    }

    @Test func debugDescriptionsIncludeTheDescription() {
        for error in allPromiseErrors {
            #expect(
                error.debugDescription.hasSuffix(error.description),
                "debugDescription of \(error.caseName): \(error.debugDescription)")
        }
    }

    @Test func stringConversionsUseTheDescriptions() {
        let error = PromiseError.noWinner
        #expect(String(describing: error) == error.description)
        #expect(String(reflecting: error) == error.debugDescription)
    }

    @Test func theCompactMapDescriptionNamesTheValueAndType() {
        let description = PromiseError.compactMap("forty-two", Int.self).description
        #expect(description.contains("forty-two"))
        #expect(description.contains("Int"))
    }

    // MARK: isCancelled

    @Test func promiseErrorCancelledIsCancelled() {
        #expect(PromiseError.cancelled.isCancelled)
        let erased: any Error = PromiseError.cancelled
        #expect(erased.isCancelled)
    }

    @Test func otherPromiseErrorsAreNotCancelled() {
        for error in allPromiseErrors where error.caseName != "cancelled" {
            let name = error.caseName
            #expect(!error.isCancelled, "\(name) claims to be a cancellation")
            let erased: any Error = error
            #expect(!erased.isCancelled, "\(name), as any Error, claims to be a cancellation")
        }
    }

    @Test func aCancellableErrorDecides() {
        #expect(TestCancellation().isCancelled)
        #expect(!Refusal(cancelled: false).isCancelled)
        #expect(Refusal(cancelled: true).isCancelled)
        let erased: [any Error] = [Refusal(cancelled: false), Refusal(cancelled: true), TestCancellation()]
        #expect(erased.map(\.isCancelled) == [false, true, true])
    }

    @Test func swiftConcurrencyCancellationIsCancelled() {
        #expect(CancellationError().isCancelled)
        let erased: any Error = CancellationError()
        #expect(erased.isCancelled)
    }

    @Test func aCancelledURLErrorIsCancelled() {
        #expect(URLError(.cancelled).isCancelled)
        let erased: any Error = URLError(.cancelled)
        #expect(erased.isCancelled)
    }

    @Test func anotherURLErrorIsNotCancelled() {
        #expect(!URLError(.timedOut).isCancelled)
        let erased: any Error = URLError(.notConnectedToInternet)
        #expect(!erased.isCancelled)
    }

    @Test func aPlainErrorIsNotCancelled() {
        #expect(!TestError.boom.isCancelled)
        let erased: any Error = TestError.other
        #expect(!erased.isCancelled)
    }

    /// A conforming type without an `isCancelled` of its own gets the protocol's default, which
    /// says "failed": its errors reach `catch`, instead of being skipped as cancellations. It
    /// does not pick up the `Error` extension, which would ask it again and never return.
    @Test func aCancellableErrorWithoutItsOwnCheckIsNotCancelled() throws {
        struct Stopped: CancellableError {}
        #expect(!Stopped().isCancelled)
        #expect(!(Stopped() as any Error).isCancelled)
        let caught = Recorder<String>()
        let finished = Guarantee<Void> { resolve in
            Promise<Int>(error: Stopped())
                .catch(on: nil, policy: .allErrorsExceptCancellation) { _ in caught.record("caught") }
                .finally(on: nil) { resolve(()) }
        }
        try value(of: finished)
        #expect(caught.all == ["caught"])
    }

    @Test func promiseErrorAnswersThroughCancellableError() {
        #expect((PromiseError.cancelled as any CancellableError).isCancelled)
        #expect(!(PromiseError.badInput("a reason") as any CancellableError).isCancelled)
    }

    @Test func foundationsUserCancelledIsACancellation() {
        #expect(CocoaError(.userCancelled).isCancelled)
        #expect(!CocoaError(.fileNoSuchFile).isCancelled)
    }

    @Test func theCancellationCheckSurvivesAChain() throws {
        let rejected = Promise.value(1).map(on: nil) { _ -> Int in throw CancellationError() }
        #expect(try error(of: rejected)?.isCancelled == true)
    }
}

/// Every `PromiseError` case.
private let allPromiseErrors: [PromiseError] = [
    .invalidCallingConvention, .returnedSelf, .badInput("a reason"), .cancelled,
    .compactMap(42, Int.self), .emptySequence, .noWinner, .timedOut, .validationFailed(7),
]

/// A cancellable error that may or may not be a cancellation.
private struct Refusal: CancellableError {
    let cancelled: Bool
    var isCancelled: Bool { cancelled }
}
