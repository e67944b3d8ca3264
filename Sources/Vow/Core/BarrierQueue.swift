internal import CVowCore

/// A concurrent queue used as a reader-writer lock: ``read(_:_:)`` blocks run concurrently with
/// each other, ``write(_:_:)`` blocks run alone, as barriers.
///
/// A block works on a `State` passed `inout`, and must capture nothing: whatever it needs goes
/// into the state, and whatever it returns comes back in it.
///
/// ```swift incomplete
/// var state = (box: Unretained(self), value: T?.none)
/// queue.read(&state) { state in
///     state.value = state.box.with { box in box.sealant.value }
/// }
/// ```
///
/// A closure that captures nothing is a bare function pointer once its generic caller is
/// specialized, so passing it costs no allocation. A capturing closure would need a context on
/// the heap: libdispatch's C entry points take one context pointer, and a non-escaping closure
/// can only be stored behind it through `withoutActuallyEscaping`, whose checked wrapper
/// allocates on every call. That allocation once cost more than the barrier itself.
///
/// Two more things keep a block cheap. The object the block works on goes into the state as
/// ``Unretained``, since the caller holds it. A closure the block needs goes into the state as
/// a field of a struct: in a tuple, which the block sees as an opaque generic value, it would
/// be wrapped in a reabstracting thunk, which allocates, on its way in and again on its way
/// out.
///
/// Blocks go through libdispatch's `_f` entry points, called from `CVowCore` on every platform,
/// with a context on the stack: the Swift overlay's `sync` would turn each closure into a
/// heap-allocated block.
@usableFromInline
struct BarrierQueue: Sendable {
    // A dispatch queue is thread-safe; the handle is only ever passed to libdispatch.
    private nonisolated(unsafe) let queue: OpaquePointer

    /// The queue whose C object is `queue`, one of the pool's; see ``BarrierQueues``.
    init(_ queue: OpaquePointer) {
        self.queue = queue
    }

    /// Runs `invocation` concurrently with other reads, but never during a write.
    @usableFromInline
    func readSync(_ invocation: UnsafeMutablePointer<Invocation>) {
        vow_barrier_queue_read(queue, invocation, invoke)
    }

    /// Runs `invocation` as a barrier.
    @usableFromInline
    func writeSync(_ invocation: UnsafeMutablePointer<Invocation>) {
        vow_barrier_queue_write(queue, invocation, invoke)
    }
}

extension BarrierQueue {
    /// Runs `body` on `state` concurrently with other reads, but never during a write.
    ///
    /// `body` must capture nothing; see ``BarrierQueue``.
    @inlinable
    func read<State>(_ state: inout State, _ body: @escaping (inout State) -> Void) {
        Invocation.with(&state, body, readSync)
    }

    /// Runs `body` on `state` as a barrier: alone, after every earlier block and before every
    /// later one.
    ///
    /// `body` must capture nothing; see ``BarrierQueue``.
    @inlinable
    func write<State>(_ state: inout State, _ body: @escaping (inout State) -> Void) {
        Invocation.with(&state, body, writeSync)
    }
}

/// A barrier block as libdispatch's C entry points take it: one context pointer, here to a
/// ``Job`` on the caller's stack, and a function that knows the job's type.
@usableFromInline
struct Invocation {
    @usableFromInline
    let job: UnsafeMutableRawPointer
    // Captures nothing once specialized; see `BarrierQueue`.
    @usableFromInline
    let perform: (UnsafeMutableRawPointer) -> Void

    @inlinable
    init(job: UnsafeMutableRawPointer, perform: @escaping (UnsafeMutableRawPointer) -> Void) {
        self.job = job
        self.perform = perform
    }

    /// Hands `submit` an invocation that runs `body` on `state`, all of it on this stack.
    @inlinable
    static func with<State>(
        _ state: inout State,
        _ body: @escaping (inout State) -> Void,
        _ submit: (UnsafeMutablePointer<Invocation>) -> Void
    ) {
        withUnsafeMutablePointer(to: &state) { state in
            var job = Job(state: state, body: body)
            withUnsafeMutablePointer(to: &job) { job in
                var invocation = Invocation(job: UnsafeMutableRawPointer(job)) { job in
                    job.assumingMemoryBound(to: Job<State>.self).pointee.run()
                }
                submit(&invocation)
            }
        }
    }
}

/// A block's body and the state it works on. A struct, rather than a closure over both:
/// its field keeps `body` as the caller made it, without a reabstracting wrapper.
@usableFromInline
struct Job<State> {
    @usableFromInline
    let state: UnsafeMutablePointer<State>
    @usableFromInline
    let body: (inout State) -> Void

    @inlinable
    init(state: UnsafeMutablePointer<State>, body: @escaping (inout State) -> Void) {
        self.state = state
        self.body = body
    }

    @inlinable
    func run() {
        body(&state.pointee)
    }
}

/// The function libdispatch calls with an ``Invocation`` as its context. A global function
/// rather than a stored closure, so that passing it costs no `swift_once`.
private func invoke(_ context: UnsafeMutableRawPointer?) {
    let invocation = context.unsafelyUnwrapped.assumingMemoryBound(to: Invocation.self)
    invocation.pointee.perform(invocation.pointee.job)
}
