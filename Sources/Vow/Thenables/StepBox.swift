/// The box of an operator's step, which carries the step and where it runs: the promise or
/// guarantee an operator returns waits on it, and the thenable the operator was attached to
/// calls it with its result.
///
/// The handler attached to that thenable, `{ box.receive($0) }`, captures the box alone, and
/// Swift makes a lone captured object the closure's context: a pending step is one object, the
/// box, rather than a box and a closure that holds the queue, the user's closure and the box.
/// A step that hops to a queue allocates the hop's closure only when its input arrives.
@usableFromInline
typealias StepBox<Step: ChainStep> = StepSlotBox<Step, Step?>

/// The class of a ``StepBox``, which takes the type of its stored step, always `Step?`, as a
/// second generic parameter: its `deinit`, never specialized, then finds that type's metadata
/// in the class's own, where a stored `Step?` would be looked up in the runtime's global cache
/// at every release, some 400 instructions; see ``SealantBox``.
@usableFromInline
// @unchecked: the queue is immutable and `Sendable`, and the slot is touched only as its
// comment says; what the class inherits is an `EmptyBox`'s, which says why that is safe.
final class StepSlotBox<Step: ChainStep, Slot: StepSlot>: EmptyBox<Step.Output>, @unchecked Sendable
where Slot.Step == Step {
    /// Where the step's work runs.
    @usableFromInline
    let handlerQueue: HandlerQueue
    /// The step, with the user's closure, until it has run or an input has settled the box
    /// without it: a promise kept after its step ran must not keep the user's closure, and
    /// what the closure captured, alive.
    ///
    /// Unchecked exclusivity: only ``receive(_:)`` and then ``execute(_:)`` touch it, each
    /// once, and the hop to the step's queue orders the second after the first; or else
    /// ``didWithdraw()``, once the handler that calls `receive(_:)` was taken back.
    @usableFromInline @exclusivity(unchecked)
    var slot: Slot
    /// Where the failure the step was admitted with began, if it was one: kept from
    /// ``receive(_:)``, on the thread that delivered it, for ``execute(_:)``, which may run on
    /// another, and which the hop between them orders. Empty in a release build.
    @usableFromInline @exclusivity(unchecked)
    var inputOrigin = RecordedSite()
    #if DEBUG
    /// The error the step was admitted with, if it was a failure, by the address of its box,
    /// kept as ``inputOrigin`` is: a step that throws that very error again, as
    /// `recover { error in guard … else { throw error } }` and `retry` do, passes the failure on
    /// with its origin rather than becoming its origin. Debug builds only.
    @usableFromInline @exclusivity(unchecked)
    var inputFailure: UInt?
    #endif

    /// The step, until it has run.
    @inlinable
    var step: Step? {
        _read { yield slot.step }
        _modify { yield &slot.step }
    }

    /// A pending step box, whose handler the caller attaches next, made by the operator that
    /// `site` names.
    @inlinable
    init(on queue: HandlerQueue, _ step: Step, madeAt site: RecordedSite) {
        self.handlerQueue = queue
        self.slot = Slot(step)
        super.init(madeAt: site)
    }

    /// The box was cancelled and its handler taken back from the thenable it was attached to,
    /// so neither ``receive(_:)`` nor ``execute(_:)`` can run any longer: the step goes at
    /// once, with the user's closure and what it captured, even while the promise is kept.
    @usableFromInline
    override func didWithdraw() {
        step = nil
    }

    /// A step's box; see ``BoxCore/isStep``.
    override var isStep: Bool { true }

    /// The handler of the thenable the step is attached to: settles the box at once with an
    /// input the step has nothing to do with, otherwise runs the step on its queue.
    @inlinable
    func receive(_ input: Step.Input) {
        guard let step else { return }
        switch step.route(input) {
        case .settle(let output):
            self.step = nil
            seal(output)
        case .run(let admitted):
            #if DEBUG
            inputOrigin = Trampoline.withCurrent { $0.deliveredOrigin }
            inputFailure = failureIdentity(ofFailureIn: input)
            #endif
            handlerQueue.run(admitted, in: self)
        }
    }

    /// Runs the step, which settles the box, and lets it go; a throw from it rejects the box
    /// instead, a failure that began here. A box cancelled before its step could run skips it:
    /// nobody wants its result any longer.
    ///
    /// The step runs as a handler of its input, which a failure's handler can ask where it
    /// began (see ``FailureOrigin/current``).
    @inlinable
    func execute(_ admitted: Step.Admitted) {
        // Taken, so that the closure is released once this returns.
        guard let step = step.take(), !status.isCancelledHint else { return }
        #if DEBUG
        let outer = Trampoline.deliver(inputOrigin)
        defer { Trampoline.restore(outer) }
        #endif
        do {
            try step.run(admitted, settling: self)
        } catch {
            #if DEBUG
            seal(Step.rejection(error), as: .tail, failingAt: origin(ofThrown: error))
            #else
            seal(Step.rejection(error), as: .tail, failingAt: site)
            #endif
        }
    }
}

#if DEBUG
extension StepBox {
    /// Where a failure the step threw began: where its input's did, if it threw that very
    /// error again, else here.
    ///
    /// Out of line, as ``failureIdentity(ofFailureIn:)`` is: a step's frames stay on the stack
    /// while the handlers it resolves run nested, so what only a debug build works out is kept
    /// out of them.
    @usableFromInline @inline(never)
    func origin(ofThrown error: any Error) -> RecordedSite {
        let rethrown = inputFailure != nil && inputFailure == failureIdentity(of: error)
        return rethrown && inputOrigin.recorded != nil ? inputOrigin : site
    }
}

/// The identity of the failure `input` carries, if it is one; see ``FailureCarrying``.
@usableFromInline @inline(never)
func failureIdentity<Input>(ofFailureIn input: Input) -> UInt? {
    (input as? any FailureCarrying)?.failureIdentity
}
#endif
