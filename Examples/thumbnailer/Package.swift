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
            path: "Sources/thumbnailer")
    ],
    swiftLanguageModes: [.v6]
)
