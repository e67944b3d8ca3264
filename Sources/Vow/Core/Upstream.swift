/// What a pending box waits on, and so what it tells once it no longer needs a result: the box
/// of the promise it follows, the boxes of a combinator's inputs, or the work that will
/// resolve it.
///
/// Each ``EmptyBox`` keeps one upstream, in a word its allocation had spare. A box tells its
/// upstream when it settles, or is cancelled, while that upstream may still be pending; a box
/// upstream counts that as one consumer less and gives up in turn once nobody wants its result
/// (see ``Interest``), and the work's ``CancelHooks`` run.
///
/// A class rather than a protocol: an existential would take two words, and the box has one.
@usableFromInline
// @unchecked: the class has no state; each subclass says why its own is safe.
class Upstream: @unchecked Sendable {
    @inlinable
    init() {}

    /// One downstream no longer needs this upstream's result: `cancelling` if it was
    /// cancelled, otherwise because it settled.
    ///
    /// - Returns: The next upstream to tell, when this one gave up in turn; the caller goes on
    ///   with it in a loop, so that a long chain is cancelled without deep recursion.
    @usableFromInline
    func withdraw(cancelling: Bool) -> Upstream? {
        preconditionFailure("Vow internal error: \(type(of: self)) does not say how to withdraw")
    }

    /// Tells `upstream`, and each upstream that gives up in turn, that a downstream no longer
    /// needs it.
    @inlinable
    static func withdraw(from upstream: Upstream, cancelling: Bool) {
        var next = upstream.withdraw(cancelling: cancelling)
        while let upstream = next {
            // An upstream only gives up because it was cancelled.
            next = upstream.withdraw(cancelling: true)
        }
    }
}
