/// An event that Vow reports beyond PromiseKit's four, carried by ``LogEvent/report(_:)``.
///
/// Each kind of report is a type of its own, holding what a handler needs to act on it, and
/// describes itself in a sentence. Vow adds kinds in minor versions without breaking a
/// `switch` over ``LogEvent``: match the kinds you act on by type, and let the rest fall to a
/// plain `case .report`.
///
/// ```swift
/// conf.logHandler = { event in
///     guard case .report(let report) = event else { return print("Vow:", event) }
///     if let stall = report as? MainQueueStall {
///         print("the main queue did not run for \(stall.threshold) s")
///     } else {
///         print("Vow:", report)
///     }
/// }
/// ```
public protocol LogReport: Sendable, CustomStringConvertible {}
