/// The box of an operator's step, which carries the step and where it runs: the promise or
/// guarantee an operator returns waits on it, and the thenable the operator was attached to
/// calls it with its result.
///
/// The handler attached to that thenable, `{ box.receive($0) }`, captures the box alone, and
/// Swift makes a lone captured object the closure's context: a pending step is one object, the
/// box, rather than a box and a closure that holds the queue, the user's closure and the box.
/// A step that hops to a queue allocates the hop's closure only when its input arrives.
@usableFromInline
// @unchecked: the two properties it adds are immutable and `Sendable`; what it inherits is an
// `EmptyBox`'s, which says why that is safe.
final class StepBox<Step: ChainStep>: EmptyBox<Step.Output>, @unchecked Sendable {
    /// Where the step's work runs.
    @usableFromInline
    let handlerQueue: HandlerQueue
    /// The step, with the user's closure.
    @usableFromInline
    let step: Step

    /// A pending step box that consumes what `link` leads to; see
    /// ``EmptyBox/init(consuming:)``.
    @inlinable
    init(consuming link: ConsumerLink, on queue: HandlerQueue, _ step: Step) {
        self.handlerQueue = queue
        self.step = step
        super.init(consuming: link)
    }

    /// The handler of the thenable the step is attached to: settles the box at once with an
    /// input the step has nothing to do with, otherwise runs the step on its queue.
    @inlinable
    func receive(_ input: Step.Input) {
        switch step.route(input) {
        case .settle(let output): seal(output)
        case .run(let admitted): handlerQueue.run(admitted, in: self)
        }
    }

    /// Runs the step, which settles the box; a throw from it rejects the box instead. A box
    /// cancelled before its step could run skips it: nobody wants its result any longer.
    @inlinable
    func execute(_ admitted: Step.Admitted) {
        guard !interest.isCancelled else { return }
        do {
            try step.run(admitted, settling: self)
        } catch {
            seal(Step.rejection(error))
        }
    }
}
