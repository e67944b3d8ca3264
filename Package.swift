// swift-tools-version: 6.0
import PackageDescription

let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Vow",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Vow", targets: ["Vow"]),
        .executable(name: "wordcount", targets: ["WordCount"]),
    ],
    targets: [
        .target(name: "Vow", swiftSettings: strictness),
        .executableTarget(
            name: "WordCount", dependencies: ["Vow"], path: "Examples/WordCount", swiftSettings: strictness),
        .testTarget(name: "VowTests", dependencies: ["Vow"], swiftSettings: strictness),
        .testTarget(name: "VowXCTests", dependencies: ["Vow"], swiftSettings: strictness),
    ],
    swiftLanguageModes: [.v6]
)
