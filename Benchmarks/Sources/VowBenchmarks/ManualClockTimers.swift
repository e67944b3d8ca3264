import Vow

/// "manual-clock-timers": whether a timer on a ``ManualClock`` costs the same however many
/// others wait on the clock, reported per timer. Every contender runs the same 100,000 timers
/// per batch, on clocks that hold 100,000, 10,000 or 1,000 of them at once, so Vow's ratio to
/// a smaller size is how much dearer a timer grows with the clock's load: about 1 for a
/// schedule whose operations cost O(log n), and about 100 over the 1,000-timer clocks for one
/// that scans all that wait.
///
/// Each contender, for each of its clocks: `Promise(after(.seconds(d), clock:)).map(on: nil)`
/// for every timer, its delay one of 1,000 shuffled across the timers, so that deadlines both
/// jump about and tie; `cancel()` on every other one's last promise, which withdraws its timer;
/// then one `advance` past every deadline, which runs the rest. Each batch checks that every
/// kept timer's chain delivered its value, every cancelled one was cancelled and no timer was
/// left waiting.
///
/// - Vow: one clock of 100,000 timers.
/// - 10,000 timers: ten clocks of 10,000, one after the other.
/// - 1,000 timers: a hundred clocks of 1,000.
func manualClockTimersScenario() -> Scenario {
    let name = "manual-clock-timers"
    let metric = Metric(
        name: name, unit: "ns/timer", target: Target(baseline: "1,000 timers", atMost: 2.0))
    return Scenario(name: name) { context in
        let timers = 100_000
        let rounds = context.size(full: 15, quick: 1)

        /// A contender that runs the batch's timers on clocks of `perClock` each.
        func contender(_ label: String, perClock: Int) -> Contender {
            Contender.timed(label, divisor: timers) {
                for _ in 0..<(timers / perClock) {
                    runClock(timers: perClock, label: label)
                }
            }
        }

        /// Schedules `count` timers on a new clock, cancels every other one and runs the rest.
        func runClock(timers count: Int, label: String) {
            let clock = ManualClock()
            let ends = (0..<count).map { index in
                Promise(after(.seconds(index * 7_919 % 1_000 + 1), clock: clock)).map(on: nil) { index }
            }
            for index in stride(from: 0, to: count, by: 2) {
                ends[index].cancel()
            }
            check(
                clock.sleepers == count / 2,
                "\(name) \(label): \(clock.sleepers) timers wait after cancelling")
            clock.advance(by: .seconds(1_000))
            check(clock.sleepers == 0, "\(name) \(label): \(clock.sleepers) timers still wait")
            for (index, end) in ends.enumerated() {
                if index.isMultiple(of: 2) {
                    guard case .cancelled? = end.error as? PromiseError else {
                        fail("\(name) \(label): timer \(index) gave \(String(describing: end.result))")
                    }
                } else {
                    guard case .success(index)? = end.result else {
                        fail("\(name) \(label): timer \(index) gave \(String(describing: end.result))")
                    }
                }
            }
        }

        return measure(
            [
                contender("Vow", perClock: timers), contender("10,000 timers", perClock: 10_000),
                contender("1,000 timers", perClock: 1_000),
            ], scenario: name, metrics: [metric], rounds: rounds, opsPerBatch: timers, context: context)
    }
}
