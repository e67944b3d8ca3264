import Foundation
import Testing
import Vow
import VowFoundation

private let ping = Notification.Name("VowFoundationTests.ping")

@Suite struct NotificationCenterTests {
    @Test func theFirstNotificationFulfilsWithWhatIsExtracted() async throws {
        try await offThePool {
            let center = NotificationCenter()
            let promise = center.observe(once: ping) { $0.userInfo?["count"] as? Int ?? -1 }
            #expect(promise.isPending)
            center.post(name: ping, object: nil, userInfo: ["count": 3])
            center.post(name: ping, object: nil, userInfo: ["count": 4])
            #expect(promise.value == 3)
        }
    }

    @Test func theObserverIsRemovedOnceItFired() async throws {
        try await offThePool {
            let center = NotificationCenter()
            let extractions = Counted()
            let promise = center.observe(once: ping) { _ in extractions.increment() }
            center.post(name: ping, object: nil)
            center.post(name: ping, object: nil)
            #expect(promise.value != nil)
            #expect(extractions.value == 1, "the observer stayed after it fired")
        }
    }

    @Test func onlyTheGivenObjectsNotificationsCount() async throws {
        try await offThePool {
            let center = NotificationCenter()
            let sender = NSObject()
            let promise = center.observe(once: ping, object: sender)
            center.post(name: ping, object: NSObject())
            #expect(promise.isPending)
            center.post(name: ping, object: sender)
            #expect(promise.value != nil)
        }
    }

    @Test func cancellingRemovesTheObserver() async throws {
        try await offThePool {
            let center = NotificationCenter()
            let extractions = Counted()
            let promise = center.observe(once: ping) { _ in extractions.increment() }
            promise.cancel()
            center.post(name: ping, object: nil)
            #expect(extractions.value == 0, "a cancelled observation still received the notification")
            #expect(promise.error.map { ($0 as? PromiseError)?.isCancelled } == true)
        }
    }

    @Test func aThrowFromTheExtractionRejects() async throws {
        try await offThePool {
            struct Missing: Error {}
            let center = NotificationCenter()
            let promise = center.observe(once: ping) { _ -> Int in throw Missing() }
            center.post(name: ping, object: nil)
            #expect(promise.error is Missing)
        }
    }

    @Test func postsFromTwoThreadsAtOnceFulfilItOnce() async throws {
        try await offThePool {
            let rounds = 2_000
            var met = 0
            for round in 0..<rounds {
                let center = NotificationCenter()
                let extractions = Counted()
                let promise = center.observe(once: ping) { _ in extractions.increment() }
                // Each thread waits briefly at a gate for the other, and counts the rounds in which
                // both were there, so the test shows that the posts really overlapped.
                let arrived = Counted()
                let together = Counted()
                DispatchQueue.concurrentPerform(iterations: 2) { _ in
                    arrived.increment()
                    var spins = 0
                    while arrived.value < 2 && spins < 100_000 { spins += 1 }
                    if arrived.value == 2 { together.increment() }
                    center.post(name: ping, object: nil)
                }
                if together.value == 2 { met += 1 }
                #expect(promise.value != nil, "round \(round)")
                #expect(
                    extractions.value == 1, "round \(round): the observation fired \(extractions.value) times"
                )
            }
            #expect(met > 0, "the two posts never overlapped")
        }
    }
}

/// A count kept from any thread.
final class Counted: Sendable {
    private let lock = NSLock()
    // nonisolated(unsafe): only read or written while holding `lock`.
    nonisolated(unsafe) private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int {
        lock.withLock { count }
    }
}
