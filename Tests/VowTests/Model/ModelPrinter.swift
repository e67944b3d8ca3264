/// Shows programs as the Swift they stand for, so that a failure reads as a test case.
enum ProgramPrinter {
    /// `p3` for a promise node 3, `g3` for a guarantee.
    static func names(of program: Program) -> [String] {
        let kinds = (try? program.kinds().get()) ?? program.nodes.map { _ in .promise }
        return kinds.enumerated().map { "\($1 == .promise ? "p" : "g")\($0)" }
    }

    static func swift(_ program: Program) -> String {
        let names = names(of: program)
        let owners = program.sourceOfDeferred
        var lines = [
            "// record(n) appends n to the journal; pause() sleeps 0.2 ms; E8 and E9 are cancellations,",
            "// and so is PromiseError.cancelled, shown as `cancelled`.",
            "let serial0 = DispatchQueue(label: \"serial0\"), serial1 = DispatchQueue(label: \"serial1\")",
            "let concurrent = DispatchQueue(label: \"concurrent\", attributes: .concurrent)",
        ]
        func deferredName(_ deferred: Int) -> String {
            owners[deferred].map { names[$0] } ?? "d\(deferred)"
        }
        func resolverName(_ deferred: Int) -> String {
            owners[deferred].map { "resolve\($0)" } ?? "resolveD\(deferred)"
        }
        for (deferred, made) in program.deferreds.enumerated() where owners[deferred] == nil {
            let type = made.kind == .promise ? "Promise" : "Guarantee"
            lines.append(
                "let (d\(deferred), resolveD\(deferred)) = \(type)<Int>.pending()  // returned by a handler")
        }
        var stage = 0
        for (slot, step) in program.steps.enumerated() {
            if let resolution = step.resolution {
                let deferred = resolution.deferred
                let resolver = resolverName(deferred)
                let call =
                    switch (program.deferreds[deferred].kind, program.deferreds[deferred].outcome) {
                    case (.guarantee, let outcome): "\(resolver)(\(outcome))"
                    case (.promise, .value(let value)): "\(resolver).fulfill(\(value))"
                    case (.promise, let outcome): "\(resolver).reject(\(outcome))"
                    }
                let meanwhile =
                    step.isBuild ? ", while the driver builds the next stage" : ", then wait until quiet"
                lines.append("// step \(slot): on \(describe(resolution.thread))\(meanwhile)")
                lines.append(call)
            }
            if let node = step.cancelled {
                // A `catch` is cancelled through its finalizer, a promise itself.
                let name = if case .catch = program.nodes[node].op { "f\(node)" } else { names[node] }
                lines.append("// step \(slot): on the driver thread, then wait until quiet")
                lines.append("\(name).cancel()")
            }
            guard step.isBuild else { continue }
            for group in program.groups(ofStage: stage) {
                let thread = group == 0 ? "the driver thread" : "global-queue worker \(group), meanwhile"
                lines.append("// step \(slot): build stage \(stage) on \(thread)")
                for (index, node) in program.nodes.enumerated()
                where node.stage == stage && node.group == group {
                    lines.append(line(for: index, in: program, names: names, deferredName: deferredName))
                }
            }
            lines.append("// then wait until quiet")
            stage += 1
        }
        return lines.joined(separator: "\n")
    }

