public import Dispatch
import Foundation
import Synchronization

/// Vow's global settings: default queues, the default catch policy, and the log handler.
///
/// Reading and changing the configuration is safe from any thread. Each property is read and
/// written whole: `conf.Q = (map: q, return: r)` is one change, while `conf.Q.map = q` is a read
/// of the pair followed by a write of it:
///
/// ```swift
/// let background = DispatchQueue(label: "work")
/// conf.Q = (map: background, return: .main)
/// conf.logHandler = { event in logger.warning("\(event)") }
/// ```
public final class Configuration: Sendable {
    private struct Settings: Sendable {
        var queues: (map: DispatchQueue?, return: DispatchQueue?) = (.main, .main)
        var catchPolicy = CatchPolicy.allErrorsExceptCancellation
        var logHandler: @Sendable (LogEvent) -> Void = Configuration.printToStandardError
    }

    private let settings = Locked(Settings())

    init() {}

    /// The default queues for handlers.
    ///
    /// `map` serves handlers that produce the next value (`then`, `map`, `compactMap`, `tap`,
    /// `recover` and the sequence operators); `return` serves handlers that consume one (`done`,
    /// `get`, `catch`, `ensure`, `ensureThen` and `finally`).
    /// Both are the main queue unless changed; `nil` runs handlers inline, on the thread that
    /// resolves the previous step, or at once if it is already resolved.
    public var Q: (map: DispatchQueue?, return: DispatchQueue?) {
        get { settings.withLock { $0.queues } }
        set { settings.withLock { $0.queues = newValue } }
    }

    /// The policy `catch` and `recover` use when none is given.
    public var catchPolicy: CatchPolicy {
        get { settings.withLock { $0.catchPolicy } }
        set { settings.withLock { $0.catchPolicy = newValue } }
    }

    /// Receives every ``LogEvent``. By default it prints each to standard error, except that
    /// ``LogEvent/waitOnMainThread`` is printed only the first time: test suites wait on the
    /// main thread on purpose, and often.
    public var logHandler: @Sendable (LogEvent) -> Void {
        get { settings.withLock { $0.logHandler } }
        set { settings.withLock { $0.logHandler = newValue } }
    }

    @usableFromInline
    func log(_ event: LogEvent) {
        logHandler(event)
    }

    private static let hasPrintedMainThreadWait = Atomic<Bool>(false)

    private static func printToStandardError(_ event: LogEvent) {
        if case .waitOnMainThread = event, hasPrintedMainThreadWait.exchange(true, ordering: .relaxed) {
            return
        }
        FileHandle.standardError.write(Data("Vow: \(event)\n".utf8))
    }
}

/// The configuration every Vow operator reads its defaults from.
public let conf = Configuration()
