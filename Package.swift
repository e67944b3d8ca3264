// swift-tools-version: 6.2
import PackageDescription

let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Foundation's `Process` exists on macOS and Linux only: elsewhere VowFoundation leaves out its
// process launching, and its tests with it. CI builds and tests that shape on Linux too: with
// VOW_NO_PROCESS set in the environment of the build, the condition holds on every platform, and
// only the targets that read it are compiled again (Documentation/Contributing.md).
let withoutProcess: [SwiftSetting] =
    Context.environment["VOW_NO_PROCESS"] == nil
    ? [.define("VOW_NO_PROCESS", .when(platforms: [.iOS, .macCatalyst, .tvOS, .watchOS, .visionOS]))]
    : [.define("VOW_NO_PROCESS")]

let package = Package(
    name: "Vow",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Vow", targets: ["Vow"]),
        .library(name: "VowFoundation", targets: ["VowFoundation"]),
        .executable(name: "wordcount", targets: ["WordCount"]),
        .executable(name: "profile", targets: ["Profile"]),
        .executable(name: "personservice", targets: ["PersonService"]),
        .executable(name: "fetchlocal", targets: ["FetchLocal"]),
        .executable(name: "flakyservice", targets: ["FlakyService"]),
        .executable(name: "asyncinterop", targets: ["AsyncInterop"]),
    ],
    targets: [
        // Atomics, a thread-local slot and the barrier queues, from C: see its header for why.
        .target(name: "CVowCore"),
        .target(name: "Vow", dependencies: ["CVowCore"], swiftSettings: strictness),
        // Spawning a child and waiting for it, from C: see its header for why.
        .target(name: "CVowFoundation"),
        // Promises for Foundation's URLSession, Process and NotificationCenter, on Linux too.
        .target(
            name: "VowFoundation", dependencies: ["Vow", "CVowFoundation"],
            swiftSettings: strictness + withoutProcess),
        .executableTarget(
            name: "WordCount", dependencies: ["Vow"], path: "Examples/WordCount", swiftSettings: strictness),
        .executableTarget(
            name: "Profile", dependencies: ["Vow"], path: "Examples/Profile", swiftSettings: strictness),
        .executableTarget(
            name: "PersonService", dependencies: ["Vow"], path: "Examples/PersonService",
            swiftSettings: strictness),
        .executableTarget(
            name: "FetchLocal", dependencies: ["VowFoundation", "LoopbackHTTP"], path: "Examples/FetchLocal",
            swiftSettings: strictness),
        .executableTarget(
            name: "FlakyService", dependencies: ["VowFoundation", "LoopbackHTTP"],
            path: "Examples/FlakyService", swiftSettings: strictness),
        .executableTarget(
            name: "AsyncInterop", dependencies: ["Vow"], path: "Examples/AsyncInterop",
            swiftSettings: strictness),
        .testTarget(name: "VowTests", dependencies: ["Vow", "StuckWaitChecks"], swiftSettings: strictness),
        // A script whose waits outlast conf.stuckWaitThreshold, which is process-wide: VowTests
        // launch it.
        .executableTarget(
            name: "StuckWaitChecks", dependencies: ["Vow"], path: "Tests/StuckWaitChecks",
            swiftSettings: strictness),
        // A small HTTP/1.1 server on 127.0.0.1, which the URLSession tests start themselves.
        .target(name: "LoopbackHTTP", path: "Tests/LoopbackHTTP", swiftSettings: strictness),
        .testTarget(
            name: "VowFoundationTests", dependencies: ["VowFoundation", "LoopbackHTTP", "SignalChecks"],
            swiftSettings: strictness + withoutProcess),
        // A program whose signal state a test sets whole, which VowFoundationTests launch.
        .executableTarget(
            name: "SignalChecks", dependencies: ["VowFoundation"], path: "Tests/SignalChecks",
            swiftSettings: strictness + withoutProcess),
        // Top-level code, which a test file cannot be: CI runs it with `swift run TopLevelChecks`.
        .executableTarget(
            name: "TopLevelChecks", dependencies: ["Vow"], path: "Tests/TopLevelChecks",
            swiftSettings: strictness),
        .testTarget(name: "VowXCTests", dependencies: ["Vow"], swiftSettings: strictness),
        // Built as a new Xcode 26 app project builds its code: main-actor isolated by default, with
        // the "approachable concurrency" features. Troubleshooting.md quotes what users meet there.
        .testTarget(
            name: "DefaultMainActorTests", dependencies: ["Vow"],
            swiftSettings: strictness + [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
            ]),
        // A server's shape, whose main queue never runs: CI runs it with `swift run ServerChecks`.
        .executableTarget(
            name: "ServerChecks", dependencies: ["Vow"], path: "Tests/ServerChecks", swiftSettings: strictness
        ),
    ],
    swiftLanguageModes: [.v6]
)
