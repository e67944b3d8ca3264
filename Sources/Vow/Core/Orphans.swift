/// The handlers of a box released while pending, released in turn on the trampoline.
final class Orphans<T: Sendable> {
    private var sealant: Sealant<T>?

    /// Moves the handlers out of `sealant`. A copy left behind in the caller would release the
    /// chain there, recursively, once the trampoline is done with it.
    init(taking sealant: inout Sealant<T>) {
        var orphaned = Sealant<T>.pending(Handlers())
        swap(&orphaned, &sealant)
        self.sealant = orphaned
    }

    var work: TrampolineWork {
        TrampolineWork(self) { unsafeDowncast($0, to: Orphans<T>.self).release() }
    }

    private func release() -> Bool {
        guard sealant != nil else { return false }
        sealant = nil
        return true
    }
}
