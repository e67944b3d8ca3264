/// The queue an operator gives a nonisolated handler written without `on:`: one of the two
/// default queues of ``Configuration/Q``, or inline for the operators that run their handlers
/// where they are resolved (`reduce`, `retry`, `Lazy`).
///
/// An operator names its default instead of reading `conf.Q` itself, so that the configuration
/// is read only for a handler that has no isolation. Most handlers in app code are written on
/// the main actor and never need it; reading it cost each of them a call, two retains and two
/// releases.
@usableFromInline
enum DefaultQueue: Sendable {
    /// `conf.Q.map`, for the operators that pass a value on, such as `then`, `map` and
    /// `recover`.
    case map
    /// `conf.Q.return`, for the operators that end a chain or look at a value, such as `done`,
    /// `catch` and `get`.
    case `return`
    /// No queue: the handler runs on the thread that resolves its input.
    case inline
}

extension HandlerQueue {
    /// The queue `fallback` names, read from ``conf`` now.
    ///
    /// Not inlined, so that each operator carries a call rather than the configuration's read.
    @usableFromInline
    init(_ fallback: DefaultQueue) {
        switch fallback {
        case .map:
            self.init(conf.Q.map, nil)
        case .return:
            self.init(conf.Q.return, nil)
        case .inline:
            self = .inline
        }
    }
}
