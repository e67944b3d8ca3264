// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a launched process's standard output and standard error to their ends, both at once,
/// on a thread of its own, and hands over everything read once both have ended or reading was
/// stopped.
///
/// Reading both pipes while the process runs is what lets a process write any amount: one that
/// fills a pipe nobody reads waits forever. The thread blocks in `poll(2)` on both pipes and on
/// a pipe of its own, written to when reading must stop, then reads what arrived.
///
/// Why a thread rather than `DispatchIO`: under Thread Sanitizer on Linux, libdispatch crashed
/// in `_dispatch_event_loop_drain` on its manager thread in most runs that read many pipes at
/// once through `DispatchIO`, with or without Vow around it, while blocking reads never did. A
/// thread per launch costs some microseconds beside the milliseconds a process takes to start.
final class PipeReader: Sendable {
    /// Everything read from each stream, or the error a read or a wait ended with.
    typealias Outcome = Result<(output: Data, error: Data), POSIXError>

    /// The pipe that stops the reading: the thread waits on `stopping.read`, and ``stop()``
    /// writes a byte to `stopping.write`.
    private let stopping: (read: Int32, write: Int32)

    /// A reader not started yet; throws if the process has no descriptors left for its pipe.
    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(errno) }
        // Not inherited by children that other threads spawn meanwhile.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopping = (ends[0], ends[1])
    }

    deinit {
        close(stopping.read)
        close(stopping.write)
    }

    /// Starts reading `output` and `error`, either of which may be `nil` for a stream not
    /// collected, and calls `finished` once, on the reading thread, when both are read to their
    /// end, or at once when neither is given. Each handle is closed once read.
    func start(output: FileHandle?, error: FileHandle?, finished: @escaping @Sendable (Outcome) -> Void) {
        let handles = Handles(output: output, error: error)
        guard output != nil || error != nil else { return finished(.success((Data(), Data()))) }
        Thread {
            let outcome = self.readToEnd(handles)
            handles.close()
            finished(outcome)
        }.start()
    }

    /// Stops reading at once, even while a child the process left behind keeps a stream open:
    /// ``start(output:error:finished:)``'s `finished` gets `ECANCELED`. Does nothing once
    /// reading has ended.
    func stop() {
        var byte: UInt8 = 0
        _ = write(stopping.write, &byte, 1)
    }

    /// Reads both streams to their ends, unless stopped first; runs on the reading thread.
    private func readToEnd(_ handles: Handles) -> Outcome {
        // The streams' descriptors, then the stopping pipe's; poll(2) skips a negative one.
        var waits = [handles.output, handles.error].map {
            pollfd(fd: $0?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0)
        }
        waits.append(pollfd(fd: stopping.read, events: Int16(POLLIN), revents: 0))
        var collected = [Data(), Data()]
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while waits[0].fd >= 0 || waits[1].fd >= 0 {
            guard poll(&waits, nfds_t(waits.count), -1) >= 0 else {
                if errno == EINTR { continue }
                return .failure(POSIXError(errno))
            }
            if waits[2].revents != 0 { return .failure(POSIXError(.ECANCELED)) }
            for stream in 0..<2 where waits[stream].fd >= 0 && waits[stream].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(waits[stream].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[stream].append(contentsOf: chunk[..<count])
                } else if count == 0 {
                    waits[stream].fd = -1
                } else if errno != EINTR && errno != EAGAIN {
                    return .failure(POSIXError(errno))
                }
            }
        }
        return .success((collected[0], collected[1]))
    }
}

/// The read ends a reader owns: only its thread uses them, then closes them.
// @unchecked: handed to the reading thread when it starts, and never touched by another thread
// afterwards.
private struct Handles: @unchecked Sendable {
    let output: FileHandle?
    let error: FileHandle?

    /// Closes both through their handles, so that neither closes its descriptor again, perhaps
    /// by then another file's, when it goes away.
    func close() {
        try? output?.close()
        try? error?.close()
    }
}

extension POSIXError {
    /// The error for the C library's error number `number`.
    fileprivate init(_ number: Int32) {
        self.init(POSIXErrorCode(rawValue: number) ?? .EIO)
    }
}
#endif
