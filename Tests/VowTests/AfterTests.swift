import Dispatch
import Testing
import Vow

@Suite struct AfterTests {
    @Test func afterSecondsResolves() throws {
        let timer = after(seconds: 0.01)
        try value(of: timer)
        #expect(timer.isResolved)
    }

    @Test func afterADispatchIntervalResolves() throws {
        let timer = after(.milliseconds(10))
        try value(of: timer)
        #expect(timer.isResolved)
    }

    @Test(arguments: [0.0, -0.0, -1.0, -1e9, -Double.infinity])
    func aZeroOrNegativeNumberOfSecondsResolves(seconds: Double) throws {
        let timer = after(seconds: seconds)
        try value(of: timer)
        #expect(timer.isResolved, "after(seconds: \(seconds)) did not resolve")
    }

    @Test func aZeroOrNegativeDispatchIntervalResolves() throws {
        let intervals: [DispatchTimeInterval] = [
            .seconds(0), .milliseconds(0), .microseconds(0), .nanoseconds(0), .seconds(-1), .milliseconds(-5),
            .nanoseconds(-1),
        ]
        for interval in intervals {
            let timer = after(interval)
            try value(of: timer)
            #expect(timer.isResolved, "after(\(interval)) did not resolve")
        }
    }

    @Test func afterCanBeChained() throws {
        let chained = after(seconds: 0).map { "ready" }.then { word in after(.milliseconds(1)).map { word } }
        #expect(try value(of: chained) == "ready")
    }

    @Test func manyTimersAllResolve() throws {
        let timers = (0..<50).map { index in after(.microseconds(index * 100)).map(on: nil) { index } }
        #expect(try value(of: when(guarantees: timers)) == Array(0..<50))
    }
}
