public import Synchronization

/// A box born pending, resolved later by exactly one ``seal(_:)`` that takes effect.
///
/// The sealant lives behind a concurrent queue from ``BarrierQueues``: reads run concurrently,
/// while sealing and attaching are barrier writes. Barrier blocks only move handlers in and
/// out; user code always runs outside them.
///
/// Handlers run in attachment order. Sealing takes the handlers attached so far and runs them
/// outside the barrier; until that batch is done the box is *draining*, and a handler attached
/// meanwhile joins a late list instead of running at once. Only when no handler is left does
/// the box become *settled*, after which reads and attachments skip the queue entirely.
///
/// `phase` is an atomic mirror of those states. It lets a settled box be read without the
/// queue, and lets the sealer settle a box nobody attached to during the batch with a single
/// compare-and-exchange instead of a second barrier.
@usableFromInline
// @unchecked: `sealant` and `lateHandlers` are only touched inside `queue` blocks, or read
// after an acquiring load of `phase` returns `settled`, after which they are never written.
final class EmptyBox<T: Sendable>: @unchecked Sendable {
    @usableFromInline
    typealias Handler = Handlers<T>.Body

    // First, so that `deinit`, which runs unspecialized, finds it at a fixed offset.
    @usableFromInline
    let phase = Atomic<UInt8>(Phase.pending)
    // Unchecked exclusivity: the queue already orders every access, and the dynamic check
    // would cost more than the barrier.
    @usableFromInline @exclusivity(unchecked)
    var sealant: Sealant<T> = .pending(Handlers())
    /// Handlers attached while the sealer runs the batch; only non-empty in `lateAttached`.
    @usableFromInline @exclusivity(unchecked)
    var lateHandlers: [Handler] = []

    @inlinable
    init() {}

    deinit {
        // A pending box owns its handlers, and each handler owns the next promise of its chain.
        // Released recursively, a long unresolved chain would overflow the stack, so the
        // trampoline releases it one link at a time.
        guard phase.load(ordering: .relaxed) == Phase.pending, !sealant.isEmptyPending else { return }
        Trampoline.run(Orphans(taking: &sealant).work)
    }

    @inlinable
    var queue: BarrierQueue { BarrierQueues.queue(for: self) }

    /// The result, or `nil` while the box is pending.
    @inlinable
    var resolution: T? {
        if phase.load(ordering: .acquiring) == Phase.settled {
            return settledValue
        }
        return queue.read { sealant.value }
    }

    /// Runs `handler` with the result once it exists, after every handler attached before it.
    @inlinable
    func observe(_ handler: @escaping Handler) {
        if phase.load(ordering: .acquiring) == Phase.settled {
            handler(settledValue)
            return
        }
        let ready: T? = queue.write {
            if sealant.attach(handler) {
                return nil
            }
            // Resolved, and the sealer was still running handlers when this barrier began.
            let (joined, current) = phase.compareExchange(
                expected: Phase.draining, desired: Phase.lateAttached, ordering: .acquiringAndReleasing)
            guard joined || current == Phase.lateAttached else {
                // The sealer settled the box after its last handler returned: run this one now.
                return sealant.value
            }
            lateHandlers.append(handler)
            return nil
        }
        if let ready {
            handler(ready)
        }
    }

    /// Resolves the box. Only the first call has an effect; later ones are ignored.
    @inlinable
    func seal(_ value: T) {
        let batch: Handlers<T> = queue.write {
            guard case .pending(let handlers) = sealant else { return .none }
            sealant = .resolved(value)
            guard !handlers.isEmpty else {
                phase.store(Phase.settled, ordering: .releasing)
                return .none
            }
            phase.store(Phase.draining, ordering: .relaxed)
            return handlers
        }
        switch batch {
        case .none:
            return
        case .one(let handler):
            // The common case runs without a `HandlerRun`: the box itself is the run in
            // progress, and what remains of it after this handler is its late handlers.
            let work = TrampolineWork(self) { unsafeDowncast($0, to: EmptyBox<T>.self).runLateHandler() }
            guard Trampoline.enter(work) else { fallthrough }
            handler(value)
            Trampoline.leave()
        case .many:
            Trampoline.run(HandlerRun(self, value: value, batch: batch).work)
        }
    }

