/// The storage beneath every promise and guarantee: a result that arrives once.
///
/// `Box` has two kinds. A ``SealedBox`` is born resolved and needs no synchronization; an
/// ``EmptyBox`` is born pending and guards its state with a concurrent barrier queue.
/// Everything above the core reads a box through ``resolution`` and ``observe(_:)`` only, and
/// resolves an ``EmptyBox`` through its ``EmptyBox/seal(_:)`` (an operator's last statement)
/// or ``EmptyBox/sealNow(_:)`` (a resolver).
///
/// The kinds are enum cases rather than subclasses so that every call is direct: a generic
/// class's overrides run unspecialized, looking up generic metadata on every call.
@usableFromInline
enum Box<T: Sendable>: Sendable {
    case sealed(SealedBox<T>)
    case empty(EmptyBox<T>)

    /// The result, or `nil` while the box is pending.
    @inlinable
    var resolution: T? {
        switch self {
        case .sealed(let box): box.value
        case .empty(let box): box.resolution
        }
    }

    /// Runs `handler` with the result once it exists.
    ///
    /// Handlers attached while the box is pending run in attachment order, on the thread that
    /// resolves it. A handler attached once it has resolved runs at once, inside this call, even
    /// while the resolving thread is still running the earlier handlers: waiting for that thread
    /// could deadlock a caller that goes on to wait for the handler while the resolving thread,
    /// inside an earlier handler, waits for the caller.
    @inlinable
    func observe(_ handler: @escaping @Sendable (T) -> Void) {
        switch self {
        case .sealed(let box):
            #if DEBUG
            box.run(handler)
            #else
            handler(box.value)
            #endif
        case .empty(let box): box.observe(handler)
        }
    }
}

extension Box {
    /// Runs `handler` with the result once it exists, as ``observe(_:)`` does, on behalf of a
    /// consumer that may take it back; see ``EmptyBox/attach(_:recordingIn:)``.
    @inlinable
    @discardableResult
    func attach(_ handler: @escaping @Sendable (T) -> Void, recordingIn consumer: BoxCore? = nil)
        -> ConsumerLink
    {
        switch self {
        case .sealed(let box):
            #if DEBUG
            box.run(handler)
            #else
            handler(box.value)
            #endif
            return .none
        case .empty(let box):
            return box.attach(handler, recordingIn: consumer)
        }
    }

    /// Whether `box` is this box's storage.
    @inlinable
    func isBacked(by box: EmptyBox<T>) -> Bool {
        if case .empty(let storage) = self { storage === box } else { false }
    }
}
