import Dispatch
import Foundation
import Vow
import XCTest

/// XCTest runs each test on the main thread and does not drain the main queue while a test
/// blocks. With the default main queues, PromiseKit's `wait()` deadlocks here; Vow's turns the
/// main run loop until the promise resolves.
final class MainThreadWaitTests: XCTestCase {
    func testWaitOnTheMainThreadWithDefaultQueues() throws {
        XCTAssertTrue(Thread.isMainThread)
        let handlerThreads = Shared<[Bool]>([])
        let answer = try Promise.value(20)
            .map { value in
                handlerThreads.update { $0.append(Thread.isMainThread) }
                return value + 1
            }
            .then { value in after(seconds: 0.01).map { value * 2 } }
            .get { _ in handlerThreads.update { $0.append(Thread.isMainThread) } }
            .wait()
        XCTAssertEqual(answer, 42)
        // The default queue is main: these handlers ran on the thread blocked in `wait()`.
        XCTAssertEqual(handlerThreads.value, [true, true])
    }

    func testGuaranteeWaitOnTheMainThread() {
        let text = Guarantee.value("vow").map { $0.uppercased() }.wait()
        XCTAssertEqual(text, "VOW")
    }

    func testWaitOnTheMainThreadThrowsTheError() {
        let failing = Promise.value(1).map { _ -> Int in throw URLError(.timedOut) }
        XCTAssertThrowsError(try failing.wait()) { error in
            XCTAssertEqual((error as? URLError)?.code, .timedOut)
        }
    }

    /// Outside any main-queue block, the run loop serves the main queue while `wait()` turns
    /// it, so the wait cannot hang on a main-queue step, and Vow stays quiet.
    func testWaitOnTheMainThreadOutsideAnyBlockIsNotReported() {
        let events = Shared<[String]>([])
        let saved = conf.logHandler
        defer { conf.logHandler = saved }
        conf.logHandler = { event in events.update { $0.append("\(event)") } }
        // Longer than the report's patience, so a report would have been made by now.
        let value = after(seconds: 0.5).map { 1 }.map { $0 + 1 }.wait()
        XCTAssertEqual(value, 2)
        XCTAssertEqual(events.value, [])
    }

    /// Inside a main-queue block, no main-queue step can run until the block returns: that
    /// wait can hang, and Vow says so. The gate opens only when the report arrives; a late
    /// fallback keeps a failure from blocking the main queue for good.
    func testWaitInsideAMainQueueBlockOnTheMainThreadIsReported() {
        let saved = conf.logHandler
        defer { conf.logHandler = saved }
        let (gate, open) = Guarantee<String>.pending()
        conf.logHandler = { event in
            if case .waitOnMainThread = event { open("reported") }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { open("not reported") }
        let waited = Guarantee<String> { resolve in
            DispatchQueue.main.async { resolve(gate.wait()) }
        }
        XCTAssertEqual(waited.wait(), "reported")
    }

    /// While `wait()` turns the run loop inside an inline handler, the main-queue steps it runs
    /// must resolve at once, not queue behind the handler that is waiting.
    func testWaitOnTheMainThreadInsideAnInlineHandler() throws {
        let (start, resolver) = Promise<Int>.pending()
        let waited = start.map(on: nil) { _ in
            try Promise.value(1).map(on: .main) { $0 + 1 }.map(on: .main) { $0 * 2 }.wait()
        }
        resolver.fulfill(0)
        XCTAssertEqual(try waited.wait(), 4)
    }

    /// The same, from a handler deeper than the trampoline's depth limit: the main-queue
    /// steps that run during the wait must not be held back as if they were nested in it.
    func testWaitOnTheMainThreadInsideADeeplyNestedInlineHandler() throws {
        let (start, resolver) = Promise<Int>.pending()
        var chain = start
        for _ in 0..<40 {
            chain = chain.map(on: nil) { $0 + 1 }
        }
        let waited = chain.map(on: nil) { depth in
            try Promise.value(depth).map(on: .main) { $0 + 1 }.map(on: .main) { $0 * 2 }.wait()
        }
        resolver.fulfill(0)
        XCTAssertEqual(try waited.wait(), 82)
    }

    func testScriptStyleChainEndingInHang() throws {
        let summary = try hang(
            firstly {
                DispatchQueue.global().async(.promise) { [3, 1, 2] }
            }.then { numbers in
                when(fulfilled: numbers.map { number in Promise.value(number * 10) })
            }.map { $0.sorted() }
        )
        XCTAssertEqual(summary, [10, 20, 30])
    }

    /// A `wait()` inside a failure's handler turns the main run loop, and the main-queue blocks
    /// it runs belong to no failure: they see no origin, where they used to see the one of the
    /// failure whose handler waits.
    func testAMainQueueBlockThatAWaitInAFailuresHandlerRunsSeesNoOrigin() {
        let seen = Shared<[FailureOrigin?]>([])
        let (failed, rejecter) = Promise<Int>.pending()
        let caught = failed.catch(on: nil) { _ in
            seen.update { $0.append(FailureOrigin.current) }
            let block = Guarantee<Void> { resolve in
                DispatchQueue.main.async {
                    seen.update { $0.append(FailureOrigin.current) }
                    resolve(())
                }
            }
            block.wait()
        }
        rejecter.reject(URLError(.timedOut))
        caught.wait()
        XCTAssertEqual(seen.value.count, 2)
        #if DEBUG
        XCTAssertEqual(seen.value.first??.operation, "Promise.pending()")
        #endif
        XCTAssertEqual(seen.value.last, .some(nil))
    }

    /// A main-actor promise's handlers may run only on the main actor, which is the thread
    /// blocked in `wait()`: they run while it waits, and the very object comes out.
    @MainActor func testAMainActorPromiseWaitsOnTheMainThread() throws {
        let (name, resolver) = Promise<String>.pending()
        let form = MainActorPromise(name).map { name -> Form in
            XCTAssertTrue(Thread.isMainThread)
            return Form(name)
        }.get { form in
            form.fields.append("checked")
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { resolver.fulfill("ada") }
        let filled = try form.wait()
        XCTAssertEqual(filled.fields, ["ada", "checked"])
        XCTAssertTrue(form.value === filled)

        let count = MainActorGuarantee.value(filled).map { $0.fields.count }.wait()
        XCTAssertEqual(count, 2)
        XCTAssertThrowsError(try MainActorPromise<Form>(error: URLError(.timedOut)).map { $0 }.wait())
    }
}

/// A value that is not `Sendable`, for main-actor promises.
private final class Form {
    var fields: [String]

    init(_ name: String) {
        fields = [name]
    }
}

/// A value shared between the test and handlers on other threads.
///
/// `NSLock` rather than Synchronization's `Mutex`, whose lock Thread Sanitizer does not see on
/// Linux.
// @unchecked: `storage` is only read or written while holding `lock`.
private final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    func update(_ body: (inout Value) -> Void) {
        lock.withLock { body(&storage) }
    }

    var value: Value {
        lock.withLock { storage }
    }
}
