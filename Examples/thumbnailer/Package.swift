// swift-tools-version:6.0
// A separate package that uses Magpie as an application would: by path, as a dependency.
import PackageDescription

let package = Package(
    name: "thumbnailer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Magpie", path: "../..")],
    targets: [
        .executableTarget(
            name: "thumbnailer", dependencies: [.product(name: "Magpie", package: "Magpie")],
            path: "Sources/thumbnailer"),
        // A user's own test of fetching through Magpie, against Magpie's scripted loopback server.
        .testTarget(
            name: "thumbnailerTests",
            dependencies: [
                .product(name: "Magpie", package: "Magpie"), .product(name: "MagpieLoopback", package: "Magpie"),
            ],
            path: "Tests/thumbnailerTests"),
    ],
    swiftLanguageModes: [.v6]
)
