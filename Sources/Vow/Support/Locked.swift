#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// State shared by the handlers of an aggregate such as `when` or `race`, and by the global
/// configuration, behind a lock.
///
/// A pthread mutex rather than Synchronization's `Mutex`: Thread Sanitizer does not see the
/// latter's lock on Linux and reports every access it guards as a race, while it understands
/// pthread mutexes on every platform, so `swift test --sanitize=thread` stays meaningful.
@usableFromInline
// @unchecked: `state` is only read or written between locking and unlocking `mutex`.
final class Locked<State: Sendable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    @usableFromInline
    var state: State

    @usableFromInline
    init(_ state: State) {
        self.state = state
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "Vow could not create a mutex (error \(status))")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body(&state)
    }

    @usableFromInline
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @usableFromInline
    func unlock() {
        pthread_mutex_unlock(mutex)
    }
}

/// Values arriving in any order into numbered slots, complete once every slot is filled.
@usableFromInline
struct Gathering<Value> {
    @usableFromInline
    var slots: [Value?]
    @usableFromInline
    var missing: Int

    @inlinable
    init(count: Int) {
        slots = Array(repeating: nil, count: count)
        missing = count
    }

    /// Stores `value` and returns every value, in slot order, if it was the last one missing.
    @inlinable
    mutating func store(_ value: Value, at index: Int) -> [Value]? {
        precondition(slots[index] == nil, "Vow internal error: slot \(index) filled twice")
        slots[index] = value
        missing -= 1
        return missing == 0 ? slots.map { $0! } : nil
    }
}

extension Gathering: Sendable where Value: Sendable {}

extension Locked {
    /// Stores one input's result, resolving `next` with every result once it was the last
    /// missing: the step of `when(resolved:)`.
    @inlinable
    func store<Value>(_ result: Value, at index: Int, resolving next: EmptyBox<[Value]>)
    where State == Gathering<Value> {
        if let results = withLock({ $0.store(result, at: index) }) {
            next.seal(results)
        }
    }

    /// Stores one input's value, fulfilling `next` with every value once it was the last
    /// missing, or rejects `next` at once: the step of `when(fulfilled:)`.
    @inlinable
    func store<Value>(
        _ result: Result<Value, any Error>, at index: Int, settling next: EmptyBox<Result<[Value], any Error>>
    ) where State == Gathering<Value> {
        switch result {
        case .success(let value):
            if let values = withLock({ $0.store(value, at: index) }) {
                next.seal(.success(values))
            }
        case .failure(let error):
            next.seal(.failure(error))
        }
    }
}
