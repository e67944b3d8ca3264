/// A `wait()` or `hang(_:)` has blocked for over `threshold` seconds
/// (``Configuration/stuckWaitThreshold``) on a chain that has not settled: the report says where
/// the wait was written and what the chain waits on, as ``Promise/chainDescription`` gives it.
///
/// A script that hangs, or a test whose `wait()` never returns, otherwise says nothing of what
/// it waits for. Reported once per wait, as ``LogEvent/report(_:)``; a wait that ends before the
/// threshold reports nothing. The wait goes on after the report: it is not a timeout.
///
/// ```swift
/// conf.logHandler = { event in
///     if case .report(let stuck as StuckWait) = event {
///         print("waiting at \(stuck.site.map(String.init(describing:)) ?? "?") on:")
///         print(stuck.chain)
///     }
/// }
/// ```
public struct StuckWait: LogReport, Hashable {
    /// The waiting call, `wait()` or `hang(_:)`.
    public let operation: String
    /// Where the waiting call was written; `nil` in a release build.
    public let site: CreationSite?
    /// The seconds the call had waited when Vow reported it: the threshold in force.
    public let threshold: Double
    /// The description of the chain waited on, a line a step; see ``Promise/chainDescription``.
    public let chain: String

    /// The report of `operation`, written at `site`, that has waited `threshold` seconds on the
    /// chain that `chain` describes.
    ///
    /// ```swift
    /// let stuck = StuckWait(
    ///     operation: "wait()", site: CreationSite(fileID: "App/main.swift", line: 9),
    ///     threshold: 10, chain: "Promise<Int>: Promise.pending() at App/main.swift:3, pending")
    /// ```
    public init(operation: String, site: CreationSite?, threshold: Double, chain: String) {
        self.operation = operation
        self.site = site
        self.threshold = threshold
        self.chain = chain
    }

    /// The waiting call and its site, then the chain's description.
    public var description: String {
        let call = site.map { "\(operation) at \($0)" } ?? operation
        return """
            \(call) has waited over \(threshold) s for a chain that has not settled \
            (conf.stuckWaitThreshold; nil turns this report off). It waits on:
            \(chain)
            """
    }
}
