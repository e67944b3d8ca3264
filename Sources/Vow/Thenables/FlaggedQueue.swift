public import Dispatch

/// A queue with work-item flags, for the rare handler that asks for flags.
@usableFromInline
final class FlaggedQueue: Sendable {
    @usableFromInline
    let queue: DispatchQueue
    @usableFromInline
    let flagBits: DispatchWorkItemFlags.RawValue

    @inlinable
    init(_ queue: DispatchQueue, _ flags: DispatchWorkItemFlags) {
        self.queue = queue
        self.flagBits = flags.rawValue
    }

    @inlinable
    var flags: DispatchWorkItemFlags { DispatchWorkItemFlags(rawValue: flagBits) }
}
