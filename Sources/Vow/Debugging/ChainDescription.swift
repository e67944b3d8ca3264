/// The text of ``Promise/chainDescription`` and ``Guarantee/chainDescription``: the path from a
/// box up to what it waits on, a line a box, as Documentation/Debugging.md shows.
///
/// A pending box keeps what it waits on as its ``Upstream``: the box of the step before it, the
/// promise its step's body returned, the inputs of a `race` or a `when`, or the work that will
/// settle it. The description follows those links, each read in its box's barrier, and names
/// each box by the operation that made it and the line that called it, which boxes record in
/// debug builds only (see ``RecordedSite``).
///
/// Long paths are cut in the middle, and a combinator lists only so many inputs, so that the
/// text stays readable for a chain of any length. The walk ends whatever the chain's shape: a
/// box met again, on the path being walked or one above it, is named rather than walked once
/// more, so a cycle shows as one; and a description reads at most ``maximumLinks`` links and
/// writes at most ``maximumLines`` lines, each saying where it stopped.
struct ChainDescription {
    /// How many boxes a path shows before it is cut: the first ``kept`` and the last
    /// `maximumPath - kept - 1`, with a line counting those left out.
    static let maximumPath = 12
    /// How many boxes a cut path shows from its start.
    static let kept = 6
    /// How many pending inputs of a combinator are listed.
    static let maximumInputs = 8
    /// How many combinators deep the inputs are listed.
    static let maximumNesting = 4
    /// How many links a description reads in all, a bound on its time: about 10 ms on this
    /// repository's machine, in a debug build.
    static let maximumLinks = 100_000
    /// How many lines a description writes, a bound on its size.
    static let maximumLines = 200

    private var lines: [String] = []
    /// The lines a full description would have had beyond ``maximumLines``.
    private var linesLeftOut = 0
    private var linksRead = 0
    /// Each box described so far, by the operation and site its line names, so that a box met
    /// again is named rather than walked again.
    private var described: [ObjectIdentifier: String] = [:]
    /// The boxes of the paths being walked, from the first path down to the current one: a box
    /// met again among them is one that waits on itself.
    private var enclosing: Set<ObjectIdentifier> = []

    /// The description of `box`, which a thenable of type `type` wraps.
    static func of(_ box: BoxCore, type: String) -> String {
        #if DEBUG
        var description = ChainDescription()
        description.path(from: box, first: "\(type): ", indent: "")
        if description.linesLeftOut > 0 {
            description.lines.append(
                "… \(description.linesLeftOut) more lines left out: a description stops at \(maximumLines)")
        }
        return description.lines.joined(separator: "\n")
        #else
        return "\(type): \(box.describedState); Vow records chains in debug builds only"
        #endif
    }

    /// Adds `line`, unless the description has all the lines it may have.
    private mutating func write(_ line: String) {
        if lines.count < Self.maximumLines {
            lines.append(line)
        } else {
            linesLeftOut += 1
        }
    }

