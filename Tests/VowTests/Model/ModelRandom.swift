/// The model test's source of randomness: SplitMix64 (Steele, Lea and Flood, 2014).
///
/// The test needs a generator whose output depends on nothing but its seed, on every platform
/// and Swift version, so that a seed printed by a failing CI run rebuilds the same program on
/// a laptop. The standard library promises neither for `SystemRandomNumberGenerator` nor for
/// how `Int.random(in:using:)` consumes a generator's output, so the helpers below draw the
/// numbers themselves.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `range`. The modulo bias is below one in 10^15 for the tiny ranges used here.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int(next() % width)
    }

    mutating func int(in range: Range<Int>) -> Int {
        int(in: range.lowerBound...(range.upperBound - 1))
    }

    /// True with the given probability, in percent.
    mutating func chance(_ percent: Int) -> Bool {
        int(in: 0..<100) < percent
    }

    mutating func element<Element>(of elements: [Element]) -> Element {
        elements[int(in: 0..<elements.count)]
    }

    /// One of `choices`, each drawn in proportion to its weight.
    mutating func weighted<Choice>(_ choices: [(weight: Int, choice: Choice)]) -> Choice {
        var ticket = int(in: 0..<choices.reduce(0) { $0 + $1.weight })
        for entry in choices {
            if ticket < entry.weight { return entry.choice }
            ticket -= entry.weight
        }
        preconditionFailure("weighted choice fell off the end of its table")
    }

    /// The seed of case `index` of a run with `seed`: every case can be replayed on its own.
    static func caseSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }
}
