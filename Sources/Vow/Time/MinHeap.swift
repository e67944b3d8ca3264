/// A binary min-heap: the least element is always at hand, and adding or taking one out costs
/// O(log n).
///
/// ``ManualClock`` keeps the keys of what waits for it here, so that advancing past n timers
/// costs O(n log n) rather than a scan of everything left for each one. Equal elements come out
/// in no particular order: a caller that needs them in order makes them unequal, as the clock
/// does by comparing the ids of equal deadlines.
struct MinHeap<Element: Comparable> {
    /// The elements in heap order: each is no greater than its children, at `2i + 1` and
    /// `2i + 2`.
    private var elements: [Element] = []

    /// An empty heap.
    init() {}

    /// How many elements the heap holds.
    var count: Int { elements.count }

    /// The least element, or `nil` if the heap is empty.
    var min: Element? { elements.first }

    /// Adds `element`.
    mutating func insert(_ element: Element) {
        elements.append(element)
        siftUp(from: elements.count - 1)
    }

    /// Removes and returns the least element, or returns `nil` if the heap is empty.
    mutating func removeMin() -> Element? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        let least = elements[0]
        elements[0] = last
        siftDown(from: 0)
        return least
    }

    /// Removes every element that satisfies `shouldBeRemoved`, in O(n).
    ///
    /// The survivors are copied into a new array, so that the storage shrinks with them, and
    /// put back in heap order from the bottom up, which costs less than adding them one by one.
    mutating func removeAll(where shouldBeRemoved: (Element) -> Bool) {
        elements = elements.filter { !shouldBeRemoved($0) }
        for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) {
            siftDown(from: index)
        }
    }

    /// Moves the element at `index` up until its parent is no greater.
    private mutating func siftUp(from index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Moves the element at `index` down until neither child is less.
    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            guard left < elements.count else { return }
            let right = left + 1
            let least = right < elements.count && elements[right] < elements[left] ? right : left
            guard elements[least] < elements[parent] else { return }
            elements.swapAt(parent, least)
            parent = least
        }
    }
}

extension MinHeap: Sendable where Element: Sendable {}