    /// Adds the path from `box` upwards: `box` on a line that starts with `first`, then what it
    /// waits on, one box a numbered line, and any inputs below the box that has them.
    private mutating func path(from box: BoxCore, first: String, indent: String, nesting: Int = 0) {
        var steps: [(box: BoxCore, upstream: Upstream?, note: String?)] = []
        var leftOut = 0
        /// Where each box of this path stands in it, for a box that waits on one of them.
        var positions: [ObjectIdentifier: Int] = [:]
        var end: String?
        var current: BoxCore? = box
        while let node = current {
            let position = steps.count + leftOut
            positions[ObjectIdentifier(node)] = position
            let upstream = node.upstreamForDescription()
            linksRead += 1
            let next = (upstream as? BoxCore ?? upstream?.describedBox).flatMap {
                $0.status.isResolved ? nil : $0
            }
            var note: String?
            if let next, let earlier = positions[ObjectIdentifier(next)] {
                note = "waits on step \(earlier) of this path: a cycle, which nothing can settle"
                current = nil
            } else if let next, let seen = seen(next) {
                note =
                    seen.cycle
                    ? "waits on \(seen.made), above, which waits on this: a cycle, which nothing can settle"
                    : "waits on \(seen.made), described above"
                current = nil
            } else if next != nil, linksRead >= Self.maximumLinks {
                end = "the path goes on: a description reads at most \(Self.maximumLinks) links"
                current = nil
            } else {
                current = next
            }
            if steps.count < Self.maximumPath {
                steps.append((node, upstream, note))
            } else {
                // Keeps the first `kept` and a window of the last ones.
                steps.remove(at: Self.kept)
                steps.append((node, upstream, note))
                leftOut += 1
            }
        }
        let boxes = Set(positions.keys)
        enclosing.formUnion(boxes)
        defer { enclosing.subtract(boxes) }
        for step in steps { described[ObjectIdentifier(step.box)] = Self.made(step.box) }
        for (index, step) in steps.enumerated() {
            if leftOut > 0, index == Self.kept {
                write("\(indent)  … \(leftOut) more \(leftOut == 1 ? "step" : "steps") …")
            }
            let number = index == 0 ? 0 : index + (index >= Self.kept ? leftOut : 0)
            let prefix = index == 0 ? indent + first : "\(indent)  \(number). "
            write(prefix + Self.line(for: step.box, waitingOn: step.upstream, note: step.note))
            if let inputs = step.upstream as? Upstreams {
                list(inputs, indent: indent + (index == 0 ? "  " : "     "), nesting: nesting)
            }
        }
        if let end { write("\(indent)  … \(end)") }
    }

    /// Lists the inputs of a combinator that are still pending, each with its own path.
    private mutating func list(_ inputs: Upstreams, indent: String, nesting: Int) {
        let pending = inputs.members.compactMap { link -> BoxCore? in
            guard let box = link.upstream as? BoxCore, !box.status.isResolved else { return nil }
            return box
        }
        guard nesting < Self.maximumNesting else {
            write("\(indent)… its inputs' paths are left out, \(Self.maximumNesting) combinators deep")
            return
        }
        for input in pending.prefix(Self.maximumInputs) {
            if let seen = seen(input) {
                write(
                    "\(indent)- \(seen.made), \(seen.cycle ? "above, which waits on this: a cycle" : "described above")"
                )
            } else {
                path(from: input, first: "- ", indent: indent, nesting: nesting + 1)
            }
        }
        if pending.count > Self.maximumInputs {
            let more = pending.count - Self.maximumInputs
            write("\(indent)… and \(more) more pending \(more == 1 ? "input" : "inputs")")
        }
    }

    /// A box described already: what its line names it, and whether it is on a path being
    /// walked, where waiting on it closes a cycle; `nil` for a box not described yet.
    private func seen(_ box: BoxCore) -> (made: String, cycle: Bool)? {
        described[ObjectIdentifier(box)].map { ($0, enclosing.contains(ObjectIdentifier(box))) }
    }

    /// The operation that made `box` and where, as its line names it.
    private static func made(_ box: BoxCore) -> String {
        switch (box.site.operation, box.site.site) {
        case (let operation?, let site?): "\(operation) at \(site)"
        case (let operation?, nil): "\(operation), its line not recorded"
        case (nil, _): "a step of Vow's own"
        }
    }

    /// One box: the operation that made it, where, its state, and what it waits on when that is
    /// not another box of the path: `note`, if the walk gave one.
    private static func line(for box: BoxCore, waitingOn upstream: Upstream?, note given: String?) -> String {
        var text = "\(made(box)), \(box.describedState)"
        if !box.status.isResolved, let note = given ?? note(for: box, waitingOn: upstream) {
            text += ": \(note)"
        }
        return text
    }

    /// What a pending box waits on, unless it is the next box of the path.
    private static func note(for box: BoxCore, waitingOn upstream: Upstream?) -> String? {
        let arrived = "its input has arrived; its handler is queued or running"
        switch upstream {
        case let previous as BoxCore:
            return previous.status.isResolved ? arrived : nil
        case let inputs as Upstreams:
            let pending = inputs.members.count { ($0.upstream as? BoxCore)?.status.isResolved == false }
            return "waits on \(pending) pending \(pending == 1 ? "input" : "inputs")"
        case let work?:
            return box.status.hasResolver ? resolverNote(box) : work.waitDescription
        case nil where box.isStep:
            // A step attached to a thenable that had resolved keeps no link to it.
            return arrived
        case nil:
            return box.status.hasResolver ? resolverNote(box) : "waits on work that will settle it"
        }
    }

