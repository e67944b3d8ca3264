#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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

/// Keeps handler runs from nesting without bound.
///
/// When an inline handler resolves another box, that box's handlers run inside the first
/// handler's stack frame. Vow keeps that depth-first order, which PromiseKit users rely on, up
/// to ``maximumDepth`` nested runs; beyond it, a run is queued and started once the thread's
/// outermost run returns, so a chain of a million `map(on: nil)` steps resolves on a flat
/// stack.
///
/// Each thread owns one trampoline. It tracks the runs in progress, so that a thread about to
/// block in `wait()` can first finish them and everything queued (see ``suspend(_:)``).
@usableFromInline
final class Trampoline {
    /// How many handler runs may nest on one thread before further runs are queued.
    static let maximumDepth = 32

    // Unchecked exclusivity: a trampoline belongs to one thread, and these are never accessed
    // overlapping; the dynamic check would cost more than the work it guards.
    @exclusivity(unchecked) private var active: [TrampolineWork] = []
    @exclusivity(unchecked) private var queued: [TrampolineWork?] = []
    @exclusivity(unchecked) private var nextQueued = 0

    /// Runs `work` to completion now, or queues it if this thread is already too deep.
    @usableFromInline
    static func run(_ work: TrampolineWork) {
        guard enter(work) else {
            current.queued.append(work)
            return
        }
        leave()
    }

    /// Registers `work` as a run in progress on this thread, or returns `false` if the thread
    /// is already too deep, in which case the caller must queue its work through ``run(_:)``.
    ///
    /// The caller may perform steps of its own before calling ``leave()``, which must follow.
    @usableFromInline
    static func enter(_ work: TrampolineWork) -> Bool {
        let trampoline = current
        guard trampoline.active.count < maximumDepth else { return false }
        trampoline.active.append(work)
        return true
    }

    /// Runs the remaining steps of the run registered by ``enter(_:)``, still registered so
    /// that a handler blocking in `wait()` can have them run first, then queued runs if this
    /// was the outermost run.
    @usableFromInline
    static func leave() {
        let trampoline = current
        trampoline.finishInnermost()
        if trampoline.active.isEmpty {
            trampoline.performQueued()
        }
    }

    /// Finishes every run in progress on this thread and everything queued, then runs `body`
    /// as if no handler were running, so that resolutions on this thread during `body` (the
    /// run loop's blocks while `wait()` turns it) run at once instead of queueing behind it.
    ///
    /// A handler that blocks must not be what holds back the result it waits for: the rest
    /// of its own box's handlers, a handler attached meanwhile, or a queued run.
    static func suspend<R>(_ body: () -> R) -> R {
        let trampoline = current
        for work in trampoline.active.reversed() {
            while work.step() {}
        }
        trampoline.performQueued()
        let interrupted = trampoline.active
        trampoline.active = []
        defer { trampoline.active = interrupted }
        return body()
    }

    private func perform(_ work: TrampolineWork) {
        active.append(work)
        finishInnermost()
    }

    /// Steps the innermost run until it is done, then drops it. Runs nested by its steps are
    /// finished before they return, so the innermost run stays the same throughout.
    private func finishInnermost() {
        let work = active[active.count - 1]
        while work.step() {}
        active.removeLast()
    }

    private func performQueued() {
        while nextQueued < queued.count {
            let work = queued[nextQueued]
            queued[nextQueued] = nil
            nextQueued += 1
            // Compact now and then, so a long chain does not keep a slot per step.
            if nextQueued >= 1024 && nextQueued * 2 >= queued.count {
                queued.removeFirst(nextQueued)
                nextQueued = 0
            }
            if let work {
                perform(work)
            }
        }
        queued.removeAll(keepingCapacity: true)
        nextQueued = 0
    }

    private static var current: Trampoline {
        if let existing = pthread_getspecific(trampolineKey) {
            return Unmanaged<Trampoline>.fromOpaque(existing).takeUnretainedValue()
        }
        let created = Trampoline()
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(created).toOpaque())
        return created
    }
}

/// The thread-local slot that holds each thread's trampoline; its destructor releases it.
private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { slot in
        #if canImport(Darwin)
            Unmanaged<Trampoline>.fromOpaque(slot).release()
        #else
            if let slot { Unmanaged<Trampoline>.fromOpaque(slot).release() }
        #endif
    }
    precondition(status == 0, "Vow could not create its thread-local trampoline key (error \(status))")
    return key
}()
