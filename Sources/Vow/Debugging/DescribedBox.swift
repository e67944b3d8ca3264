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
