// Declarations that exist only so that the compiler names the fix for a common mistake, on the
// line of the call that makes it, where it would otherwise report something that does not say
// what to do, or report it steps later. Tests/Diagnostics/Mistakes.md holds the mistakes, what
// PromiseKit and Vow report for each, and CI checks that Vow's first error is the one quoted.
//
// Every one is unavailable. The type checker skips unavailable overloads while it looks for a
// valid solution, and turns to them only once every available one has failed: so they cannot
// change what valid code means, and they cost valid code no type-checking time that can be
// measured (Performance.md, "Type-checking against PromiseKit").

extension Thenable {
    /// Catches a `then` whose closure returns a plain value, or nothing.
    @available(
        *, unavailable,
        message: "then needs a closure that returns a promise; use map for a value, done for none"
    )
    public func then<U>(_ body: @escaping @Sendable (T) throws -> U) -> Promise<U> {
        fatalError("unavailable")
    }
}

extension CatchMixin {
    /// Catches a `recover` whose closure returns a plain value.
    @available(
        *, unavailable,
        message: "recover's closure must return a promise: Guarantee.value(…) or Promise.value(…)"
    )
    public func recover(
        policy: CatchPolicy = conf.catchPolicy, _ body: @escaping @Sendable (any Error) throws -> T
    ) -> Promise<T> {
        fatalError("unavailable")
    }
}

extension Guarantee {
    /// Catches a guarantee's closure that uses its resolve function as a ``Resolver``, as in
    /// `Guarantee { seal in seal.fulfill(1) }`. Without it the compiler blames the closure's
    /// parameter count against the `async` initializer, which says nothing of the fix.
    @available(
        *, unavailable,
        message: "a guarantee's closure gets a function, not a Resolver: call seal(value)"
    )
    public convenience init(
        file: StaticString = #fileID, line: UInt = #line, resolver body: (Resolver<T>) -> Void
    ) {
        fatalError("unavailable")
    }
}

extension Resolver {
    /// Catches `fulfill()` on the resolver of a promise whose value is not `Void`.
    @available(
        *, unavailable, message: "fulfill() is for a Promise<Void>; pass this promise's value: fulfill(value)"
    )
    public func fulfill() {
        fatalError("unavailable")
    }
}
