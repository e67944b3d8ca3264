/// Runs the handlers a sealed box took, one per step of the trampoline.
///
/// The position lives here rather than on the stack, so that the rest of the run can move to
/// another thread when a handler blocks in `wait()` (see ``Trampoline/handingOff(_:)``), or wait
/// on the trampoline when the thread is too deep to start it at once.
@usableFromInline
final class HandlerRun<T: Sendable> {
    @usableFromInline
    let value: T
    @usableFromInline
    let handlers: Handlers<T>
    // Unchecked exclusivity: one thread at a time steps a run, and it is handed between
    // threads only through a dispatch queue, which orders the accesses.
    @usableFromInline @exclusivity(unchecked)
    var next = 0
    /// Where the failure the handlers receive began, if it is one; empty in a release build.
    @usableFromInline
    let origin: RecordedSite

    @inlinable
    init(_ value: T, _ handlers: Handlers<T>, failingAt origin: RecordedSite) {
        self.value = value
        self.handlers = handlers
        self.origin = origin
    }

    @inlinable
    var work: TrampolineWork {
        TrampolineWork(self) { unsafeDowncast($0, to: HandlerRun<T>.self).advance() }
    }

    /// Runs the next handler; returns `false`, having done nothing, once all have run.
    @inlinable
    func advance() -> Bool {
        guard next < handlers.slots else { return false }
        let index = next
        next += 1
        #if DEBUG
        let outer = Trampoline.deliver(origin)
        defer { Trampoline.restore(outer) }
        #endif
        handlers.runHandler(in: index, with: value)
        return true
    }
}
