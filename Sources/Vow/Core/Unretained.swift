/// A reference that does not keep its object alive, for the state of a barrier block that runs
/// inside a method of that object.
///
/// The method holds its object for as long as the block runs, which is the whole of the
/// synchronous call, so retaining it again for the block would only add two atomic
/// instructions to every barrier. An `unowned(unsafe)` property does not save them: the
/// optimizer still retains what it loads from one for as long as it uses it.
///
/// ```swift incomplete
/// var state = (box: Unretained(self), value: T?.none)
/// queue.read(&state) { state in
///     state.value = state.box.with { box in box.sealant.value }
/// }
/// ```
@usableFromInline
struct Unretained<Object: AnyObject> {
    @usableFromInline
    let reference: Unmanaged<Object>

    @inlinable
    init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// Runs `body` with the object, neither retained nor released.
    @inlinable
    func with<Result>(_ body: (Object) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }
}
