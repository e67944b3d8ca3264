public import CVowCore
import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs handler runs nested on the thread's stack, the order PromiseKit users rely on, while
/// keeping a long chain from overflowing it.
///
/// When an inline handler resolves another box, that box's handlers run inside the first
/// handler's stack frame. How deep that may go depends on how the box was resolved (see
/// ``TrampolineEntry``):
///
/// - A seal in an operator's last statement (`.tail`) nests up to ``maximumDepth`` runs, and
///   beyond ``unwatchedDepth`` runs only while the stack has room. Deeper, it is *postponed*:
///   the innermost run takes it up as soon as its current step returns, on the same stack
///   level. The step had nothing left to do, so the order is the same as if it had nested, and
///   a chain of a million `map(on: nil)` steps resolves on a flat stack.
/// - A seal by user code (`.call`), such as `Resolver.fulfill`, nests at any depth, so its
///   handlers have always run when it returns. Only when the thread's stack is nearly used up
///   is it postponed like a tail seal, where nesting would crash the program.
///
/// Each thread owns one trampoline. It records each run in progress as a *level*, with the
/// postponed runs stacked above it, so that a handler about to block in `wait()` can hand the
/// rest of the thread's work to another thread (see ``handingOff(_:)``).
@usableFromInline
final class Trampoline {
    /// How many handler runs may nest on one thread before tail seals are postponed.
    static let maximumDepth = 32

    /// How many handler runs may nest on one thread before a tail seal looks at the stack too.
    ///
    /// A run is a few frames for an operator's step, but one whose handler does much work inline
    /// before its own tail seal is many more: each attempt of a `retry` that fails at once, a
    /// few dozen frames in a debug build, overflowed a 512 KiB stack under Thread Sanitizer at
    /// 32 runs. Below this depth, the common case of a short chain, the check costs nothing.
    static let unwatchedDepth = 8

    /// Where handed-off runs go. A queue of Vow's own rather than a global one: it targets an
    /// overcommitting root queue, so the runs get a thread even when every worker of the global
    /// pool is blocked, perhaps in the very waits that handed them off.
    private static let handOffQueue = DispatchQueue(label: "vow.hand-off", attributes: .concurrent)

    /// How much stack a nested run must leave unused; below it, runs are postponed.
    private static let stackReserve: UInt = 64 * 1024

    /// A handler run in progress on this thread.
    private struct Level {
        /// What remains of the run after the step in progress, or `nil` for a run of one
        /// handler, which its caller runs itself.
        let work: TrampolineWork?
        /// The postponed runs above this index were postponed during this level's current
        /// step, and run before its next one.
        var postponedBase: Int
        /// Whether `wait()` gave the rest of this level to another thread.
        var handedOff = false
    }

    // Unchecked exclusivity: a trampoline belongs to one thread, and these are never accessed
    // overlapping; the dynamic check would cost more than the work it guards.
    @exclusivity(unchecked) private var levels: [Level] = []
    @exclusivity(unchecked) private var postponed: [TrampolineWork] = []
    /// The lowest stack address a nested run may start at.
    private let stackLimit: UInt
    /// The thread's cancellations on their way up their chains, which run in a loop as its
    /// handler runs do.
    let withdrawals = WithdrawalWalk()
    #if DEBUG
    /// Where the failure began whose handlers this thread is running, or empty while it runs a
    /// value's or none: a box that passes the failure on takes it as its own origin, and
    /// ``FailureOrigin/current`` reads it. Debug builds only.
    @usableFromInline
    var deliveredOrigin = RecordedSite()
    #endif

    private init() {
        stackLimit = Self.currentStackBottom().map { $0 + Self.stackReserve } ?? 0
    }

    /// Runs `work` to completion now, or postpones it if `entry` may not nest here.
    @usableFromInline
    func run(_ work: TrampolineWork, as entry: TrampolineEntry) {
        guard enter(work, as: entry) else {
            postpone(work)
            return
        }
        leave()
    }

    /// Registers a run in progress, of which `work` is what remains after the caller's own
    /// first step, if anything, and returns `true`; ``leave()`` must follow. Returns `false`,
    /// registering nothing, if a run that arrives as `entry` may not nest here: the caller
    /// passes it to ``postpone(_:)`` instead.
    @usableFromInline
    func enter(_ work: TrampolineWork?, as entry: TrampolineEntry) -> Bool {
        let admitted =
            switch entry {
            case .tail:
                levels.count < Self.maximumDepth && (levels.count < Self.unwatchedDepth || !stackIsLow())
            case .call: levels.isEmpty || !stackIsLow()
            }
        if admitted {
            levels.append(Level(work: work, postponedBase: postponed.count))
        }
        return admitted
    }

    /// Runs the rest of the innermost level, and every run postponed meanwhile, then drops it.
    ///
    /// A postponed run goes first, before the level's next step, since it belongs to the step
    /// that just returned; its own steps postpone runs above it, which go first in turn.
    @usableFromInline
    func leave() {
        let index = levels.count - 1
        while true {
            if postponed.count > levels[index].postponedBase {
                // A step that returns `false` did nothing, so the top is still the same run.
                if !postponed[postponed.count - 1].step() {
                    postponed.removeLast()
                }
            } else if levels[index].handedOff || levels[index].work?.step() != true {
                break
            }
        }
        levels.removeLast()
    }

