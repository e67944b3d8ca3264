/// The type an ``EmptyBox`` stores its ``Sealant`` as: a generic parameter of its class,
/// ``SealantBox``, so that its `deinit` finds the type's metadata without a global lookup.
///
/// `Sealant` is the only conforming type; the protocol exists for that parameter alone.
@usableFromInline
protocol SealantStorage {
    associatedtype Value: Sendable

    /// A pending state with no handler attached.
    init()

    /// The stored state.
    var sealant: Sealant<Value> { get set }
}

extension Sealant: SealantStorage {
    @inlinable
    init() {
        self = .pending(Handlers())
    }

    @inlinable
    var sealant: Sealant<R> {
        _read { yield self }
        _modify { yield &self }
    }
}
