/// What an object let go of as it ended, released in turn on the trampoline: the handlers of a
/// box released while pending, or the work of a lazy box released unstarted. Either can own
/// the next link of a chain, whose end would release the one after, and so on down a stack of
/// any depth; the trampoline releases one link at a time instead.
final class Released<Value> {
    private var value: Value?

    /// Moves `value` out, leaving `empty` in its place: a copy left behind in the caller would
    /// release what it holds there, recursively, once the trampoline is done with it.
    init(taking value: inout Value, leaving empty: Value) {
        var taken = empty
        swap(&taken, &value)
        self.value = taken
    }

    var work: TrampolineWork {
        TrampolineWork(self) { unsafeDowncast($0, to: Released<Value>.self).release() }
    }

    private func release() -> Bool {
        guard value != nil else { return false }
        value = nil
        return true
    }
}