    /// Keeps `work` to run once the innermost level's current step returns.
    @usableFromInline
    func postpone(_ work: TrampolineWork) {
        precondition(!levels.isEmpty, "Vow internal error: a run was postponed with none in progress")
        postponed.append(work)
    }

    /// Gives every run in progress and every postponed run to another thread, in the order this
    /// thread would have run them, then runs `body`, in which the current handler blocks in
    /// `wait()`, as if no handler were running.
    ///
    /// Whatever the blocked handler waits for might depend on those runs: the rest of its own
    /// box's handlers, or the handlers of a box it resolved. Running them on this thread's stack
    /// instead would run handlers the wait cannot depend on, and one of them might in turn wait
    /// for the blocked handler. Each level stays in place, marked as handed off, and ends as
    /// soon as its step in progress returns.
    ///
    /// During `body` the thread starts afresh, with no level, because on the main thread the
    /// run loop runs blocks meanwhile: a seal in one of them must not count the blocked levels
    /// as depth, or be postponed onto a level that cannot take it up until the wait is over.
    func handingOff<R>(_ body: () -> R) -> R {
        var works: [TrampolineWork] = []
        var end = postponed.count
        for index in levels.indices.reversed() {
            let base = levels[index].postponedBase
            works.append(contentsOf: postponed[base..<end].reversed())
            if !levels[index].handedOff, let work = levels[index].work {
                works.append(work)
            }
            levels[index].handedOff = true
            levels[index].postponedBase = 0
            end = base
        }
        postponed.removeAll(keepingCapacity: true)
        if !works.isEmpty {
            let handedOff = HandedOffWork(works: works)
            Self.handOffQueue.async {
                let trampoline = Trampoline.current
                for work in handedOff.works {
                    trampoline.run(work, as: .call)
                }
            }
        }
        let blocked = levels
        levels = []
        defer { levels = blocked }
        return body()
    }

    /// Whether the stack has less than ``stackReserve`` left.
    @inline(never)
    private func stackIsLow() -> Bool {
        UInt(vow_current_frame_address()) < stackLimit
    }

    /// The lowest address of the current thread's stack, if the system tells.
    private static func currentStackBottom() -> UInt? {
        var bottom: UInt = 0
        return vow_current_stack_bottom(&bottom) ? bottom : nil
    }

    /// This thread's trampoline.
    static var current: Trampoline {
        withCurrent { $0 }
    }

    #if DEBUG
    /// Makes `origin` the origin of the failure whose handlers this thread runs next, and
    /// returns the one it replaces, which the caller restores once they have run; see
    /// ``deliveredOrigin``. Debug builds only, and no closure: a handler run nests no frame
    /// more than it did, so a deep nesting of seals reaches as deep as before.
    @inlinable
    func deliver(_ origin: RecordedSite) -> RecordedSite {
        let outer = deliveredOrigin
        deliveredOrigin = origin
        return outer
    }

    /// ``deliver(_:)`` on this thread's trampoline.
    @inlinable
    static func deliver(_ origin: RecordedSite) -> RecordedSite {
        withCurrent { $0.deliver(origin) }
    }

    /// Restores `outer`, which ``deliver(_:)`` returned, on this thread's trampoline.
    @inlinable
    static func restore(_ outer: RecordedSite) {
        withCurrent { $0.deliveredOrigin = outer }
    }
    #endif

    /// Runs `body` with this thread's trampoline, made at the thread's first handler run.
    ///
    /// The thread keeps its trampoline until it ends, so `body` borrows it without retaining
    /// it: handler runs, which ask for it every time, neither retain nor release it.
    @inlinable
    static func withCurrent<Result>(_ body: (Trampoline) -> Result) -> Result {
        guard let existing = vow_thread_trampoline() else { return body(makeCurrent()) }
        return Unmanaged<Trampoline>.fromOpaque(existing)._withUnsafeGuaranteedRef(body)
    }

    /// Makes this thread's trampoline, kept in its thread-local slot, and in the pthread key
    /// whose destructor releases it when the thread ends.
    @usableFromInline
    static func makeCurrent() -> Trampoline {
        let created = Trampoline()
        let retained = Unmanaged.passRetained(created).toOpaque()
        pthread_setspecific(trampolineKey, retained)
        vow_set_thread_trampoline(retained)
        return created
    }
}

/// Runs handed off by a thread about to block, on their way to the thread that runs them.
// @unchecked: the thread that hands them off never touches them again (its levels are marked
// handed off and its postponed list is emptied), and the dispatch queue orders the move.
private struct HandedOffWork: @unchecked Sendable {
    let works: [TrampolineWork]
}

/// The thread-local slot that holds each thread's trampoline; its destructor releases it.
private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { slot in
        // The thread is ending. Another destructor may still run handlers on it: it then gets
        // a new trampoline, which the key's next round of destructors releases.
        vow_set_thread_trampoline(nil)
        // Optional on Linux, not on Darwin: the binding reads the same on both.
        let slot: UnsafeMutableRawPointer? = slot
        if let slot { Unmanaged<Trampoline>.fromOpaque(slot).release() }
    }
    precondition(status == 0, "Vow could not create its thread-local trampoline key (error \(status))")
    return key
}()
