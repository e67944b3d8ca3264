import Dispatch
import Synchronization

/// A box born pending, resolved later by exactly one ``seal(_:)`` that takes effect.
///
/// The sealant lives behind a concurrent queue from ``BarrierQueues``: reads run concurrently,
/// while sealing and attaching are barrier writes. Barrier blocks only move handlers in and
/// out; user code always runs outside them.
///
/// Handlers run in attachment order. Sealing takes the handlers attached so far and runs them
/// outside the barrier; until that batch is done the box is *draining*, and a handler attached
/// meanwhile joins the batch instead of running at once. Only when no handler is left does the
/// box become *settled*, after which reads and attachments skip the queue entirely.
// @unchecked: `sealant` and `lateHandlers` are only touched inside `queue` blocks, or read
// after an acquiring load of `isSettled` returns true, after which they are never written.
final class EmptyBox<T: Sendable>: Box<T>, @unchecked Sendable {
    private var sealant: Sealant<T> = .pending(Handlers())
    /// Non-nil while the sealer is running handlers; late attachments queue here.
    private var lateHandlers: Handlers<T>?
    private let isSettled = Atomic<Bool>(false)

    private var queue: DispatchQueue { BarrierQueues.queue(for: self) }

    deinit {
        // A pending box owns its handlers, and each handler owns the next promise of its chain.
        // Released recursively, a long unresolved chain would overflow the stack, so the
        // trampoline releases it one link at a time.
        guard case .pending(let handlers) = sealant, !handlers.isEmpty else { return }
        Trampoline.run(Orphans(handlers.takeAll()))
    }

    override var resolution: T? {
        if isSettled.load(ordering: .acquiring) {
            return settledValue
        }
        return queue.sync {
            if case .resolved(let value) = sealant { value } else { nil }
        }
    }

    override func observe(_ handler: @escaping Handler) {
        if isSettled.load(ordering: .acquiring) {
            handler(settledValue)
            return
        }
        let ready: T? = queue.sync(flags: .barrier) {
            switch sealant {
            case .pending(let handlers):
                handlers.append(handler)
                return nil
            case .resolved(let value):
                guard let lateHandlers else { return value }
                lateHandlers.append(handler)
                return nil
            }
        }
        if let ready {
            handler(ready)
        }
    }

    override func seal(_ value: T) {
        let batch: [Handler]? = queue.sync(flags: .barrier) {
            guard case .pending(let handlers) = sealant else { return nil }
            sealant = .resolved(value)
            guard !handlers.isEmpty else {
                isSettled.store(true, ordering: .releasing)
                return nil
            }
            lateHandlers = handlers
            return handlers.takeAll()
        }
        guard let batch else { return }
        Trampoline.run(HandlerRun(self, value: value, batch: batch))
    }

    /// The handlers attached while the sealer ran the earlier ones, or `nil` once there are
    /// none, in which case the box is now settled.
    fileprivate func takeLateHandlers() -> [Handler]? {
        queue.sync(flags: .barrier) {
            guard let lateHandlers, !lateHandlers.isEmpty else {
                self.lateHandlers = nil
                isSettled.store(true, ordering: .releasing)
                return nil
            }
            return lateHandlers.takeAll()
        }
    }

    /// The value of a settled box, read without the queue: it can no longer change.
    private var settledValue: T {
        guard case .resolved(let value) = sealant else {
            preconditionFailure("Vow internal error: a settled box has no value")
        }
        return value
    }
}

/// Runs the handlers of a sealed box one at a time, then those attached meanwhile, until the
/// box settles. Its position lives here rather than on the stack, so that a handler about to
/// block can have the rest run first (see ``Trampoline/suspend(_:)``).
private final class HandlerRun<T: Sendable>: TrampolineWork {
    private let box: EmptyBox<T>
    private let value: T
    private var batch: [EmptyBox<T>.Handler]
    private var next = 0

    init(_ box: EmptyBox<T>, value: T, batch: [EmptyBox<T>.Handler]) {
        self.box = box
        self.value = value
        self.batch = batch
    }

    func step() -> Bool {
        if next < batch.count {
            let handler = batch[next]
            next += 1
            handler(value)
            return true
        }
        guard let late = box.takeLateHandlers() else { return false }
        batch = late
        next = 0
        return true
    }
}

/// The handlers of a box released while pending, released in turn on the trampoline.
private final class Orphans<T: Sendable>: TrampolineWork {
    private var handlers: [EmptyBox<T>.Handler]

    init(_ handlers: [EmptyBox<T>.Handler]) {
        self.handlers = handlers
    }

    func step() -> Bool {
        handlers.removeAll()
        return false
    }
}
