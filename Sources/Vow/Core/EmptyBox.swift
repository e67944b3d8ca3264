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
// @unchecked: `sealant` and `lateHandlers` are only touched inside `queue` blocks, or read
// after an acquiring load of `phase` returns `settled`, after which they are never written.
@usableFromInline
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
        Trampoline.run(Orphans(taking: &sealant))
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
        let batch: Handlers<T>? = queue.write {
            guard case .pending(let handlers) = sealant else { return nil }
            sealant = .resolved(value)
            guard !handlers.isEmpty else {
                phase.store(Phase.settled, ordering: .releasing)
                return nil
            }
            phase.store(Phase.draining, ordering: .relaxed)
            return handlers
        }
        guard let batch else { return }
        Trampoline.run(HandlerRun(self, value: value, batch: batch))
    }

    /// Called by the sealer after each batch: settles the box and returns `nil`, or returns the
    /// handlers attached during the batch, to be run next.
    @inlinable
    func finishBatch() -> Handlers<T>? {
        let (settled, _) = phase.compareExchange(
            expected: Phase.draining, desired: Phase.settled, ordering: .acquiringAndReleasing)
        if settled {
            return nil
        }
        return queue.write {
            let late = lateHandlers
            lateHandlers = []
            phase.store(Phase.draining, ordering: .relaxed)
            return .many(late)
        }
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
@usableFromInline
final class HandlerRun<T: Sendable>: TrampolineWork {
    @usableFromInline
    let box: EmptyBox<T>
    @usableFromInline
    let value: T
    // Unchecked exclusivity: only the sealing thread touches a run.
    @usableFromInline @exclusivity(unchecked)
    var batch: Handlers<T>
    @usableFromInline @exclusivity(unchecked)
    var next = 0

    @inlinable
    init(_ box: EmptyBox<T>, value: T, batch: Handlers<T>) {
        self.box = box
        self.value = value
        self.batch = batch
        super.init { unsafeDowncast($0, to: HandlerRun<T>.self).advance() }
    }

    @inlinable
    func advance() -> Bool {
        if next < batch.count {
            let handler = batch[next]
            next += 1
            handler(value)
            return true
        }
        guard let late = box.finishBatch() else { return false }
        batch = late
        next = 0
        return true
    }
}

/// The handlers of a box released while pending, released in turn on the trampoline.
final class Orphans<T: Sendable>: TrampolineWork {
    private var sealant: Sealant<T>?

    /// Moves the handlers out of `sealant`. A copy left behind in the caller would release the
    /// chain there, recursively, once the trampoline is done with it.
    init(taking sealant: inout Sealant<T>) {
        var orphaned = Sealant<T>.pending(Handlers())
        swap(&orphaned, &sealant)
        self.sealant = orphaned
        super.init { unsafeDowncast($0, to: Orphans<T>.self).release() }
    }

    private func release() -> Bool {
        sealant = nil
        return false
    }
}
