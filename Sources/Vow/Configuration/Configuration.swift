import CVowCore
public import Dispatch
import Foundation

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
///
/// Every operator reads ``Q`` or ``catchPolicy`` for its default arguments, so those two are
/// read with a single atomic load and no lock. To make that safe, the configuration keeps
/// every pair of queues it has been given alive for the rest of the process: one small object
/// per distinct pair of queue objects, which programs set a handful of times.
public final class Configuration: @unchecked Sendable {
    // @unchecked: `queuesSlot` and `policySlot` are only accessed through CVowCore's atomic
    // functions, and `settings` through its lock.
    private struct Settings {
        /// Every pair of queues ever set, which keeps them alive for lock-free readers.
        var queuePairs: [QueuePair.Key: QueuePair] = [:]
        var logHandler: @Sendable (LogEvent) -> Void = Configuration.printToStandardError
        var mainQueueStallThreshold: Double? = 1
        var stuckWaitThreshold: Double? = 10
    }

    private let settings = Locked(Settings())
    /// The current ``QueuePair``, retained by `settings.queuePairs`.
    private let queuesSlot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
    /// The current catch policy's raw value.
    private let policySlot = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    init() {
        queuesSlot.initialize(to: nil)
        policySlot.initialize(to: CatchPolicy.allErrorsExceptCancellation.bits)
        // The watch's own object, so that it sees the handlers sent to the default queues.
        Q = (MainQueueWatch.mainQueue, MainQueueWatch.mainQueue)
    }

    deinit {
        queuesSlot.deallocate()
        policySlot.deallocate()
    }

    /// The default queues for handlers.
    ///
    /// `map` serves handlers that produce the next value (`then`, `map`, `compactMap`, `tap`,
    /// `recover` and the sequence operators); `return` serves handlers that consume one (`done`,
    /// `get`, `catch`, `ensure`, `ensureThen` and `finally`).
    /// Both are the main queue unless changed; `nil` runs handlers inline, on the thread that
    /// resolves the previous step, or at once if it is already resolved.
    ///
    /// ```swift
    /// conf.Q = (map: nil, return: nil)  // a server: every nonisolated handler runs inline
    /// ```
    public var Q: (map: DispatchQueue?, return: DispatchQueue?) {
        get {
            // The pair is never released (see the type's documentation), so an unretained
            // reference to it stays valid after the load.
            let pair = Unmanaged<QueuePair>.fromOpaque(vow_load_pointer_acquiring(queuesSlot)!)
                .takeUnretainedValue()
            return (pair.map, pair.return)
        }
        set {
            settings.withLock { settings in
                let key = QueuePair.Key(newValue.map, newValue.return)
                let pair = settings.queuePairs[key, default: QueuePair(newValue.map, newValue.return)]
                settings.queuePairs[key] = pair
                vow_store_pointer_releasing(queuesSlot, Unmanaged.passUnretained(pair).toOpaque())
            }
        }
    }

    /// The policy `catch` and `recover` use when none is given.
    ///
    /// ```swift
    /// conf.catchPolicy = .allErrors  // let every `catch` see cancellations too
    /// ```
    public var catchPolicy: CatchPolicy {
        get { CatchPolicy(bits: vow_load_acquiring(policySlot)) }
        set { vow_store_releasing(policySlot, newValue.bits) }
    }

    /// Receives every ``LogEvent``. By default it prints each to standard error.
    ///
    /// ```swift
    /// conf.logHandler = { event in
    ///     if case .cauterized = event { return }  // expected in this program
    ///     print("Vow:", event)
    /// }
    /// ```
    public var logHandler: @Sendable (LogEvent) -> Void {
        get { settings.withLock { $0.logHandler } }
        set {
            var previous = newValue
            settings.withLock { swap(&$0.logHandler, &previous) }
            // `previous` is released here, after the lock: it may own the last reference to a
            // pending resolver, whose `deinit` logs, and so reads this property.
        }
    }

