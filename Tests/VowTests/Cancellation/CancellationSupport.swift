import Dispatch
import Vow

/// A pending promise standing for work that can be stopped, with a count of how often its
/// `onCancel` hook ran.
///
/// The promise is returned rather than kept, so that a test can let go of its handle: a
/// promise is only cancelled from below once no handle to it is left.
struct StoppableWork: Sendable {
    let resolver: Resolver<Int>
    let stops = Protected(0)

    /// Makes the work and hands its promise to `body`, which returns whatever should outlive
    /// the promise's handle.
    /// The promise is made at the caller's file and line, which a report of its resolver then
    /// names.
    static func start<R>(
        file: StaticString = #fileID, line: UInt = #line, _ body: (Promise<Int>) throws -> R
    ) rethrows -> (StoppableWork, R) {
        let (promise, resolver) = Promise<Int>.pending(file: file, line: line)
        let work = StoppableWork(resolver: resolver)
        resolver.onCancel { [stops = work.stops] in stops.withLock { $0 += 1 } }
        return (work, try body(promise))
    }

    /// How often the hook ran.
    var stopCount: Int {
        stops.withLock { $0 }
    }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let count = Protected(0)

    func increment() {
        count.withLock { $0 += 1 }
    }

    var value: Int {
        count.withLock { $0 }
    }
}

extension Result {
    /// Whether this is a rejection with ``PromiseError/cancelled``.
    var isCancellation: Bool {
        guard case .failure(let error) = self, case .cancelled? = error as? PromiseError else { return false }
        return true
    }
}
