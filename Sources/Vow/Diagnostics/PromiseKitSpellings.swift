// PromiseKit's names that Vow spells differently, declared unavailable so that code moved from
// PromiseKit meets an error on the line that uses one, naming the Vow spelling, with a fix-it
// where a rename is all it takes. None of them can be called: they exist for the compiler's
// messages alone. Documentation/MigratingFromPromiseKit.md lists the same names, and its
// `swift error` block checks each message.

/// PromiseKit's name for ``PromiseError``.
@available(*, unavailable, renamed: "PromiseError")
public typealias PMKError = PromiseError

/// PromiseKit's name for ``Finalizer``.
@available(*, unavailable, renamed: "Finalizer")
public typealias PMKFinalizer = Finalizer

/// PromiseKit's name for ``Configuration``.
@available(*, unavailable, renamed: "Configuration")
public typealias PMKConfiguration = Configuration

/// PromiseKit's name for ``Namespacer``.
@available(*, unavailable, renamed: "Namespacer")
public typealias PMKNamespacer = Namespacer

extension Resolver where T == Void {
    /// PromiseKit's name for ``Resolver/fulfill()``, which its `Resolver<Void>` spells with an
    /// underscore.
    @available(*, unavailable, renamed: "fulfill()")
    public func fulfill_() {
        fulfill()
    }
}
