/// What the reference model knows about the order of things in a run: a graph of points in
/// time, each in one sequential context (a thread's stretch of work), with an edge wherever Vow
/// or the test promises that one point comes before another.
///
/// The model only ever adds edges it can justify: program order within a context, a dispatch
/// before the block it dispatches, a serial queue's first-in-first-out order, and the executor
/// waiting for quiescence between steps. Whatever the graph does not order, the test does not
/// assert. Every edge runs from an older point to a newer one, so point ids are a topological
/// order and reachability needs no sorting.
struct CausalGraph {
    private var predecessors: [[Int]] = []
    private(set) var slots: [Int] = []
    private(set) var contexts: [Int] = []

    var count: Int { slots.count }

    /// Adds a point in `context` during `slot`, after each point in `after`.
    mutating func addPoint(context: Int, slot: Int, after: [Int]) -> Int {
        let point = slots.count
        precondition(after.allSatisfy { $0 < point }, "the model's causal graph must only grow forwards")
        predecessors.append(after)
        slots.append(slot)
        contexts.append(context)
        return point
    }

    mutating func addEdge(from earlier: Int, to later: Int) {
        precondition(earlier < later, "the model's causal graph must only grow forwards")
        predecessors[later].append(earlier)
    }

    /// Whether `earlier` certainly happens before `later`.
    func happensBefore(_ earlier: Int, _ later: Int) -> Bool {
        guard earlier < later else { return false }
        // The executor waits for quiescence between steps: every slot follows all earlier ones.
        if slots[earlier] < slots[later] { return true }
        // A context is one thread's uninterrupted stretch of work: its points are in order.
        if contexts[earlier] == contexts[later] { return true }
        var seen = Set<Int>()
        var frontier = [later]
        while let point = frontier.popLast() {
            for predecessor in predecessors[point] where predecessor >= earlier {
                if predecessor == earlier { return true }
                if seen.insert(predecessor).inserted { frontier.append(predecessor) }
            }
        }
        return false
    }

    /// For every point, which of the `tracked` points happen before it or are it, as indices
    /// into `tracked`.
    func reachability(of tracked: [Int]) -> [PointSet] {
        var index: [Int: Int] = [:]
        for (position, point) in tracked.enumerated() { index[point] = position }
        var reach: [PointSet] = []
        reach.reserveCapacity(count)
        for point in 0..<count {
            var set = PointSet(capacity: tracked.count)
            for predecessor in predecessors[point] { set.formUnion(reach[predecessor]) }
            if let position = index[point] { set.insert(position) }
            reach.append(set)
        }
        return reach
    }
}

/// A set of small integers, one bit each: reachability is computed for hundreds of points per
/// program, thousands of programs per run, in a debug build.
struct PointSet {
    private var words: [UInt64]

    init(capacity: Int) {
        words = Array(repeating: 0, count: (capacity + 63) / 64)
    }

    mutating func insert(_ member: Int) {
        words[member / 64] |= 1 << UInt64(member % 64)
    }

    func contains(_ member: Int) -> Bool {
        words[member / 64] & (1 << UInt64(member % 64)) != 0
    }

    mutating func formUnion(_ other: PointSet) {
        for position in words.indices { words[position] |= other.words[position] }
    }
}
