// Vow and async/await, both ways, in a script that awaits. Async code becomes a promise with
// `Promise { try await … }`; a promise is awaited with `async()`; `resolutions` gives several
// promises' results in the order they arrive; and cancellation crosses the bridge both ways.
// A script that awaits ends with `await` rather than `hang`, which async code may not call.
//
//     swift run asyncinterop
import Foundation
import Vow

enum WeatherError: Error {
    case unknownCity(String)
}

/// An async API, as a modern SDK offers one: the temperature in a city, after a wait that is
/// longer the longer the city's name.
func temperature(in city: String) async throws -> Double {
    try await Task.sleep(nanoseconds: UInt64(city.count) * 40_000_000)
    guard city != "Atlantis" else { throw WeatherError.unknownCity(city) }
    return Double(city.count) * 2.5
}

/// The same API as promises, for code that chains.
func forecast(for city: String) -> Promise<Double> {
    Promise { try await temperature(in: city) }
}

var log: [String] = []

/// Prints a line and keeps it for the check at the end. Top-level variables belong to the main
/// actor, so a top-level function that changes one must too.
@MainActor func report(_ line: String) {
    print(line)
    log.append(line)
}

// 1. Async code into a chain, and the chain back into async code.
let lisbon = try await forecast(for: "Lisbon").map { "Lisbon: \($0) °C" }.async()
report(lisbon)

// 2. Results in the order they arrive: shorter names answer sooner, most likely Rome first.
var arrivals: [String] = []
for await result in ["Ouagadougou", "Atlantis", "Rome"].map(forecast).resolutions {
    switch result {
    case .success(let degrees): arrivals.append("\(degrees) °C")
    case .failure(let error): arrivals.append("\(error)")
    }
}
print("arrivals: " + arrivals.joined(separator: ", "))
report("arrivals, sorted: " + arrivals.sorted().joined(separator: ", "))

// 3. Cancelling a promise cancels the task behind it: the ten-second sleep ends at once.
let started = Date()
let slow = Promise { () async throws -> Int in
    try await Task.sleep(nanoseconds: 10_000_000_000)
    return 1
}
slow.cancel()
do {
    _ = try await slow.async()
} catch {
    report("slow promise cancelled: \(error.isCancelled)")
}

// 4. Cancelling a task that awaits a promise ends its wait at once. The promise goes on: the
// script still holds it, and a promise something still holds is never cancelled from below.
let (answer, resolver) = Promise<Int>.pending()
let waiter = Task { try await answer.async() }
waiter.cancel()
let waited = await waiter.result
let elapsed = Date().timeIntervalSince(started)
resolver.fulfill(42)
let kept = try await answer.async()
report("waiting task cancelled: \((try? waited.get()) == nil), promise fulfilled with \(kept)")

// 5. An actor keeps its state, whichever side of the bridge calls it.
actor Thermometer {
    private(set) var readings: [Double] = []

    func record(_ city: String) -> Promise<Void> {
        forecast(for: city).done(owner: self) { thermometer, degrees in
            thermometer.readings.append(degrees)  // on the actor, without `await`
        }
    }
}
let thermometer = Thermometer()
try await when(fulfilled: thermometer.record("Lima"), thermometer.record("Quito")).async()
report("readings: \(await thermometer.readings.sorted())")

let expected = [
    "Lisbon: 15.0 °C",
    "arrivals, sorted: 10.0 °C, 27.5 °C, unknownCity(\"Atlantis\")",
    "slow promise cancelled: true",
    "waiting task cancelled: true, promise fulfilled with 42",
    "readings: [10.0, 12.5]",
]
if log != expected || elapsed > 5 {
    print("unexpected: the example did not behave as its comments say")
    exit(1)
}
