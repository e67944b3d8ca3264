/// What an operator does with the result of the thenable it is attached to: the step that its
/// ``StepBox`` carries and runs.
///
/// Each operator's step is a type of its own, holding the user's closure and whatever else the
/// operator was given. A type rather than a closure, so that a pending step costs the box and
/// nothing more: the step's code comes from its type, where a closure describing it would take
/// two more words in every box, and one capturing the user's closure would be an object of its
/// own.
///
/// A step has two parts. ``route(_:)`` runs on the thread that resolves the thenable and decides
/// whether the input needs the operator at all: a rejection reaching `map`, say, settles the box
/// at once, without a hop to the operator's queue. ``run(_:settling:)`` runs on that queue with
/// what `route` admitted, and must settle the box or throw.
@usableFromInline
protocol ChainStep: Sendable {
    /// The result of the thenable the step is attached to.
    associatedtype Input: Sendable
    /// What reaches ``run(_:settling:)``: the value, the error or the whole result.
    associatedtype Admitted: Sendable
    /// What the step's box resolves with.
    associatedtype Output: Sendable
    /// What ``run(_:settling:)`` may throw: `any Error` for a promise's step, `Never` for a
    /// guarantee's.
    associatedtype Failure: Error

    /// Whether `input` goes on to ``run(_:settling:)`` or settles the box as it is.
    func route(_ input: Input) -> StepRoute<Admitted, Output>

    /// The operator's work: settles `box`, at once or later, or throws.
    func run(_ admitted: Admitted, settling box: EmptyBox<Output>) throws(Failure)

    /// What the box resolves with when ``run(_:settling:)`` throws `error`.
    static func rejection(_ error: Failure) -> Output
}

/// Where ``ChainStep/route(_:)`` sends an input.
@usableFromInline
enum StepRoute<Admitted, Output> {
    /// To the step's work, on the step's queue.
    case run(Admitted)
    /// Straight into the box, which settles with it at once.
    case settle(Output)
}

/// The step of an operator that returns a ``Promise``: a throw from its work rejects the box.
@usableFromInline
protocol PromiseStep: ChainStep where Output == Result<Value, any Error>, Failure == any Error {
    /// The value of the promise the operator returns.
    associatedtype Value: Sendable
}

extension PromiseStep {
    @inlinable
    static func rejection(_ error: any Error) -> Output {
        .failure(error)
    }
}

/// The step of an operator that returns a ``Guarantee``: its work cannot throw.
@usableFromInline
protocol GuaranteeStep: ChainStep where Failure == Never {}

extension GuaranteeStep {
    // Never called: nothing can be thrown, and the body of a function of `Never` needs nothing.
    @inlinable
    static func rejection(_ error: Never) -> Output {}
}

/// A step of a guarantee's value, which every input reaches.
@usableFromInline
protocol GuaranteeValueStep: GuaranteeStep where Admitted == Input {}

extension GuaranteeValueStep {
    @inlinable
    func route(_ input: Input) -> StepRoute<Admitted, Output> {
        .run(input)
    }
}

/// A step of a promise's fulfilled value: a rejection passes on to the box at once.
@usableFromInline
protocol ValueStep: PromiseStep where Input == Result<Admitted, any Error> {}

extension ValueStep {
    @inlinable
    func route(_ input: Input) -> StepRoute<Admitted, Output> {
        switch input {
        case .success(let value): .run(value)
        case .failure(let error): .settle(.failure(error))
        }
    }
}

/// A step of a promise's whole result, value or error, which it passes on.
@usableFromInline
protocol ResultStep: PromiseStep where Input == Output, Admitted == Output {}

extension ResultStep {
    @inlinable
    func route(_ input: Input) -> StepRoute<Admitted, Output> {
        .run(input)
    }
}

/// A step that recovers from the errors its policy hands it; values, and errors the policy
/// passes over, go on to the box at once.
@usableFromInline
protocol RecoveryStep: PromiseStep where Input == Output, Admitted == any Error {
    /// Which errors the step handles.
    var policy: CatchPolicy { get }
}

extension RecoveryStep {
    @inlinable
    func route(_ input: Input) -> StepRoute<Admitted, Output> {
        guard case .failure(let error) = input, policy.handles(error) else { return .settle(input) }
        return .run(error)
    }
}
