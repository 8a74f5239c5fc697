// swift-tools-version:6.0
// Magpie's image service mounted on a Vapor application. A package of its own, so that users of
// Magpie who do not use Vapor never resolve or compile it (Vapor brings swift-crypto, routing-kit,
// multipart-kit and more: minutes of a first build).
import PackageDescription

let package = Package(
    name: "MagpieVapor",
    platforms: [.macOS(.v15)],
    products: [.library(name: "MagpieVapor", targets: ["MagpieVapor"])],
    dependencies: [
        .package(name: "Magpie", path: "../.."),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        .target(
            name: "MagpieVapor",
            dependencies: [
                .product(name: "MagpieServer", package: "Magpie"), .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(
            name: "MagpieVaporTests",
            dependencies: [
                "MagpieVapor", .product(name: "Magpie", package: "Magpie"),
                .product(name: "MagpieServer", package: "Magpie"),
                .product(name: "MagpieLoopback", package: "Magpie"),
                .product(name: "VaporTesting", package: "vapor"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
