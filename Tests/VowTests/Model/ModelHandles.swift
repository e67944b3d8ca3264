import Dispatch
import Vow

/// A node's promise or guarantee.
enum Handle: Sendable {
    case promise(Promise<Int>)
    case guarantee(Guarantee<Int>)

    var result: Result<Int, any Error>? {
        switch self {
        case .promise(let promise): promise.result
        case .guarantee(let guarantee): guarantee.result
        }
    }

    /// `map` through `Thenable`, which for a guarantee is the promise-returning operator a
    /// throwing body gets. Generic rather than through `any Thenable<Int>`, a constrained
    /// existential that the oldest Apple systems Vow supports cannot run.
    func map(on queue: DispatchQueue?, _ body: @escaping @Sendable (Int) throws -> Int) -> Promise<Int> {
        switch self {
        case .promise(let promise): Self.map(promise, on: queue, body)
        case .guarantee(let guarantee): Self.map(guarantee, on: queue, body)
        }
    }

    /// `get` through `Thenable`, as ``map(on:_:)``.
    func get(on queue: DispatchQueue?, _ body: @escaping @Sendable (Int) throws -> Void) -> Promise<Int> {
        switch self {
        case .promise(let promise): Self.get(promise, on: queue, body)
        case .guarantee(let guarantee): Self.get(guarantee, on: queue, body)
        }
    }

    /// `then` through `Thenable`, as ``map(on:_:)``.
    func then<Next: Thenable>(
        on queue: DispatchQueue?, _ body: @escaping @Sendable (Int) throws -> Next
    ) -> Promise<Int> where Next.T == Int {
        switch self {
        case .promise(let promise): Self.then(promise, on: queue, body)
        case .guarantee(let guarantee): Self.then(guarantee, on: queue, body)
        }
    }

    private static func map<Input: Thenable>(
        _ input: Input, on queue: DispatchQueue?, _ body: @escaping @Sendable (Int) throws -> Int
    ) -> Promise<Int> where Input.T == Int {
        input.map(on: queue, body)
    }

    private static func get<Input: Thenable>(
        _ input: Input, on queue: DispatchQueue?, _ body: @escaping @Sendable (Int) throws -> Void
    ) -> Promise<Int> where Input.T == Int {
        input.get(on: queue, body)
    }

    private static func then<Input: Thenable, Next: Thenable>(
        _ input: Input, on queue: DispatchQueue?, _ body: @escaping @Sendable (Int) throws -> Next
    ) -> Promise<Int> where Input.T == Int, Next.T == Int {
        input.then(on: queue, body)
    }

    /// The promise, or a promise following the guarantee.
    var promise: Promise<Int> {
        switch self {
        case .promise(let promise): promise
        case .guarantee(let guarantee): Promise(guarantee)
        }
    }

    var guarantee: Guarantee<Int> {
        guard case .guarantee(let guarantee) = self else {
            preconditionFailure("the program's kinds promised a guarantee")
        }
        return guarantee
    }

    /// The guarantees, if every handle is one.
    static func guarantees(_ handles: [Handle]) -> [Guarantee<Int>]? {
        let guarantees = handles.compactMap {
            if case .guarantee(let guarantee) = $0 { guarantee } else { nil }
        }
        return guarantees.count == handles.count ? guarantees : nil
    }
}

/// A pending promise or guarantee with what resolves it.
enum DeferredHandle: Sendable {
    case promise(Promise<Int>, Resolver<Int>)
    case guarantee(Guarantee<Int>, @Sendable (Int) -> Void)

    init(kind: Kind) {
        switch kind {
        case .promise:
            let (promise, resolver) = Promise<Int>.pending()
            self = .promise(promise, resolver)
        case .guarantee:
            let (guarantee, resolve) = Guarantee<Int>.pending()
            self = .guarantee(guarantee, resolve)
        }
    }

    var handle: Handle {
        switch self {
        case .promise(let promise, _): .promise(promise)
        case .guarantee(let guarantee, _): .guarantee(guarantee)
        }
    }

    func resolve(with outcome: Outcome) {
        switch (self, outcome) {
        case (.promise(_, let resolver), .value(let value)): resolver.fulfill(value)
        case (.promise(_, let resolver), .error(let id)): resolver.reject(ModelError(id: id))
        case (.guarantee(_, let resolve), .value(let value)): resolve(value)
        default: preconditionFailure("cannot resolve a deferred with \(outcome)")
        }
    }

    func resolveIfPending(with outcome: Outcome) {
        if handle.result == nil { resolve(with: outcome) }
    }
}
