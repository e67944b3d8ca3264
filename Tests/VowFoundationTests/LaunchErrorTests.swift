// Foundation has no `Process` on iOS, tvOS, watchOS and visionOS; Package.swift says where. The
// errors compared are swift-corelibs-foundation's, which Linux has.
#if !VOW_NO_PROCESS && os(Linux)
import Foundation
import Testing
import Vow
import VowFoundation

/// A process that cannot start rejects with the very error Foundation's `run()` throws for the
/// same process, naming the user's executable: each case runs both on two processes set up
/// alike and compares the errors whole.
struct LaunchErrorTests {
    @Test func aMissingFile() async throws {
        try await compare(executable: "/nonexistent/vow-missing")
    }

    @Test func aFileThatIsNotExecutable() async throws {
        try await compare(file: "#!/bin/sh\necho never\n", permissions: 0o644)
    }

    @Test func aFolder() async throws {
        try await compare(executable: FileManager.default.temporaryDirectory.path)
    }

    /// The kernel refuses a file it cannot recognise; `run()` does not hand it to a shell.
    @Test func aScriptWithoutAnInterpreterLine() async throws {
        let error = try await compare(file: "echo never\n")
        #expect(underlyingCode(error) == Int(ENOEXEC))
    }

    @Test func aScriptWhoseInterpreterIsMissing() async throws {
        let error = try await compare(file: "#!/nonexistent/vow-interpreter\necho never\n")
        #expect(underlyingCode(error) == Int(ENOENT))
    }

    /// Past the kernel's limit on the arguments' total size, a quarter of the stack's limit.
    @Test func tooLongAnArgumentList() async throws {
        let error = try await compare(
            executable: "/bin/echo",
            arguments: Array(repeating: String(repeating: "x", count: 100_000), count: 200))
        #expect(underlyingCode(error) == Int(E2BIG))
    }

    @Test func aMissingWorkingFolder() async throws {
        try await compare(executable: "/bin/echo", directory: "/nonexistent/vow-folder")
    }
}

/// Sets up two processes alike, runs one with `run()` and launches the other, and checks that
/// both fail with the same error, which it returns; for a script, writes `file` to a temporary
/// file with `permissions` and runs that.
@discardableResult
private func compare(
    executable: String? = nil, file: String? = nil, permissions: Int = 0o755, arguments: [String] = [],
    directory: String? = nil
) async throws -> NSError {
    var path = executable ?? ""
    if let file {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("vow-\(UUID().uuidString)").path
        try Data(file.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    }
    defer { if file != nil { try? FileManager.default.removeItem(atPath: path) } }
    func process() -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = FileHandle.nullDevice
        return process
    }
    // A file just written may be held open for writing a moment longer by a child another
    // test is spawning at once, which inherited the descriptor and has not reached `execve`:
    // the kernel then refuses to execute it (ETXTBSY), either call, for that moment.
    var thrown: NSError
    var rejected: NSError
    var attempts = 0
    repeat {
        attempts += 1
        if attempts > 1 { try await Task.sleep(nanoseconds: 10_000_000) }
        do {
            try process().run()
            Issue.record("run() started \(path)")
            throw CancellationError()
        } catch let error as NSError {
            thrown = error
        }
        do {
            _ = try await process().launch(.promise).async()
            Issue.record("the launch of \(path) fulfilled")
            throw CancellationError()
        } catch let error as NSError {
            rejected = error
        }
    } while attempts < 100 && [underlyingCode(thrown), underlyingCode(rejected)].contains(Int(ETXTBSY))
    #expect(rejected.domain == thrown.domain, "\(rejected) against \(thrown)")
    #expect(rejected.code == thrown.code, "\(rejected) against \(thrown)")
    #expect(
        rejected.userInfo[NSFilePathErrorKey] as? String == thrown.userInfo[NSFilePathErrorKey] as? String)
    #expect(underlyingCode(rejected) == underlyingCode(thrown), "\(rejected) against \(thrown)")
    #expect(rejected.userInfo.count == thrown.userInfo.count, "\(rejected) against \(thrown)")
    if let named = rejected.userInfo[NSFilePathErrorKey] as? String { #expect(named == path) }
    return rejected
}

/// The code of the POSIX error beneath `error`, if there is one.
private func underlyingCode(_ error: NSError) -> Int? {
    (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code
}
#endif
