// swift-tools-version: 6.0
import PackageDescription

// Vow's Combine bridge, Sources/Vow/Bridging/Combine.swift, is compiled into Vow on Apple
// platforms only. This package compiles the same file on Linux against OpenCombine, through a
// symbolic link, and tests it there: see Documentation/Combine.md.
let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "CombineCheck",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    dependencies: [
        .package(name: "Vow", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // Its one source is a symbolic link to ../../../Sources/Vow/Bridging/Combine.swift,
        // which imports OpenCombine and Vow when VOW_OPENCOMBINE is defined.
        .target(
            name: "VowCombine",
            dependencies: [
                .product(name: "Vow", package: "Vow"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: strictness + [.define("VOW_OPENCOMBINE")]
        ),
        .testTarget(
            name: "VowCombineTests",
            dependencies: [
                "VowCombine",
                .product(name: "Vow", package: "Vow"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: strictness
        ),
    ],
    swiftLanguageModes: [.v6]
)