    /// How many seconds a handler bound for the main queue may wait there before Vow reports
    /// the main queue stalled, with a ``MainQueueStall`` report; `nil` turns the
    /// report off. One second unless changed.
    ///
    /// A program whose main queue is never serviced (a server sitting in its accept loop, a
    /// script whose top-level code ends without `hang` or `dispatchMain()`) never runs a
    /// main-actor handler, nor a nonisolated one on the default queues, and nothing fails: the
    /// report is how that shows. Vow reports it once per process, and never while the main
    /// queue runs; a main thread blocked for longer than the threshold counts as stalled too.
    /// A value that is not a positive number of seconds turns the report off, as `nil` does,
    /// and reads back as `nil`.
    ///
    /// ```swift
    /// conf.mainQueueStallThreshold = 5  // a program that blocks its main thread for seconds
    /// ```
    public var mainQueueStallThreshold: Double? {
        get { settings.withLock { $0.mainQueueStallThreshold } }
        set {
            let threshold = newValue.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            settings.withLock { $0.mainQueueStallThreshold = threshold }
            MainQueueWatch.setEnabled(threshold != nil)
        }
    }

    /// How many seconds a `wait()` or `hang(_:)` may block before Vow reports what its chain
    /// waits on, with a ``StuckWait`` report; `nil` turns the report off. Ten seconds unless
    /// changed.
    ///
    /// Each wait reports once, and goes on waiting. A wait that ends sooner reports nothing, so
    /// a passing test suite stays silent; a suite whose tests wait longer on purpose raises the
    /// threshold. A value that is not a positive number of seconds turns the report off, as
    /// `nil` does, and reads back as `nil`.
    ///
    /// ```swift
    /// conf.stuckWaitThreshold = 60  // a script whose downloads take minutes
    /// ```
    public var stuckWaitThreshold: Double? {
        get { settings.withLock { $0.stuckWaitThreshold } }
        set {
            let threshold = newValue.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
            settings.withLock { $0.stuckWaitThreshold = threshold }
        }
    }

    @usableFromInline
    func log(_ event: LogEvent) {
        logHandler(event)
    }

    /// The text the default log handler writes for `event`: every line of a report that spans
    /// several, such as a ``StuckWait``'s chain, starts with "Vow:", so that a filter for Vow's
    /// lines keeps the whole report.
    static func printed(_ event: LogEvent) -> String {
        "\(event)".split(separator: "\n", omittingEmptySubsequences: false).map { "Vow: \($0)\n" }.joined()
    }

    /// Writes the event to the standard error with the C library's `write`, the same call on
    /// every platform: `FileHandle.write(_:)` raises an Objective-C exception on Apple platforms
    /// when the write fails, such as when the standard error is closed, and is deprecated there,
    /// while its replacement needs macOS 10.15.4.
    private static func printToStandardError(_ event: LogEvent) {
        var line = printed(event)
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                // A failed write is dropped: a log line must never stop the program.
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// A value of ``Configuration/Q``, kept alive for the rest of the process once set.
private final class QueuePair: Sendable {
    /// The identity of a pair, to keep one object per distinct pair.
    struct Key: Hashable {
        let map: ObjectIdentifier?
        let `return`: ObjectIdentifier?

        init(_ map: DispatchQueue?, _ return: DispatchQueue?) {
            self.map = map.map(ObjectIdentifier.init)
            self.return = `return`.map(ObjectIdentifier.init)
        }
    }

    let map: DispatchQueue?
    let `return`: DispatchQueue?

    init(_ map: DispatchQueue?, _ return: DispatchQueue?) {
        self.map = map
        self.return = `return`
    }
}

extension CatchPolicy {
    /// The policy as the byte ``Configuration`` stores atomically.
    fileprivate var bits: UInt8 {
        switch self {
        case .allErrors: 0
        case .allErrorsExceptCancellation: 1
        }
    }

    fileprivate init(bits: UInt8) {
        self = bits == 0 ? .allErrors : .allErrorsExceptCancellation
    }
}

/// The configuration every Vow operator reads its defaults from.
public let conf = Configuration()
