// One form of `recover`, and of a guarantee's `then`, serves closures that return a guarantee
// and closures that return a promise: its result is `U.Chained`, which the closure's own type
// decides. Two forms whose results differ would leave the compiler trying both against every
// step after them (Performance.md, "The overloads' redesign"). At run time the form still has to
// build the one it promised, a guarantee or a promise; these helpers decide which, from `U`.

extension PlacedHandler {
    /// This handler as one that returns a guarantee, when the thenable it returns is one.
    ///
    /// The cast succeeds only where `U` is `Guarantee<U.T>` itself, so that the two handler
    /// types are one type; specialized, it folds away. It goes through `Any` because the
    /// compiler holds the two generic types unrelated.
    @inlinable
    func returningGuarantee<A, U: Thenable>() -> PlacedHandler<@Sendable (A) -> Guarantee<U.T>>?
    where Body == @Sendable (A) -> U {
        (self as Any) as? PlacedHandler<@Sendable (A) -> Guarantee<U.T>>
    }

    /// This handler with a body that may throw: the same function, as the promise steps take it.
    @inlinable
    func throwing<A, R>() -> PlacedHandler<@Sendable (A) throws -> R> where Body == @Sendable (A) -> R {
        map { body in body }
    }
}

extension Promise {
    /// This promise as the `Chained` of `U`, whose closure made it: a thenable other than a
    /// guarantee continues a chain as a promise.
    @inlinable
    func chained<U: Thenable>(as _: U.Type) -> U.Chained where U.T == T {
        precondition(
            U.Chained.self == Promise<T>.self,
            "\(U.self).Chained is \(U.Chained.self): a thenable other than Guarantee must leave Chained as its default, Promise<T>"
        )
        return unsafeDowncast(self, to: U.Chained.self)
    }
}

extension Guarantee {
    /// This guarantee as the `Chained` of `U`, which is `Guarantee<T>` itself.
    @inlinable
    func chained<U: Thenable>(as _: U.Type) -> U.Chained where U.T == T {
        unsafeDowncast(self, to: U.Chained.self)
    }
}