    private static func line(
        for index: Int, in program: Program, names: [String], deferredName: (Int) -> String
    ) -> String {
        let name = names[index]
        let pause = program.nodes[index].slow ? "; pause()" : ""
        let record = "record(\(index))\(pause)"
        func inner(_ inner: Inner, base: String) -> String {
            switch inner {
            case .value(let offset): "return Promise.value(\(base) + \(offset))"
            case .error(let id): "return Promise<Int>(error: E\(id))"
            case .throwing(let id): "throw E\(id)"
            case .rethrow: "throw e"
            case .guaranteeValue(let offset): "return Guarantee.value(\(base) + \(offset))"
            case .deferred(let deferred): "return \(deferredName(deferred))"
            case .node(let node): "return \(names[node])"
            }
        }
        func list(_ children: [Int], wrapping: Bool) -> String {
            let allGuarantees = children.allSatisfy { names[$0].hasPrefix("g") }
            return children.map { child in
                wrapping && !allGuarantees && names[child].hasPrefix("g")
                    ? "Promise(\(names[child]))" : names[child]
            }.joined(separator: ", ")
        }
        /// `let name = input.method(arguments) { closure }`
        func step(_ input: Int, _ method: String, _ arguments: String, _ closure: String) -> String {
            "let \(name) = \(names[input]).\(method)(\(arguments)) { \(closure) }"
        }
        switch program.nodes[index].op {
        case .source(.value(let value)):
            return "let \(name) = Promise.value(\(value))"
        case .source(.error(let id)):
            return "let \(name) = Promise<Int>(error: E\(id))"
        case .source(.guaranteeValue(let value)):
            return "let \(name) = Guarantee.value(\(value))"
        case .source(.pending(let deferred)):
            let type = program.deferreds[deferred].kind == .promise ? "Promise" : "Guarantee"
            return "let (\(name), resolve\(index)) = \(type)<Int>.pending()"
        case .map(let input, let place, .add(let offset)):
            return step(input, "map", "on: \(place.swift)", "v in \(record); return v + \(offset)")
        case .map(let input, let place, .throwing(let id)):
            return step(input, "map", "on: \(place.swift)", "_ in \(record); throw E\(id)")
        case .then(let input, let place, let body):
            return step(input, "then", "on: \(place.swift)", "v in \(record); \(inner(body, base: "v"))")
        case .recover(let input, let place, let policy, let body):
            let arguments = "on: \(place.swift), policy: .\(policy)"
            return step(input, "recover", arguments, "e in \(record); \(inner(body, base: "1000 * e.id"))")
        case .recoverGuarantee(let input, let place, let body):
            return step(
                input, "recover", "on: \(place.swift)", "e in \(record); \(inner(body, base: "1000 * e.id"))")
        case .ensure(let input, let place):
            return step(input, "ensure", "on: \(place.swift)", record)
        case .get(let input, let place, let throwing):
            return step(
                input, "get", "on: \(place.swift)",
                "_ in " + (throwing.map { "\(record); throw E\($0)" } ?? record))
        case .tap(let input, let place):
            return step(input, "tap", "on: \(place.swift)", "_ in \(record)")
        case .catch(let input, let place, let policy, let finally):
            return "let (\(name), resolve\(index)) = Guarantee<Int>.pending()\n"
                + "let f\(index) = \(names[input]).catch(on: \(place.swift), policy: .\(policy)) { _ in \(record) }\n"
                + "f\(index).finally(on: \(finally.swift)) { record(\(index), .finally)\(pause); resolve\(index)(0) }"
        case .when(let children):
            return
                "let \(name) = when(fulfilled: [\(list(children, wrapping: true))]).map(on: nil) { fold($0) }"
        case .whenResolved(let children):
            return
                "let \(name) = when(resolved: [\(list(children, wrapping: true))]).map(on: nil) { fold($0) }"
        case .race(let children):
            if name.hasPrefix("g") { return "let \(name) = race(\(list(children, wrapping: false)))" }
            return "let \(name) = race([\(list(children, wrapping: true))])"
        case .firstly(let input):
            return "let \(name) = firstly { \(names[input]) }"
        }
    }

    private static func describe(_ thread: ActionThread) -> String {
        switch thread {
        case .driver: "the driver thread"
        case .serial0: "serial0"
        case .concurrent: "concurrent"
        case .global: "a global-queue worker"
        }
    }

    /// What the model predicts for every node.
    static func expectations(_ expectation: Expectation, names: [String]) -> String {
        names.indices.map { node in
            guard let outcome = expectation.outcomes[node], let slot = expectation.resolutionSlots[node]
            else {
                return "\(names[node]) pending"
            }
            return "\(names[node]) = \(outcome) in step \(slot)"
        }.joined(separator: ", ")
    }

    /// The side effects of a run, step by step.
    static func journal(_ entries: [Journal.Entry]) -> String {
        guard !entries.isEmpty else { return "(nothing recorded)" }
        return entries.map { "step \($0.slot): \($0.event) on \($0.queue)" }.joined(separator: "\n")
    }
}

extension Place {
    var swift: String {
        switch self {
        case .inline: "nil"
        case .serial0: "serial0"
        case .serial1: "serial1"
        case .concurrent: "concurrent"
        }
    }
}
