import Dispatch

/// Watches one blocking wait for ``Configuration/stuckWaitThreshold``: once the wait has lasted
/// that long, reports a ``StuckWait`` with what its chain waits on, once.
///
/// A value the waiting thread keeps on its stack: made when the wait blocks, asked after each
/// wake, and dropped once it has reported. No wait makes one when the report is off.
struct StuckWaitWatch {
    private let site: RecordedSite
    private let threshold: Double
    private let started = DispatchTime.now()
    private let describe: () -> String

    /// A watch of a wait at `site` for `thenable`, or `nil` if the report is off.
    init?(_ site: RecordedSite, on thenable: some Thenable) {
        guard let threshold = conf.stuckWaitThreshold else { return nil }
        self.site = site
        self.threshold = threshold
        describe = {
            (thenable as? any ChainDescribing)?.chainDescription ?? "\(type(of: thenable)): pending"
        }
    }

    /// The seconds left before the report is due, never below zero.
    var remaining: Double {
        max(0, threshold - Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9)
    }

    /// Reports the wait if it has lasted the threshold, and returns `nil` then: a wait reports
    /// once. Otherwise returns the watch, to ask again.
    func reportIfDue() -> StuckWaitWatch? {
        guard remaining <= 0 else { return self }
        let report = StuckWait(
            operation: site.operation ?? "wait()", site: site.site, threshold: threshold, chain: describe())
        conf.log(.report(report))
        return nil
    }
}
