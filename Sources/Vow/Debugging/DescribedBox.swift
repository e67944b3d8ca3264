// What a chain's description reads from each box and upstream; see ChainDescription.

extension BoxCore {
    /// What the box waits on now, read in its barrier and retained for the caller.
    func upstreamForDescription() -> Upstream? {
        var state = (box: Unretained(self), upstream: Upstream?.none)
        queue.read(&state) { state in
            state.upstream = state.box.with { box in box.upstream }
        }
        return state.upstream
    }
}

/// A box's value that can say how the box settled: a promise's `Result`.
protocol DescribedResolution {
    /// `fulfilled`, `cancelled`, or `rejected:` and the error.
    var describedResolution: String { get }
}

extension Result: DescribedResolution where Failure == any Error {
    var describedResolution: String {
        switch self {
        case .success: "fulfilled"
        case .failure(let error) where error.isCancelled: "cancelled"
        case .failure(let error): "rejected: \(error)"
        }
    }
}
