import Foundation
import Synchronization

// Instruction counts, for figures that do not move with the machine's load.
//
// A time on a shared machine moves with whatever else runs: a scenario that hops between
// threads waits for each one to wake, and its ratio to Dispatch spreads by a fifth from round
// to round. The number of instructions a batch executes barely moves, so a change of a few
// percent shows in one run. With `--count-instructions`, every selected scenario runs each of
// its contenders twice, once to warm up and once to be counted, and measures no time.
//
// The counting is callgrind's, steered by two marker functions: run under
// `valgrind --tool=callgrind --dump-before='*instructionCountBegins*'
// --dump-before='*instructionCountEnds*'`, callgrind writes out and zeroes every thread's
// counts as a counted batch starts, and writes the batch's as it ends, so batch k is dump 2k;
// `Benchmarks/Scripts/budget --instructions` does exactly that. (`--zero-before` would zero
// the calling thread's counts only, and leave another thread's earlier work, such as a
// SwiftNIO loop running a baseline's batch, in the next dump.) Each counted batch prints one
// line to standard output, `count <scenario> <contender> <operations>`, in order. Run without
// valgrind, the markers do nothing that matters, and the mode only proves that every batch
// still runs.

/// How many batches have been counted: the markers' side effect, which keeps the optimizer from
/// removing calls to them.
private let countedBatches = Atomic<Int>(0)

/// Where callgrind starts counting: it zeroes its counts on entering this function.
@inline(never)
private func instructionCountBegins() {
    countedBatches.add(1, ordering: .relaxed)
}

/// Where callgrind stops counting: it writes what it counted on entering this function.
@inline(never)
private func instructionCountEnds() {
    countedBatches.add(0, ordering: .relaxed)
}

/// Runs each contender's batch once to warm up, then once between the markers, and announces
/// each counted batch on standard output for the script that reads callgrind's dumps.
///
/// Every contender of a batch that hops between threads waits for its work to finish before it
/// returns, so the other threads' instructions are in the count too.
func countInstructions(of contenders: [Contender], scenario: String, opsPerBatch: Int, context: Context) {
    // Each contender is counted right after its own warm-up, so that the heap it meets is the
    // one its own batch left: a count taken after another contender's batch moved by up to 14%.
    // SwiftNIO's loops finish what they were sent first: callgrind counts every thread, and a
    // loop still busy with a baseline's batch would be counted in the next one.
    for contender in contenders {
        _ = contender.batch()
        context.settleLoops()
        // Written, unbuffered, before the count starts, so that writing it is not counted.
        FileHandle.standardOutput.write(Data("count\t\(scenario)\t\(contender.name)\t\(opsPerBatch)\n".utf8))
        instructionCountBegins()
        _ = contender.batch()
        instructionCountEnds()
    }
}
