// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Vow

/// The standard input, output and error of a child that `launch(.promise)` starts, worked out
/// from what its process says as `run()` would, but that a stream left to the parent is
/// collected (output and error) or empty (input): the descriptors the child gets, and what this
/// program does with its own ends once the child has started.
///
/// What it opened itself, it closes when it goes away, unless the child started.
final class ChildStreams {
    /// The child's standard input, output and error.
    private(set) var descriptors: [Int32] = []
    /// The pipes that collect the output and the error.
    private var collecting: (output: Pipe?, error: Pipe?)
    /// Pipes of the user's whose end the child uses, which this program closes once it has.
    private var handed: [FileHandle] = []
    /// `/dev/null`, if a stream goes there.
    private var nullDevice: Int32 = -1

    init(input: Any?, output: Any?, error: Any?) throws {
        descriptors = [
            try descriptor(for: input, named: "input", parents: .standardInput, reads: true),
            try descriptor(for: output, named: "output", parents: .standardOutput, reads: false),
            try descriptor(for: error, named: "error", parents: .standardError, reads: false),
        ]
    }

    deinit {
        if nullDevice >= 0 { close(nullDevice) }
    }

    /// Closes this program's copies of the ends the child uses, so that a read of the other
    /// end finishes when the child's writing does, and returns the ends to collect from.
    func spawned() -> (output: FileHandle?, error: FileHandle?) {
        for handle in handed + [collecting.output, collecting.error].compactMap({ $0?.fileHandleForWriting })
        {
            try? handle.close()
        }
        return (collecting.output?.fileHandleForReading, collecting.error?.fileHandleForReading)
    }

    /// The descriptor the child gets for `stream`, its standard `name`: `/dev/null` or a pipe
    /// of its own where the stream is left as the parent's own (`parents`) or `nil`.
    private func descriptor(for stream: Any?, named name: String, parents: FileHandle, reads: Bool) throws
        -> Int32
    {
        let handle: FileHandle
        switch stream {
        case _ where isLeftToParent(stream, parents):
            guard !reads else { return try openNullDevice() }
            let pipe = Pipe()
            // Not inherited by children that other code spawns meanwhile, whose holding the
            // writing end would keep the reading from its end.
            for end in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
                _ = fcntl(end.fileDescriptor, F_SETFD, FD_CLOEXEC)
            }
            if parents === FileHandle.standardOutput {
                collecting.output = pipe
            } else {
                collecting.error = pipe
            }
            return pipe.fileHandleForWriting.fileDescriptor
        case let pipe as Pipe:
            handle = reads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            handed.append(handle)
        case let given as FileHandle:
            // swift-corelibs-foundation's has no descriptor.
            if given === FileHandle.nullDevice { return try openNullDevice() }
            handle = given
        default:
            throw PromiseError.badInput(
                "the process's standardInput, standardOutput and standardError are each a Pipe, a FileHandle or nil"
            )
        }
        guard handle.fileDescriptor >= 0 else {
            throw PromiseError.badInput(
                "the process's standard \(name) is closed, as a pipe is after a launch; give each launch a new Pipe"
            )
        }
        return handle.fileDescriptor
    }

    private func openNullDevice() throws -> Int32 {
        if nullDevice < 0 {
            nullDevice = open("/dev/null", O_RDWR | O_CLOEXEC)
            guard nullDevice >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        return nullDevice
    }
}

/// Whether a standard stream of a process was left as a new `Process` has it: the parent's own
/// shared handle, swift-corelibs-foundation's default, or `nil`, which is how Apple's Foundation
/// may report a stream no one set. Neither was chosen to send the stream somewhere.
private func isLeftToParent(_ stream: Any?, _ parents: FileHandle) -> Bool {
    switch stream {
    case nil: true
    case let handle as FileHandle: handle === parents
    default: false
    }
}
#endif
