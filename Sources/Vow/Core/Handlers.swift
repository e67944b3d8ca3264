/// The handlers attached to a pending box, in attachment order.
///
/// Most promises get exactly one handler, the next step of their chain, so a single handler is
/// stored inline and only a second one allocates an array.
@usableFromInline
enum Handlers<R: Sendable> {
    @usableFromInline
    typealias Body = @Sendable (R) -> Void

    case none
    case one(Body)
    case many([Body])

    @inlinable
    init() {
        self = .none
    }

    @inlinable
    var isEmpty: Bool {
        if case .none = self { true } else { false }
    }

    @inlinable
    var count: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let bodies): bodies.count
        }
    }

    @inlinable
    subscript(index: Int) -> Body {
        switch self {
        case .none: preconditionFailure("Vow internal error: no handler at \(index)")
        case .one(let body): body
        case .many(let bodies): bodies[index]
        }
    }

    @inlinable
    mutating func append(_ body: @escaping Body) {
        switch self {
        case .none:
            self = .one(body)
        case .one(let first):
            self = .many([first, body])
        case .many(var bodies):
            self = .none
            bodies.append(body)
            self = .many(bodies)
        }
    }
}
