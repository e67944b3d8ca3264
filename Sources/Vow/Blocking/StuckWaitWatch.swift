import Dispatch

/// Watches one blocking wait for ``Configuration/stuckWaitThreshold``: once the wait has lasted
/// that long, reports a ``StuckWait`` with what its chain waits on, once.
///
/// A value the waiting thread keeps on its stack: made when the wait blocks, asked after each
/// wake, and dropped once it has reported. No wait makes one when the report is off.
struct StuckWaitWatch {
    private let wait: WaitingCall
    private let threshold: Double
    private let started = DispatchTime.now()
    private let describe: () -> String

    /// A watch of `wait`, a wait for `thenable`, or `nil` if the report is off.
    init?(_ wait: WaitingCall, on thenable: some Thenable) {
        guard let threshold = conf.stuckWaitThreshold else { return nil }
        self.wait = wait
        self.threshold = threshold
        let name = wait.describedType ?? "\(type(of: thenable))"
        describe = {
            (thenable as? any ChainDescribing)?.chainDescription(as: name) ?? "\(name): pending"
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
            operation: "\(wait.operation)", site: wait.site.site, threshold: threshold, chain: describe())
        conf.log(.report(report))
        return nil
    }
}
