/// Work that the trampoline runs one step at a time, such as the handlers of a sealed box:
/// an object holding the work's position, and the function that advances it.
///
/// A function and an object rather than a protocol: calls through a generic type's
/// conformance would run its unspecialized code, while a closure that captures nothing, formed
/// in inlinable code, is specialized for the client's types and costs no allocation.
@usableFromInline
struct TrampolineWork {
    @usableFromInline
    let owner: AnyObject
    @usableFromInline
    let advance: (AnyObject) -> Bool

    @inlinable
    init(_ owner: AnyObject, advance: @escaping (AnyObject) -> Bool) {
        self.owner = owner
        self.advance = advance
    }

    /// Performs the next step; returns `false`, having done nothing, once no step is left.
    func step() -> Bool {
        advance(owner)
    }
}

/// How a run of handlers comes to the trampoline, which decides whether it may nest.
@usableFromInline
enum TrampolineEntry {
    /// From the last statement of a step: postponing the run until the step returns is
    /// indistinguishable from nesting it, so it nests only up to ``Trampoline/maximumDepth``.
    case tail
    /// From code that may go on after the call and rely on the handlers having run: it nests
    /// at any depth, unless the thread's stack is close to its end.
    case call
}
