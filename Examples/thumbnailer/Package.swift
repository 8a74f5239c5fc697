// swift-tools-version:6.0
// A separate package that uses Magpie as an application would: by path, as a dependency.
import PackageDescription

let package = Package(
    name: "thumbnailer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Magpie", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(name: "MagpieVapor", path: "../../Integrations/MagpieVapor"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.0"),
    ],
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
        // An application with routes of its own that mounts Magpie's image service under /img.
        .target(
            name: "Gallery",
            dependencies: [
                .product(name: "Magpie", package: "Magpie"), .product(name: "MagpieServer", package: "Magpie"),
                .product(name: "MagpieHummingbird", package: "Magpie"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Sources/Gallery"),
        .executableTarget(
            name: "gallery",
            dependencies: [
                "Gallery", .product(name: "MagpieServer", package: "Magpie"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Sources/gallery"),
        .testTarget(
            name: "galleryTests",
            dependencies: [
                "Gallery", .product(name: "Magpie", package: "Magpie"),
                .product(name: "MagpieLoopback", package: "Magpie"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/galleryTests"),
        // The same service mounted in a Vapor application (MagpieVapor, a package of its own).
        .executableTarget(
            name: "vapor-gallery",
            dependencies: [
                .product(name: "Magpie", package: "Magpie"), .product(name: "MagpieServer", package: "Magpie"),
                .product(name: "MagpieVapor", package: "MagpieVapor"), .product(name: "Vapor", package: "vapor"),
            ],
            path: "Sources/vapor-gallery"),
    ],
    swiftLanguageModes: [.v6]
)
