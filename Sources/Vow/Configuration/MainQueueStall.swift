/// A handler bound for the main queue has waited there for over `threshold` seconds
/// (``Configuration/mainQueueStallThreshold``): the main queue is not being serviced, or the
/// main thread is blocked.
///
/// A handler written in `@MainActor` code or a script's top-level code always runs on the main
/// queue, whatever `conf.Q` says, and a nonisolated one without `on:` runs there by default. So
/// a program must keep the main queue running: end a script with `hang(…)` or `dispatchMain()`,
/// or turn the main run loop; and give nonisolated work that must not wait for the main thread
/// a queue of its own, with `on:` or `conf.Q`. Reported once per process, as
/// ``LogEvent/report(_:)``.
///
/// ```swift
/// conf.logHandler = { event in
///     if case .report(let stall as MainQueueStall) = event {
///         print("the main queue did not run for \(stall.threshold) s")
///     }
/// }
/// ```
public struct MainQueueStall: LogReport, Hashable {
    /// The seconds the handler had waited when Vow reported it: the threshold in force.
    public let threshold: Double

    /// The report of a handler that waited `threshold` seconds for the main queue.
    ///
    /// ```swift
    /// let stall = MainQueueStall(threshold: 1)
    /// ```
    public init(threshold: Double) {
        self.threshold = threshold
    }

    /// What happened and the fixes, in a few sentences.
    public var description: String {
        """
        A handler for the main queue has waited over \(threshold) s: the main queue is not \
        being serviced, or the main thread is blocked. Main-actor and top-level handlers \
        always run there, whatever conf.Q says. Keep the main queue running (end a script \
        with hang(…) or dispatchMain(), or turn the main run loop), and give nonisolated \
        work a queue of its own with on: or conf.Q.
        """
    }
}
