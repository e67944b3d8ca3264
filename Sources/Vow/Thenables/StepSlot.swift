/// The type a ``StepBox`` stores its step in: a generic parameter of its class,
/// ``StepSlotBox``, so that its `deinit` finds the type's metadata without a global lookup.
///
/// `Optional` is the only conforming type; the protocol exists for that parameter alone, as
/// ``SealantStorage`` does for an empty box's sealant.
@usableFromInline
protocol StepSlot: SendableMetatype {
    associatedtype Step

    /// A slot holding `step`.
    init(_ step: Step)

    /// The step, or `nil` once it is let go.
    var step: Step? { get set }
}

extension Optional: StepSlot {
    @usableFromInline
    typealias Step = Wrapped

    @inlinable
    var step: Wrapped? {
        _read { yield self }
        _modify { yield &self }
    }
}
