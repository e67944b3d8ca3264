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
/// text stays readable for a chain of any length; the walk itself visits every link, which a
/// debugging aid can afford.
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

    private var lines: [String] = []

    /// The description of `box`, which a thenable of type `type` wraps.
    static func of(_ box: BoxCore, type: String) -> String {
        #if DEBUG
        var description = ChainDescription()
        description.path(from: box, first: "\(type): ", indent: "")
        return description.lines.joined(separator: "\n")
        #else
        return "\(type): \(box.describedState); Vow records chains in debug builds only"
        #endif
    }

    /// Adds the path from `box` upwards: `box` on a line that starts with `first`, then what it
    /// waits on, one box a numbered line, and any inputs below the box that has them.
    private mutating func path(from box: BoxCore, first: String, indent: String, nesting: Int = 0) {
        var steps: [(box: BoxCore, upstream: Upstream?)] = []
        var leftOut = 0
        var current: BoxCore? = box
        while let node = current {
            let upstream = node.upstreamForDescription()
            if steps.count < Self.maximumPath {
                steps.append((node, upstream))
            } else {
                // Keeps the first `kept` and a window of the last ones.
                steps.remove(at: Self.kept)
                steps.append((node, upstream))
                leftOut += 1
            }
            let next = upstream as? BoxCore ?? upstream?.describedBox
            current = next.flatMap { $0.status.isResolved ? nil : $0 }
        }
        for (index, step) in steps.enumerated() {
            if leftOut > 0, index == Self.kept {
                lines.append("\(indent)  … \(leftOut) more \(leftOut == 1 ? "step" : "steps") …")
            }
            let number = index == 0 ? 0 : index + (index >= Self.kept ? leftOut : 0)
            let prefix = index == 0 ? indent + first : "\(indent)  \(number). "
            lines.append(prefix + Self.line(for: step.box, waitingOn: step.upstream))
            if let inputs = step.upstream as? Upstreams {
                list(inputs, indent: indent + (index == 0 ? "  " : "     "), nesting: nesting)
            }
        }
    }

    /// Lists the inputs of a combinator that are still pending, each with its own path.
    private mutating func list(_ inputs: Upstreams, indent: String, nesting: Int) {
        let pending = inputs.members.compactMap { link -> BoxCore? in
            guard let box = link.upstream as? BoxCore, !box.status.isResolved else { return nil }
            return box
        }
        guard nesting < Self.maximumNesting else {
            lines.append("\(indent)… its inputs' paths are left out, \(Self.maximumNesting) combinators deep")
            return
        }
        for input in pending.prefix(Self.maximumInputs) {
            path(from: input, first: "- ", indent: indent, nesting: nesting + 1)
        }
        if pending.count > Self.maximumInputs {
            let more = pending.count - Self.maximumInputs
            lines.append("\(indent)… and \(more) more pending \(more == 1 ? "input" : "inputs")")
        }
    }

    /// One box: the operation that made it, where, its state, and what it waits on when that is
    /// not another box of the path.
    private static func line(for box: BoxCore, waitingOn upstream: Upstream?) -> String {
        let made =
            switch (box.site.operation, box.site.site) {
            case (let operation?, let site?): "\(operation) at \(site)"
            case (let operation?, nil): "\(operation), its line not recorded"
            case (nil, _): "a step of Vow's own"
            }
        var text = "\(made), \(box.describedState)"
        if !box.status.isResolved, let note = note(for: box, waitingOn: upstream) {
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
    /// See ``Promise/chainDescription``.
    var chainDescription: String { get }
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
        switch box {
        case .sealed: "\(Promise.self): \(result.map(\.describedResolution) ?? "pending")"
        case .empty(let box): ChainDescription.of(box, type: "\(Promise.self)")
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
    /// // Guarantee<()>: Guarantee.pending() at App/Startup.swift:1, pending: its resolver is held and has not settled it
    /// resolve(())
    /// ```
    public var chainDescription: String {
        switch box {
        case .sealed: "\(Guarantee.self): resolved"
        case .empty(let box): ChainDescription.of(box, type: "\(Guarantee.self)")
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
        switch shared.box {
        case .sealed: "\(MainActorPromise.self): \(shared.result.map(\.describedResolution) ?? "pending")"
        case .empty(let box): ChainDescription.of(box, type: "\(MainActorPromise.self)")
        }
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
        switch shared.box {
        case .sealed: "\(MainActorGuarantee.self): resolved"
        case .empty(let box): ChainDescription.of(box, type: "\(MainActorGuarantee.self)")
        }
    }
}
