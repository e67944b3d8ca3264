// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "VowBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vow-benchmarks", targets: ["VowBenchmarks"])
    ],
    dependencies: [
        .package(name: "Vow", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // glibc's allocator statistics for the memory scenario; empty elsewhere.
        .systemLibrary(name: "CMalloc"),
        .executableTarget(
            name: "VowBenchmarks",
            dependencies: [
                "CMalloc",
                .product(name: "Vow", package: "Vow"),
                .product(name: "VowFoundation", package: "Vow"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
