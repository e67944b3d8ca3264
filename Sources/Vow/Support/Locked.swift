import Synchronization

/// State shared by the handlers of an aggregate such as `when` or `race`, behind a mutex.
///
/// A class so that escaping handlers can share it; `Mutex` itself cannot be captured.
final class Locked<State>: Sendable {
    private let mutex: Mutex<State>

    init(_ state: sending State) {
        mutex = Mutex(state)
    }

    func withLock<R: Sendable>(_ body: (inout State) -> R) -> R {
        mutex.withLock { state in body(&state) }
    }
}

/// Values arriving in any order into numbered slots, complete once every slot is filled.
struct Gathering<Value> {
    private var slots: [Value?]
    private var missing: Int

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
        missing = count
    }

    /// Stores `value` and returns every value, in slot order, if it was the last one missing.
    mutating func store(_ value: Value, at index: Int) -> [Value]? {
        precondition(slots[index] == nil, "Vow internal error: slot \(index) filled twice")
        slots[index] = value
        missing -= 1
        return missing == 0 ? slots.map { $0! } : nil
    }
}

extension Gathering: Sendable where Value: Sendable {}
