// swift-tools-version:6.1
import PackageDescription

/// How the release builds of the two programs link on Linux (product-only flags: the library
/// products do not carry them). A version script that exports no symbol (see
/// Sources/magpie/magpie.exports), and lld with packed relative relocations (DT_RELR, glibc 2.36+):
/// a static-stdlib program's 124,000 relative relocations take 3 MB as RELA, every page of which
/// the loader reads into each process at start, and a few kilobytes as RELR.
let releaseExecutableLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/magpie/magpie.exports",
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        ],
        .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "Magpie",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Magpie", targets: ["Magpie"]),
        // Decode, thumbnail, process and encode, without the caches and the network: the C core
        // and the Core, Image and Processing layers, with no swift-nio, AsyncHTTPClient or
        // swift-log. `Magpie` re-exports it.
        .library(name: "MagpieImage", targets: ["MagpieImage"]),
        .executable(name: "magpie", targets: ["magpie"]),
        // The image service, framework-neutral (parse and verify an imgproxy URL, run it through
        // the pipeline, answer), and `magpie-server`, which serves it with Hummingbird.
        .library(name: "MagpieServer", targets: ["MagpieServer"]),
        .library(name: "MagpieHummingbird", targets: ["MagpieHummingbird"]),
        .executable(name: "magpie-server", targets: ["magpie-server"]),
        // A scripted HTTP server on 127.0.0.1 for tests (yours too): answers, truncations, slow
        // bodies, resets and raw bytes per request, with request counts.
        .library(name: "MagpieLoopback", targets: ["MagpieLoopback"]),
    ],
    // `swift build --traits OTLP` gives magpie-server an OTLP trace exporter (swift-otel, HTTP and
    // protobuf): `--otel-endpoint URL`. Off by default: swift-otel and swift-protobuf take minutes
    // to compile, and the libraries never need them.
    traits: [.trait(name: "OTLP", description: "magpie-server exports traces over OTLP with swift-otel")],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        // Spans for cache reads, downloads, decodes, processing, encodes and service requests: a
        // no-op until the application bootstraps a tracer.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // The C core: CSources/ with its public header in include/. System libraries from Debian's
        // libturbojpeg0-dev, libjpeg62-turbo-dev, libpng-dev, libgif-dev, zlib1g-dev, libwebp-dev,
        // libavif-dev, libtiff-dev, libheif-dev and libjxl-dev (headers; those four libraries load
        // at run time). The SwiftPM build always
        // has WebP and AVIF; CMake makes them optional.
        .target(
            name: "CMagpie",
            path: ".",
            sources: ["CSources"],
            publicHeadersPath: "include",
            cSettings: [
                // Private headers sit beside their code in CSources/<room>/, included by their path
                // from CSources/ ("core/job.h"); only internal.h is at its top.
                .headerSearchPath("CSources"),
                .define("_DEFAULT_SOURCE"), .define("MAGPIE_HAVE_WEBP", to: "1"), .define("MAGPIE_HAVE_AVIF", to: "1"),
                // libavif (and the 22 libraries it brings) loads on the first AVIF decode, not at
                // every start: see CSources/codecs/avif/avif_loader.c. libtiff, libheif and libjxl always load
                // so (lazy.c), built from their -dev packages' headers.
                .define("MAGPIE_AVIF_DLOPEN", to: "1"), .define("MAGPIE_HAVE_TIFF", to: "1"),
                .define("MAGPIE_HAVE_HEIF", to: "1"), .define("MAGPIE_HAVE_JXL", to: "1"),
                // GIF output's palettes: libimagequant (libimagequant-dev), loaded on the first GIF encode.
                .define("MAGPIE_HAVE_IMAGEQUANT", to: "1"),
            ],
            linkerSettings: [
                .linkedLibrary("turbojpeg"), .linkedLibrary("jpeg"), .linkedLibrary("png16"),
                .linkedLibrary("gif"), .linkedLibrary("webpdemux"), .linkedLibrary("webpmux"), .linkedLibrary("webp"),
                .linkedLibrary("dl"),
                .linkedLibrary("z"), .linkedLibrary("lcms2"), .linkedLibrary("m"),
            ]
        ),
        // The system's SQLite (Debian's libsqlite3-dev): the disk cache's index, which holds its
        // small entries too. Only Sources/Magpie/Cache/Store/SQLite.swift imports it.
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // System, Core (the only Swift that imports CMagpie), Image and Processing.
        .target(name: "MagpieImage", dependencies: ["CMagpie"], path: "Sources/MagpieImage"),
        .target(
            name: "Magpie",
            dependencies: [
                "MagpieImage", "CSQLite", .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Sources/Magpie"),
        // A loopback HTTP server with scripted answers: `magpie demo` serves from it, the tests
        // script failures with it.
        .target(
            name: "MagpieLoopback",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Sources/MagpieLoopback"),
        .executableTarget(
            name: "magpie",
            dependencies: [
                "Magpie", "MagpieLoopback", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/magpie",
            exclude: ["magpie.exports"],
            linkerSettings: releaseExecutableLinking
        ),
        .target(
            name: "MagpieServer",
            dependencies: [
                "Magpie", .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // The OTLP exporter's POSTs (Magpie already builds both).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/MagpieServer"),
        .target(
            name: "MagpieHummingbird",
            dependencies: [
                "MagpieServer", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            path: "Sources/MagpieHummingbird"),
        .executableTarget(
            name: "magpie-server",
            dependencies: [
                "MagpieServer", "MagpieHummingbird", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTLP"])),
            ],
            path: "Sources/magpie-server",
            linkerSettings: releaseExecutableLinking),
        .executableTarget(name: "magpie-cache-bench", dependencies: ["Magpie"], path: "Benchmarks/CacheBench"),
        .executableTarget(name: "magpie-decode-bench", dependencies: ["MagpieImage"], path: "Benchmarks/DecodeBench"),
        .executableTarget(name: "magpie-disk-cache-bench", dependencies: ["Magpie"], path: "Benchmarks/DiskCacheBench"),
        .executableTarget(
            name: "magpie-hb-floor",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/HummingbirdFloor"),
        .executableTarget(
            name: "magpie-trace-bench",
            dependencies: ["Magpie", "MagpieServer", .product(name: "Tracing", package: "swift-distributed-tracing")],
            path: "Benchmarks/TraceBench"),
        .executableTarget(
            name: "magpie-net-bench",
            dependencies: [
                "Magpie", "MagpieLoopback", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Benchmarks/NetBench"),
        // Test support: payloads shared by the tests and the helper process they run.
        .target(name: "MagpieTestSupport", dependencies: ["Magpie", "MagpieLoopback"], path: "Tests/Support"),
        .executableTarget(
            name: "magpie-cache-writer", dependencies: ["Magpie", "MagpieTestSupport"],
            path: "Tests/Helpers/CacheWriter"
        ),
        .testTarget(
            name: "MagpieTests",
            dependencies: [
                "Magpie", "MagpieLoopback", "magpie", "magpie-cache-writer", "MagpieTestSupport", "MagpieServer",
                "magpie-server", .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/MagpieTests"),
        // Concurrency stress tests, apart so CI runs exactly these under ThreadSanitizer.
        .testTarget(
            name: "MagpieStressTests", dependencies: ["Magpie", "MagpieTestSupport"], path: "Tests/MagpieStressTests"),
    ],
    swiftLanguageModes: [.v6]
)

// MAGPIE_STRESS_ONLY=1: the package as scripts/test.sh's ThreadSanitizer build sees it, the stress
// tests and what they link (the C core, MagpieImage, Magpie, the loopback server and the test
// support), so that build compiles no service, Hummingbird, CLI, benchmark or MagpieTests under
// the sanitizer, only what it runs (docs/tests.md has the figures).
if Context.environment["MAGPIE_STRESS_ONLY"] == "1" {
    let kept: Set<String> = [
        "CMagpie", "CSQLite", "MagpieImage", "Magpie", "MagpieLoopback", "MagpieTestSupport", "MagpieStressTests",
    ]
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { !kept.contains($0.name) }
}