    /// Whether the resolver of a box that has one is still held: a promise's ``Resolver``, or a
    /// guarantee's resolve function.
    private static func resolverNote(_ box: BoxCore) -> String {
        switch (box.settlesAsPromise, box.status.isAbandoned) {
        case (true, false): "its resolver is held and has not settled it"
        case (true, true): "its resolver was released without settling it, so nothing can"
        case (false, false): "its resolve function is held and has not been called"
        case (false, true): "its resolve function was released uncalled, so nothing can resolve it"
        }
    }
}

/// A thenable that can describe its chain: a promise or a guarantee, whose boxes a waiting call
/// that knows only `Thenable` reaches through this.
protocol ChainDescribing {
    /// ``Promise/chainDescription``, its first line naming the thenable as `type`: a main-actor
    /// promise's shared promise is described as the main-actor promise the user holds.
    func chainDescription(as type: String) -> String
}

extension Promise: ChainDescribing {
    /// The path from this promise to what it waits on, a line a step: the operation that made
    /// each step, where it was written, and its state, down to the pending root and whether its
    /// resolver is still held; a `when` or a `race` lists its inputs still pending, each with
    /// its own path. Documentation/Debugging.md explains each line.
    ///
    /// Vow records where each step was written in debug builds only. In a release build the
    /// description is the promise's state alone.
    ///
    /// ```swift
    /// let (root, resolver) = Promise<Int>.pending()
    /// let doubled = root.map { $0 * 2 }
    /// print(doubled.chainDescription)
    /// // Promise<Int>: map at App/Numbers.swift:2, pending
    /// //   1. Promise.pending() at App/Numbers.swift:1, pending: its resolver is held and has not settled it
    /// resolver.fulfill(21)
    /// ```
    public var chainDescription: String {
        chainDescription(as: "\(Promise.self)")
    }

    func chainDescription(as type: String) -> String {
        switch box {
        case .sealed: "\(type): \(result.map(\.describedResolution) ?? "pending")"
        case .empty(let box): ChainDescription.of(box, type: type)
        }
    }
}

extension Guarantee: ChainDescribing {
    /// The path from this guarantee to what it waits on, as ``Promise/chainDescription`` gives
    /// a promise's.
    ///
    /// ```swift
    /// let (ready, resolve) = Guarantee<Void>.pending()
    /// print(ready.chainDescription)
    /// // Guarantee<()>: Guarantee.pending() at App/Startup.swift:1, pending: its resolve function is held and has not been called
    /// resolve(())
    /// ```
    public var chainDescription: String {
        chainDescription(as: "\(Guarantee.self)")
    }

    func chainDescription(as type: String) -> String {
        switch box {
        case .sealed: "\(type): resolved"
        case .empty(let box): ChainDescription.of(box, type: type)
        }
    }
}

extension MainActorPromise {
    /// The path from this main-actor promise to what it waits on, as
    /// ``Promise/chainDescription`` gives a promise's.
    ///
    /// ```swift
    /// @MainActor func describeLoad(_ note: MainActorPromise<Note>) {
    ///     print(note.chainDescription)
    /// }
    /// ```
    public var chainDescription: String {
        shared.chainDescription(as: "\(MainActorPromise.self)")
    }
}

extension MainActorGuarantee {
    /// The path from this main-actor guarantee to what it waits on, as
    /// ``Promise/chainDescription`` gives a promise's.
    ///
    /// ```swift
    /// @MainActor func describeConfirmation(_ confirmed: MainActorGuarantee<Bool>) {
    ///     print(confirmed.chainDescription)
    /// }
    /// ```
    public var chainDescription: String {
        shared.chainDescription(as: "\(MainActorGuarantee.self)")
    }
}
