public import Foundation

// Forms without a site, for passing Vow's functions and methods by name.
//
// Every call records its caller's line through defaulted `file:` and `line:` parameters, but a
// function passed as a value has no defaults: `when(fulfilled:)` names no function whose full
// name is `when(fulfilled:file:line:)`, and `let v: () -> Promise<Void> = p.asVoid` finds none
// of that type. The names below, which code passed as values before sites existed, have a form
// without them, which records the operation and no line. The form is disfavoured, so that a
// call, which matches both, keeps the one that records its line; a reference matches only this
// one, or picks it by its type. A reference to a method written without a type, such as
// `let v = p.asVoid`, gets the form with the site: write the type, or `{ p.asVoid() }`.
//
// A call still weighs every form of its name, so a form costs the type checker at each call
// of that name, and in a chain that cost multiplies: a form is here only where a chain of
// sixteen steps calling the name costs no more than 1% more to check. `when` and `race(_:)`
// have none: one more `when` of any label made a chain that calls `when(resolved:)` four
// times cost 46% more, and `race(_:)` an eight-step chain calling `race` 3.8 times as much; pass those as
// closures instead (`{ when(fulfilled: $0) }`). Documentation/Performance.md has the figures.

/// ``race(fulfilled:file:line:)``, for passing by name.
///
/// ```swift
/// let mirrors = [[fetchFromMirrorA(), fetchFromMirrorB()]]
/// let firstFound = mirrors.map(race(fulfilled:))
/// ```
@inlinable @_disfavoredOverload
public func race<U: Thenable>(fulfilled thenables: [U]) -> Promise<U.T> {
    race(fulfilled: thenables, file: "", line: 0)
}

/// ``after(seconds:file:line:)``, for passing by name.
///
/// ```swift
/// let pauses = [0.01, 0.02].map(after(seconds:))
/// ```
@_disfavoredOverload
public func after(seconds: TimeInterval) -> Guarantee<Void> {
    after(seconds: seconds, file: "", line: 0)
}

/// ``after(_:file:line:)``, for passing by name.
///
/// ```swift
/// let pauses: [DispatchTimeInterval] = [.milliseconds(10), .milliseconds(20)]
/// let timers = pauses.map(after(_:))
/// ```
@_disfavoredOverload
public func after(_ interval: DispatchTimeInterval) -> Guarantee<Void> {
    after(interval, file: "", line: 0)
}

/// ``hang(_:file:line:)-(Promise<T>,_,_)``, for passing by name; a stuck wait's report then
/// names `hang(_:)` without its line.
///
/// ```swift
/// let scores = try [fetchScore(), fetchScore()].map(hang(_:))
/// ```
@available(*, noasync, message: "hang() blocks the thread; use 'await promise.async()' in async code")
@_disfavoredOverload
public func hang<T>(_ promise: Promise<T>) throws -> T {
    try hang(promise, file: "", line: 0)
}

/// ``hang(_:file:line:)-(Guarantee<T>,_,_)``, for passing by name.
///
/// ```swift
/// let sizes = [width(), height()].map(hang(_:))
/// ```
@available(*, noasync, message: "hang() blocks the thread; use 'await guarantee.async()' in async code")
@_disfavoredOverload
public func hang<T>(_ guarantee: Guarantee<T>) -> T {
    hang(guarantee, file: "", line: 0)
}

/// ``hang(_:file:line:)-(Finalizer,_,_)``, for passing by name.
///
/// ```swift
/// [fetchScore().done { print($0) }.catch { print($0) }].forEach(hang(_:))
/// ```
@available(
    *, noasync, message: "hang() blocks the thread; use 'await finalizer.finished.async()' in async code"
)
@_disfavoredOverload
public func hang(_ finalizer: Finalizer) {
    hang(finalizer, file: "", line: 0)
}

extension Thenable {
    /// ``asVoid(file:line:)``, for passing by name.
    ///
    /// ```swift
    /// let sending: () -> Promise<Void> = fetchScore().asVoid
    /// ```
    @inlinable @_disfavoredOverload
    public func asVoid() -> Promise<Void> {
        asVoid(file: "", line: 0)
    }

    /// ``wait(file:line:)``, for passing by name; a stuck wait's report then names `wait()`
    /// without its line.
    ///
    /// ```swift
    /// let waiting: () throws -> Int = fetchScore().wait
    /// print(try waiting())
    /// ```
    @available(*, noasync, message: "wait() blocks the thread; use 'await promise.async()' in async code")
    @inlinable @_disfavoredOverload
    public func wait() throws -> T {
        try wait(file: "", line: 0)
    }
}

extension Guarantee {
    /// ``asVoid(file:line:)``, for passing by name.
    ///
    /// ```swift
    /// let pausing: () -> Guarantee<Void> = width().asVoid
    /// ```
    @inlinable @_disfavoredOverload
    public func asVoid() -> Guarantee<Void> {
        asVoid(file: "", line: 0)
    }

    /// ``wait(file:line:)``, for passing by name.
    ///
    /// ```swift
    /// let waiting: () -> Int = width().wait
    /// ```
    @available(*, noasync, message: "wait() blocks the thread; use 'await guarantee.async()' in async code")
    @inlinable @_disfavoredOverload
    public func wait() -> T {
        wait(file: "", line: 0)
    }
}

extension CatchMixin {
    /// ``cauterize(file:line:)``, for passing by name.
    ///
    /// ```swift
    /// let ending: () -> Finalizer = fetchScore().cauterize
    /// ```
    @inlinable @_disfavoredOverload @discardableResult
    public func cauterize() -> Finalizer {
        cauterize(file: "", line: 0)
    }
}

extension Finalizer {
    /// ``wait(file:line:)``, for passing by name.
    ///
    /// ```swift
    /// let waiting: () -> Void = fetchScore().cauterize().wait
    /// ```
    @available(
        *, noasync, message: "wait() blocks the thread; use 'await finalizer.finished.async()' in async code"
    )
    @_disfavoredOverload
    public func wait() {
        wait(file: "", line: 0)
    }
}

extension Promise {
    /// ``init(error:file:line:)``, for passing by name.
    ///
    /// ```swift
    /// let failures = [URLError(.timedOut)].map(Promise<Int>.init(error:))
    /// ```
    @_disfavoredOverload
    public convenience init(error: any Error) {
        self.init(error: error, file: "", line: 0)
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension PromiseCache {
    /// ``value(for:file:line:)``, for passing by name.
    ///
    /// ```swift
    /// let users = PromiseCache<Int, String> { id in Promise.value("user \(id)") }
    /// let lookups = [1, 2].map(users.value(for:))
    /// ```
    @_disfavoredOverload
    public func value(for key: Key) -> Promise<Value> {
        value(for: key, file: "", line: 0)
    }
}
