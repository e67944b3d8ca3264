/// A value that arrives later and cannot fail.
///
/// Use a guarantee where nothing can go wrong, such as a timer or a value computed in the
/// background. Operators on a guarantee keep returning guarantees until a step can throw:
///
/// ```swift
/// after(seconds: 0.5).map {
///     "ready"
/// }.done { message in
///     print(message)
/// }
/// ```
public final class Guarantee<T: Sendable>: Thenable {
    /// A closure that returns a guarantee keeps a chain a guarantee; see ``Thenable/Chained``.
    public typealias Chained = Guarantee<T>

    @usableFromInline
    let box: Box<T>

    @inlinable
    init(box: Box<T>) {
        self.box = box
    }

    /// A pending guarantee that resolves as `box` is sealed: the one handle `box` was born for.
    @inlinable
    convenience init(_ box: EmptyBox<T>) {
        self.init(box: .empty(box))
    }

    /// One more handle to `box`, which already has its own.
    @inlinable
    convenience init(sharing box: EmptyBox<T>) {
        box.status.addHandle()
        self.init(box: .empty(box))
    }

    deinit {
        // Matched here rather than through a method of `Box`; see `Promise`'s `deinit`.
        if case .empty(let box) = box {
            box.releaseHandle()
        }
    }

    /// Creates a pending guarantee and hands its resolve function to `body` at once.
    ///
    /// If the resolve function is released uncalled, Vow reports
    /// ``LogEvent/pendingGuaranteeDeallocated(createdAt:)`` through ``Configuration/logHandler``.
    ///
    /// ```swift
    /// let tapped = Guarantee<Void> { resolve in button.onTap = { resolve(()) } }
    /// ```
    ///
    /// - Parameters:
    ///   - file: Where the guarantee is made, reported if its resolve function is released
    ///     uncalled (debug builds only; see ``CreationSite``). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    ///   - body: The work that resolves the guarantee through the function it is given.
    @inlinable
    public convenience init(
        file: StaticString = #fileID, line: UInt = #line,
        resolver body: (@escaping @Sendable (T) -> Void) -> Void
    ) {
        let box = EmptyBox<T>(madeAt: RecordedSite("Guarantee(resolver:)", fileID: file, line: line))
        self.init(box)
        let sealer = GuaranteeSealer(box)
        body { sealer.resolve($0) }
    }

    /// A guarantee already resolved with `value`.
    ///
    /// ```swift
    /// func defaultName() -> Guarantee<String> { .value("anonymous") }
    /// ```
    @inlinable
    public static func value(_ value: T) -> Guarantee<T> {
        Guarantee(box: .sealed(SealedBox(value)))
    }

    /// A pending guarantee and the function that resolves it.
    ///
    /// ```swift
    /// let (guarantee, resolve) = Guarantee<Int>.pending()
    /// DispatchQueue.global().async { resolve(42) }
    /// ```
    ///
    /// If the resolve function is released uncalled, Vow reports
    /// ``LogEvent/pendingGuaranteeDeallocated(createdAt:)`` through ``Configuration/logHandler``.
    ///
    /// - Parameters:
    ///   - file: Where the guarantee is made, reported if its resolve function is released
    ///     uncalled (debug builds only; see ``CreationSite``). Leave the default.
    ///   - line: The line of `file`. Leave the default.
    @inlinable
    public static func pending(
        file: StaticString = #fileID, line: UInt = #line
    ) -> (guarantee: Guarantee<T>, resolve: @Sendable (T) -> Void) {
        let box = EmptyBox<T>(madeAt: RecordedSite("Guarantee.pending()", fileID: file, line: line))
        let sealer = GuaranteeSealer(box)
        return (Guarantee(box), { sealer.resolve($0) })
    }

    /// Runs `handler` with the value, wrapped as a result: at once if the guarantee is resolved,
    /// otherwise on the thread that resolves it.
    ///
    /// A handler attached with `pipe` is a consumer that never cancels: while the guarantee is
    /// pending, it keeps the work behind it going.
    @inlinable
    public func pipe(to handler: @escaping @Sendable (Result<T, any Error>) -> Void) {
        box.observe { handler(.success($0)) }
    }

    /// Attaches a consumer's handler and fills `link` with the attachment; see
    /// `_pipe(_:linking:)`.
    @inlinable
    public func _pipe(
        _ handler: @escaping @Sendable (Result<T, any Error>) -> Void, linking link: inout ConsumerLink
    ) {
        link = box.attach({ handler(.success($0)) }, recordingIn: link.consumer)
    }

    /// The value wrapped as a result, or `nil` while pending. A guarantee never fails.
    @inlinable
    public var result: Result<T, any Error>? {
        box.resolution.map(Result.success)
    }
}

extension Guarantee where T == Void {
    /// A guarantee already resolved with `()`.
    @inlinable
    public convenience init() {
        self.init(box: .sealed(SealedBox(())))
    }
}

extension Guarantee: CustomStringConvertible, CustomDebugStringConvertible {
    /// The guarantee's type and state, such as `Guarantee<Int>(resolved: 3)`.
    public var description: String {
        switch box.resolution {
        case nil: "Guarantee<\(T.self)>(pending)"
        case let value?: "Guarantee<\(T.self)>(resolved: \(value))"
        }
    }

    /// The description with the guarantee's identity, to tell guarantees of one type apart.
    public var debugDescription: String {
        "\(description) at \(ObjectIdentifier(self))"
    }
}

/// Owns the resolve function of a guarantee, so its release can be noticed and reported.
@usableFromInline
final class GuaranteeSealer<T: Sendable>: Sendable {
    // The box keeps where the guarantee was made, for the report of a resolve function
    // released uncalled.
    @usableFromInline
    let box: EmptyBox<T>

    @inlinable
    init(_ box: EmptyBox<T>) {
        self.box = box
        #if DEBUG
        box.status.markHasResolver()
        #endif
    }

    @inlinable
    func resolve(_ value: T) {
        box.sealNow(value)
    }

    deinit {
        if box.isUnsealed {
            report()
        }
    }

    /// Reports a resolve function released uncalled; never inlined, as a resolver's report.
    @inline(never)
    private func report() {
        box.status.markAbandoned()
        conf.log(.pendingGuaranteeDeallocated(createdAt: box.site.site))
    }
}
