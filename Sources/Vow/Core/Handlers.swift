/// The handlers attached to a pending box, in attachment order, each under the token its
/// attachment was given, by which its consumer can take it back.
///
/// Most promises get exactly one handler, the next step of their chain, so a single handler is
/// stored inline, under token 0, and only a second one allocates an array. In the array a
/// handler's token is its index: one taken back leaves `nil` in its place, so that the others
/// keep their tokens, and trailing `nil`s are dropped at once, so that consumers that attach
/// and withdraw in turn reuse the same slot. Once every handler is taken back the array goes
/// too, and the next attachment starts over at token 0: no token handed out earlier is still
/// in use then.
@usableFromInline
enum Handlers<R: Sendable> {
    @usableFromInline
    typealias Body = @Sendable (R) -> Void

    case none
    case one(Body)
    /// Two or more attachments, `live` of which are still there.
    case many([Body?], live: Int)

    @inlinable @inline(__always)
    init() {
        self = .none
    }

    @inlinable @inline(__always)
    var isEmpty: Bool {
        if case .none = self { true } else { false }
    }

    /// How many slots to visit to run every handler, taken-back ones included.
    @inlinable
    var slots: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let bodies, _): bodies.count
        }
    }

    /// Runs the handler in slot `index` with `value`, unless its consumer took it back.
    ///
    /// Called where it lies rather than returned: a handler copied out of the list would be
    /// retained and released around every run.
    @inlinable
    func runHandler(in index: Int, with value: R) {
        switch self {
        case .none: preconditionFailure("Vow internal error: no handler at \(index)")
        case .one(let body): body(value)
        case .many(let bodies, _): bodies[index]?(value)
        }
    }

    /// Adds `body` after the others; returns its token.
    ///
    /// Always inlined into the attaching barrier, where a call would retain `body` here and
    /// release the caller's copy there, on every attachment.
    @inlinable @inline(__always)
    mutating func append(_ body: @escaping Body) -> UInt32 {
        switch self {
        case .none:
            self = .one(body)
            return 0
        case .one(let first):
            self = .many([first, body], live: 2)
            return 1
        case .many(var bodies, let live):
            // Dropped first, so the array below is unique and grows in place.
            self = .none
            bodies.append(body)
            self = .many(bodies, live: live + 1)
            return UInt32(truncatingIfNeeded: bodies.count - 1)
        }
    }

    /// Takes out the handler attached as `token` and returns it, for the caller to release
    /// outside the barrier: releasing it may free what it captured, and a `deinit` is user code.
    /// Returns `nil` if it is not there.
    ///
    /// Always inlined, with the rare case of several handlers in a function of its own: this
    /// runs in code that is never specialized, where a call would look up the list's metadata.
    @inlinable @inline(__always)
    mutating func remove(_ token: UInt32) -> Body? {
        switch self {
        case .none:
            return nil
        case .one(let body):
            guard token == 0 else { return nil }
            self = .none
            return body
        case .many:
            return removeFromMany(token)
        }
    }

    /// ``remove(_:)`` from a list of two or more attachments.
    @usableFromInline
    mutating func removeFromMany(_ token: UInt32) -> Body? {
        guard case .many(var bodies, let live) = self else { return nil }
        let index = Int(token)
        guard index < bodies.count, let body = bodies[index] else { return nil }
        // Dropped first, so that the array below is unique and changes in place.
        self = .none
        // The last one leaves nothing behind: the array, all `nil`s now, goes.
        guard live > 1 else { return body }
        bodies[index] = nil
        while let last = bodies.last, last == nil {
            bodies.removeLast()
        }
        self = .many(bodies, live: live - 1)
        return body
    }
}
