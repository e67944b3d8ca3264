#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a cell's callback asks for next: fulfil `cell` with `value`.
struct Handoff {
    let cell: FloorCell
    let value: Int
}

/// The state a ``FloorCell`` guards with its mutex.
struct FloorCellState {
    var value: Int?
    var callback: ((Int) -> Handoff?)?
}

/// The least a promise can cost: one heap object holding a mutex, an optional value and an
/// optional callback, with one lock taken per operation. It does none of what a promise library
/// adds (errors, queues, several handlers, ordering guarantees), so it is a floor to measure
/// Vow's overhead against, not a competitor.
///
/// The mutex is tail-allocated in the same object, so a cell is exactly one allocation; a class
/// holding an `NSLock` would be three on Linux (the cell, the lock, the lock's mutex).
///
/// A callback returns the next step instead of taking it, and ``settle(_:with:)`` takes the
/// steps in a loop, so a chain of any length resolves without deepening the stack.
final class FloorCell: ManagedBuffer<FloorCellState, pthread_mutex_t> {
    // Not inlined, so that every cell is a heap allocation: inlined, the optimizer can put a
    // cell that never escapes on the stack, which no promise could match.
    @inline(never)
    static func make() -> FloorCell {
        let cell = unsafeDowncast(create(minimumCapacity: 1) { _ in FloorCellState() }, to: FloorCell.self)
        cell.withUnsafeMutablePointerToElements { mutex in
            check(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        }
        return cell
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    private func locked<R>(_ body: (inout FloorCellState) -> R) -> R {
        withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&state.pointee)
        }
    }

    /// The value, or `nil` while the cell is pending.
    var value: Int? {
        locked { $0.value }
    }

    /// Runs `callback` with the value once there is one, at once if there already is.
    func attach(_ callback: @escaping (Int) -> Handoff?) {
        let ready: Int? = locked { state in
            if let value = state.value {
                return value
            }
            state.callback = callback
            return nil
        }
        if let ready, let next = callback(ready) {
            Self.settle(next.cell, with: next.value)
        }
    }

    /// Fulfils `cell`, then every cell its callbacks hand on to, one after another.
    static func settle(_ cell: FloorCell, with value: Int) {
        var step: Handoff? = Handoff(cell: cell, value: value)
        while let current = step {
            step = current.cell.fulfill(current.value)
        }
    }

    /// Stores `value`, unless the cell has one already, and returns what the callback, if any,
    /// asks for next.
    private func fulfill(_ value: Int) -> Handoff? {
        let callback: ((Int) -> Handoff?)? = locked { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.callback = nil }
            return state.callback
        }
        return callback?(value)
    }
}
