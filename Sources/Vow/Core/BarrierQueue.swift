#if canImport(CDispatch)
    internal import CDispatch
    internal import CVowCore
#else
    internal import Dispatch
#endif

/// A concurrent queue used as a reader-writer lock: ``read(_:)`` blocks run concurrently with
/// each other, ``write(_:)`` blocks run alone, as barriers.
///
/// Where libdispatch's C interface is visible (Linux), blocks go through its `_f` entry points
/// with a context pointer on the stack. The Swift overlay's `sync` turns each closure into a
/// heap-allocated block and routes the result through generic helpers, which on Linux costs
/// several times the barrier itself.
@usableFromInline
struct BarrierQueue: Sendable {
    #if canImport(CDispatch)
        // A dispatch queue is thread-safe; the handle is only ever passed to libdispatch.
        private nonisolated(unsafe) let queue: dispatch_queue_t

        init(label: String) {
            queue = dispatch_queue_create(label, OpaquePointer(vow_dispatch_queue_concurrent()))
        }

        @usableFromInline
        func readSync(_ body: () -> Void) {
            withoutActuallyEscaping(body) { body in
                withUnsafePointer(to: Work(body: body)) {
                    dispatch_sync_f(queue, UnsafeMutableRawPointer(mutating: $0), Work.invoke)
                }
            }
        }

        @usableFromInline
        func writeSync(_ body: () -> Void) {
            withoutActuallyEscaping(body) { body in
                withUnsafePointer(to: Work(body: body)) {
                    dispatch_barrier_sync_f(queue, UnsafeMutableRawPointer(mutating: $0), Work.invoke)
                }
            }
        }
    #else
        private let queue: DispatchQueue

        init(label: String) {
            queue = DispatchQueue(label: label, attributes: .concurrent)
        }

        @usableFromInline
        func readSync(_ body: () -> Void) {
            queue.sync(execute: body)
        }

        @usableFromInline
        func writeSync(_ body: () -> Void) {
            queue.sync(flags: .barrier, execute: body)
        }
    #endif
}

#if canImport(CDispatch)
    /// A block in a stack slot, passed to libdispatch as its context pointer.
    ///
    /// A struct with a field of the closure's own type keeps the closure as it is; passed as a
    /// bare generic value it would be re-wrapped in a heap-allocated thunk on every call.
    private struct Work {
        let body: () -> Void

        static let invoke: dispatch_function_t = { context in
            context!.assumingMemoryBound(to: Work.self).pointee.body()
        }
    }
#endif

extension BarrierQueue {
    /// Runs `body` concurrently with other reads, but never during a write.
    @inlinable
    func read<R>(_ body: () -> R) -> R {
        var result: R?
        readSync { result = body() }
        return result!
    }

    /// Runs `body` as a barrier: alone, after every earlier block and before every later one.
    @inlinable
    func write<R>(_ body: () -> R) -> R {
        var result: R?
        writeSync { result = body() }
        return result!
    }
}
