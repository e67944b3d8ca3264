/// The type an ``EmptyBox`` stores its ``Sealant`` as: a generic parameter of its class,
/// ``SealantBox``, so that its `deinit` finds the type's metadata without a global lookup.
///
/// `Sealant` is the only conforming type; the protocol exists for that parameter alone. The
/// transitions that run in code never specialized, a box's overrides, call it through the
/// requirements below, which reach the sealant's metadata through the parameter too, where
/// ``SealantBox/sealant``, of the type `Sealant<T>`, would look it up on every call.
@usableFromInline
protocol SealantStorage {
    associatedtype Value: Sendable

    /// A pending state with no handler attached.
    init()

    /// The stored state.
    var sealant: Sealant<Value> { get set }

    /// See ``Sealant/resolve(with:)``.
    mutating func resolve(with value: Value) -> Handlers<Value>?

    /// See ``Sealant/detach(_:into:)``.
    mutating func detach(_ token: UInt32, into removed: inout Handlers<Value>) -> Bool
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
