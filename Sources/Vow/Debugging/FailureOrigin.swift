/// Where a promise's failure began: the step whose body threw, the resolver that rejected, or
/// the `timeout` that expired, by the operation that made it and the line that called it.
///
/// A rejection travels down a chain unchanged, so the error a `catch` receives says nothing of
/// the step it came from. In a debug build each box that rejects remembers where its failure
/// began, and passes that on with the failure, without touching the error: a `catch` or
/// `recover` handler reads ``current``, and code that holds the rejected promise reads
/// ``Promise/failureOrigin``. Release builds record nothing, and both are `nil` there.
///
/// ```swift
/// fetchUser(id: 1).map { user -> String in
///     guard user.isActive else { throw URLError(.userAuthenticationRequired) }
///     return user.name
/// }.catch { error in
///     print(error, "began at", FailureOrigin.current?.description ?? "an unknown step")
///     // "… began at map at App/Feed.swift:1"
/// }
/// ```
public struct FailureOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The operation that made the step where the failure began, such as `map`,
    /// `Promise(resolver:)` or `timeout`.
    public let operation: String
    /// Where that operation was called.
    public let site: CreationSite

    /// The origin at `site` of a failure that began in `operation`.
    ///
    /// ```swift
    /// let origin = FailureOrigin(
    ///     operation: "map", site: CreationSite(fileID: "App/Feed.swift", line: 2))
    /// ```
    public init(operation: String, site: CreationSite) {
        self.operation = operation
        self.site = site
    }

    /// `operation at fileID:line`, such as `map at App/Feed.swift:2`.
    public var description: String {
        "\(operation) at \(site)"
    }

    /// Where the failure began that the running handler was given: in a `catch`, `recover`,
    /// `ensure` or `tap` handler, or another handler of a rejected promise; `nil` elsewhere,
    /// in a handler given a value, for a failure Vow did not see begin, and in a release build.
    ///
    /// ```swift
    /// fetchFromNetwork().recover { error in
    ///     print("recovering from", error, "which began at", FailureOrigin.current as Any)
    ///     return fetchFromCache()
    /// }
    /// ```
    public static var current: FailureOrigin? {
        #if DEBUG
        FailureOrigin(Trampoline.withCurrent { $0.deliveredOrigin })
        #else
        nil
        #endif
    }

    /// The origin a box recorded, if it recorded one.
    init?(_ recorded: RecordedSite) {
        guard let operation = recorded.operation, let site = recorded.site else { return nil }
        self.init(operation: operation, site: site)
    }
}

extension Promise {
    /// Where the failure this promise rejected with began, in a debug build; `nil` while it is
    /// pending, once it has fulfilled, for a failure Vow did not see begin (a promise made
    /// already rejected), and in a release build. See ``FailureOrigin``.
    ///
    /// ```swift
    /// let sent = sendAnalytics(event)
    /// sent.catch { _ in
    ///     print("sending failed at", sent.failureOrigin as Any)
    /// }
    /// ```
    public var failureOrigin: FailureOrigin? {
        guard case .empty(let box) = box, box.status.isResolved else { return nil }
        return FailureOrigin(box.failureOrigin)
    }
}

/// A box's value that can be a failure, a promise's `Result`, as the debugging aids read it:
/// a seal records a failure's origin, and a chain's description says how the box settled.
@usableFromInline
protocol FailureCarrying {
    /// Whether the value is a failure.
    var isFailure: Bool { get }
    /// `fulfilled`, `cancelled`, or `rejected:` and the error.
    var describedResolution: String { get }
    #if DEBUG
    /// The address of the failure's error box, which a rethrow of that error keeps; `nil` for
    /// a value.
    var failureIdentity: UInt? { get }
    #endif
}

#if DEBUG
/// The address of the box that holds `error`: an `any Error` is one pointer to a box, which
/// throwing the same error again passes on, and which a new error gets fresh. Compared, never
/// followed.
@usableFromInline
func failureIdentity(of error: any Error) -> UInt {
    withUnsafeBytes(of: error) { $0.load(as: UInt.self) }
}
#endif

extension Result: FailureCarrying {
    @usableFromInline
    var isFailure: Bool {
        if case .failure = self { true } else { false }
    }

    @usableFromInline
    var describedResolution: String {
        switch self {
        case .success: "fulfilled"
        case .failure(let error) where error.isCancelled: "cancelled"
        case .failure(let error): "rejected: \(error)"
        }
    }

    #if DEBUG
    @usableFromInline
    var failureIdentity: UInt? {
        if case .failure(let error) = self { Vow.failureIdentity(of: error) } else { nil }
    }
    #endif
}

extension RecordedSite {
    /// Where a box's failure began, as its seal records it: empty unless `value` is a failure;
    /// then `explicit` if the failure began at the seal, otherwise the origin of the failure
    /// whose handlers the sealing thread runs, which the box passes on. Always empty in a
    /// release build, which never looks at `value`.
    @inlinable
    static func origin<T>(of value: T, explicit: RecordedSite) -> RecordedSite {
        #if DEBUG
        guard (value as? any FailureCarrying)?.isFailure == true else { return RecordedSite() }
        return explicit.recorded != nil ? explicit : Trampoline.withCurrent { $0.deliveredOrigin }
        #else
        RecordedSite()
        #endif
    }
}

extension MainActorPromise {
    /// Where the failure this main-actor promise rejected with began, as
    /// ``Promise/failureOrigin`` gives a promise's.
    ///
    /// ```swift
    /// @MainActor func report(_ saving: MainActorPromise<Note>) {
    ///     print("the save failed at", saving.failureOrigin as Any)
    /// }
    /// ```
    public var failureOrigin: FailureOrigin? {
        shared.failureOrigin
    }
}