    /// Runs the next handler attached while the sealer was running the others; returns `false`,
    /// having settled the box, once there is none. Only the sealing thread calls this.
    @inlinable
    func runLateHandler() -> Bool {
        let (settled, current) = phase.compareExchange(
            expected: Phase.draining, desired: Phase.settled, ordering: .acquiringAndReleasing)
        guard !settled, current != Phase.settled else { return false }
        let late = queue.write {
            let first = lateHandlers.removeFirst()
            if lateHandlers.isEmpty {
                phase.store(Phase.draining, ordering: .relaxed)
            }
            return first
        }
        late(settledValue)
        return true
    }

    /// Whether no value has been sealed yet. Cheap enough for the unspecialized `deinit` of a
    /// resolver, which reports a promise that can no longer be resolved.
    var isUnsealed: Bool {
        phase.load(ordering: .acquiring) == Phase.pending
    }

    /// The value of a settled box, read without the queue: it can no longer change.
    @inlinable
    var settledValue: T {
        guard case .resolved(let value) = sealant else {
            preconditionFailure("Vow internal error: a settled box has no value")
        }
        return value
    }
}

/// The states of an ``EmptyBox``, as stored in its atomic `phase`.
@usableFromInline
enum Phase {
    /// No value yet; handlers collect in the sealant.
    @usableFromInline static let pending: UInt8 = 0
    /// Sealed, and the sealer is running the handlers it took.
    @usableFromInline static let draining: UInt8 = 1
    /// Draining, and a handler has joined the late list since the batch began.
    @usableFromInline static let lateAttached: UInt8 = 2
    /// Sealed with every handler run: reads and attachments need no queue.
    @usableFromInline static let settled: UInt8 = 3
}

/// Runs the handlers of a sealed box one at a time, then those attached meanwhile, until the
/// box settles. Its position lives here rather than on the stack, so that a handler about to
/// block can have the rest run first (see ``Trampoline/suspend(_:)``).
///
/// A box with a single handler, the common case, needs no run object unless it is queued.
@usableFromInline
final class HandlerRun<T: Sendable> {
    @usableFromInline
    let box: EmptyBox<T>
    @usableFromInline
    let value: T
    @usableFromInline
    let batch: Handlers<T>
    // Unchecked exclusivity: only the sealing thread touches a run.
    @usableFromInline @exclusivity(unchecked)
    var next = 0

    @inlinable
    init(_ box: EmptyBox<T>, value: T, batch: Handlers<T>) {
        self.box = box
        self.value = value
        self.batch = batch
    }

    @inlinable
    var work: TrampolineWork {
        TrampolineWork(self) { unsafeDowncast($0, to: HandlerRun<T>.self).advance() }
    }

    @inlinable
    func advance() -> Bool {
        guard next < batch.count else { return box.runLateHandler() }
        let handler = batch[next]
        next += 1
        handler(value)
        return true
    }
}

/// The handlers of a box released while pending, released in turn on the trampoline.
final class Orphans<T: Sendable> {
    private var sealant: Sealant<T>?

    /// Moves the handlers out of `sealant`. A copy left behind in the caller would release the
    /// chain there, recursively, once the trampoline is done with it.
    init(taking sealant: inout Sealant<T>) {
        var orphaned = Sealant<T>.pending(Handlers())
        swap(&orphaned, &sealant)
        self.sealant = orphaned
    }

    var work: TrampolineWork {
        TrampolineWork(self) { unsafeDowncast($0, to: Orphans<T>.self).release() }
    }

    private func release() -> Bool {
        sealant = nil
        return false
    }
}
