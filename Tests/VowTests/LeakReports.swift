import Vow

/// Vow's log as the suite hears it: a passing run prints no line of it.
///
/// The suite's log handler, installed once, gives each event to the tests that asked for it and
/// prints only what none of them took, so an unexpected report still shows:
///
/// - A test that drops a pending resolver on purpose makes its promise through
///   ``expectingLeakReport(_:fileID:line:)``, on the same line, which registers that creation
///   site; the reports of registered sites are counted for ``count(at:)``. Sites are unique to
///   a test, so tests running at once never read each other's reports.
/// - ``capturing(_:)`` takes every event while its body runs, for tests of the other events.
///
/// A test that replaces `conf.logHandler` itself first calls ``install()``, then hands every
/// event on to the handler it saved, so that no report is lost meanwhile.
///
/// Creation sites are recorded in debug builds only, which is how the suite runs.
final class LeakReports: Sendable {
    static let shared = LeakReports()

    private struct State {
        var sites: [CreationSite: Int] = [:]
        var reactions: [CreationSite: @Sendable () -> Void] = [:]
        var captures: [Int: Recorder<LogEvent>] = [:]
        var nextCapture = 0
    }

    private let state = Protected(State())

    private init() {
        let printing = conf.logHandler
        conf.logHandler = { [state] event in
            let site: CreationSite? =
                switch event {
                case .pendingPromiseDeallocated(let site), .pendingGuaranteeDeallocated(let site): site
                default: nil
                }
            let (captures, reaction) = state.withLock {
                state -> ([Recorder<LogEvent>]?, (@Sendable () -> Void)?) in
                if let site, let count = state.sites[site] {
                    state.sites[site] = count + 1
                    return (nil, state.reactions.removeValue(forKey: site))
                }
                return (Array(state.captures.values), nil)
            }
            // Outside the lock, and while Vow is still inside its report, as a user's log
            // handler would be.
            reaction?()
            guard let captures else { return }
            for capture in captures { capture.record(event) }
            if captures.isEmpty { printing(event) }
        }
    }

    /// Registers `site`, whose reports are counted from now on rather than printed.
    func expect(_ site: CreationSite) {
        state.withLock { state in
            if state.sites[site] == nil { state.sites[site] = 0 }
        }
    }

    /// Registers `site`, as ``expect(_:)`` does, and runs `reaction` inside the log handler at
    /// its first report, where a user's handler sees the promise before Vow cancels it; then
    /// lets go of it, and of what it captured.
    func expect(_ site: CreationSite, whenReported reaction: @escaping @Sendable () -> Void) {
        state.withLock { state in
            if state.sites[site] == nil { state.sites[site] = 0 }
            state.reactions[site] = reaction
        }
    }

    /// How many reports came from `site`.
    func count(at site: CreationSite) -> Int {
        state.withLock { $0.sites[site] ?? 0 }
    }

    /// Runs `body` and returns the events logged meanwhile, other than reports of registered
    /// sites: those of any test running at once too.
    func capturing(_ body: () throws -> Void) rethrows -> [LogEvent] {
        let recorder = Recorder<LogEvent>()
        let key = state.withLock { state in
            defer { state.nextCapture += 1 }
            state.captures[state.nextCapture] = recorder
            return state.nextCapture
        }
        defer { _ = state.withLock { $0.captures.removeValue(forKey: key) } }
        try body()
        return recorder.all
    }

    /// Installs the suite's log handler if it is not installed yet: before a test saves
    /// `conf.logHandler` to restore it later, so that it restores this one.
    static func install() {
        _ = shared
    }
}

/// Makes, with `make`, a promise or guarantee whose resolver the test drops on purpose, and
/// returns it with its creation site, whose report is then counted for
/// ``LeakReports/count(at:)`` rather than printed. The promise must be made on the line of
/// this call.
///
/// ```swift
/// let (promise, site) = expectingLeakReport(Promise<Int> { _ in })
/// #expect(LeakReports.shared.count(at: site) == 1)
/// ```
func expectingLeakReport<Made>(
    _ make: @autoclosure () throws -> Made, fileID: String = #fileID, line: Int = #line
) rethrows -> (Made, CreationSite) {
    let site = CreationSite(fileID: fileID, line: line)
    LeakReports.shared.expect(site)
    return (try make(), site)
}
