// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where.
#if !VOW_NO_PROCESS
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CVowFoundation
import Foundation

extension Process {
    /// Starts the program this process describes, as a child of this program that starts as it
    /// would from a shell, and returns its identifier; the process itself is never run.
    ///
    /// Foundation's `run()` hands the child the launching thread's signal mask and every
    /// ignored signal, and has no way to set the child's own: Dispatch's worker threads, which
    /// Swift concurrency's run on too, block nearly every signal (swift-corelibs-foundation#4772),
    /// and a server that handles `SIGTERM` or ignores `SIGPIPE` would pass that on. So the
    /// child is spawned here (see `CVowFoundation.c`), from the executable, arguments,
    /// environment and directory the process holds and the standard streams in `streams`,
    /// with no signal blocked and the stop signals and `SIGPIPE` at their defaults. Nothing of
    /// this program's signal state changes, on any thread, at any moment, and no other
    /// program than the one named runs.
    ///
    /// Throws what `run()` throws on Linux for the same process: the same checks of the
    /// executable come first, and a failure to start it, such as a script without `#!` or with
    /// a missing interpreter, names it the same way.
    func spawnChild(streams: [Int32]) throws -> pid_t {
        guard let path = executableURL?.path else {
            throw NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileNoSuchFile.rawValue)
        }
        try checkStartable(path)
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0)=\($1)" }
        var child: pid_t = 0
        let failure = withCStrings([path] + (arguments ?? [])) { arguments in
            withCStrings(environment) { environment in
                streams.withUnsafeBufferPointer { streams in
                    withOptionalCString(currentDirectoryURL?.path) { directory in
                        vow_spawn(&child, path, arguments, environment, directory, streams.baseAddress)
                    }
                }
            }
        }
        guard failure == 0 else { throw launchError(failure, path: path) }
        return child
    }
}

/// The checks Foundation's `run()` makes before it spawns, with its errors: a regular file this
/// program may execute.
private func checkStartable(_ path: String) throws {
    switch vow_check_executable(path) {
    case 0: return
    case -1: throw NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileNoSuchFile.rawValue)
    case let failure: throw launchError(failure, path: path)
    }
}

/// The error Foundation's `run()` throws on Linux when a system call fails with `number` for
/// the executable at `path`: a `CocoaError` naming the file, with the POSIX error beneath.
private func launchError(_ number: Int32, path: String) -> NSError {
    let code: CocoaError.Code =
        switch number {
        case EFBIG: .fileReadTooLarge
        case ENOENT: .fileReadNoSuchFile
        case EPERM, EACCES: .fileReadNoPermission
        default: .fileReadUnknown
        }
    return NSError(
        domain: NSCocoaErrorDomain, code: code.rawValue,
        userInfo: [
            NSFilePathErrorKey: path,
            NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(number)),
        ])
}

/// Calls `body` with `strings` as C strings in an array that ends with a null pointer, as
/// `execve` takes them.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T)
    -> T
{
    let copies = strings.map { strdup($0) } + [nil]
    defer { for copy in copies { free(copy) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Calls `body` with `string` as a C string, or with a null pointer for `nil`.
private func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let string else { return body(nil) }
    return string.withCString(body)
}
#endif
