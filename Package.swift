// swift-tools-version: 6.0
import PackageDescription

// Modules point one way, by dependency weight:
//   CadenceCore, CadencePacing, CadenceMarkdown   pure logic, no I/O, no dependencies
//   CadenceStore                                   conversations in SQLite (GRDB)       → Core
//   CadenceUI                                      UI-agnostic view models              → Core, Pacing, Markdown, Store
//   CadenceTerminal                                full-screen terminal UI              → UI
//   CadenceEngine                                  answer engines (corpus retrieval)   → Core
//   CadenceClient                                  AsyncHTTPClient transports          → Core
//   CadenceResearch                                model-driven deep research          → Core, Engine, Client
//   CadenceServer                                  Hummingbird reference server        → Core, Engine
//   CadenceOracles                                 properties the fuzzers and regression tests check
//                                                  → Core, Pacing, Markdown, Terminal
//   cadence                                        the command                          → everything
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Cadence",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "CadenceCore", targets: ["CadenceCore"]),
        .library(name: "CadencePacing", targets: ["CadencePacing"]),
        .library(name: "CadenceMarkdown", targets: ["CadenceMarkdown"]),
        .library(name: "CadenceStore", targets: ["CadenceStore"]),
        .library(name: "CadenceUI", targets: ["CadenceUI"]),
        .library(name: "CadenceTerminal", targets: ["CadenceTerminal"]),
        .library(name: "CadenceClient", targets: ["CadenceClient"]),
        .library(name: "CadenceResearch", targets: ["CadenceResearch"]),
        .library(name: "CadenceServer", targets: ["CadenceServer"]),
        .library(name: "CadenceTesting", targets: ["CadenceTesting"]),
        .library(name: "CadenceOracles", targets: ["CadenceOracles"]),
        .executable(name: "cadence", targets: ["cadence"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        // `swift package generate-documentation`: the DocC catalogs of every library module (.ci/run builds them).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "CadenceCore", swiftSettings: strict),
        .target(name: "CadencePacing", swiftSettings: strict),
        .target(name: "CadenceMarkdown", swiftSettings: strict),
        .target(
            name: "CadenceStore",
            dependencies: ["CadenceCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        .target(
            name: "CadenceUI", dependencies: ["CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceStore"],
            swiftSettings: strict),
        .target(
            name: "CadenceTerminal", dependencies: ["CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceUI"],
            swiftSettings: strict),
        .target(
            name: "CadenceEngine",
            dependencies: ["CadenceCore"],
            resources: [.copy("Corpus")],
            swiftSettings: strict
        ),
        .target(
            name: "CadenceClient",
            dependencies: [
                "CadenceCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CadenceResearch",
            dependencies: ["CadenceCore", "CadenceEngine", "CadenceClient"],
            swiftSettings: strict
        ),
        .target(
            name: "CadenceServer",
            dependencies: [
                "CadenceCore",
                "CadenceEngine",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CadenceTesting",
            dependencies: [
                "CadenceCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CadenceOracles",
            dependencies: ["CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceTerminal"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "cadence",
            dependencies: [
                "CadenceCore", "CadenceClient", "CadenceServer", "CadenceEngine", "CadencePacing", "CadenceMarkdown",
                "CadenceStore", "CadenceUI", "CadenceTerminal", "CadenceResearch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CadenceBenchmarkKit",
            dependencies: [
                "CadenceCore", "CadenceEngine", "CadenceServer",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Benchmarks/CadenceBenchmarkKit",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CadenceBenchmarks",
            dependencies: [
                "CadenceCore", "CadenceMarkdown", "CadenceResearch", "CadenceClient", "CadenceUI", "CadenceTerminal",
                "CadenceTesting",
                "CadenceBenchmarkKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/CadenceBenchmarks",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CadenceSoak",
            dependencies: ["CadenceCore", "CadenceClient", "CadenceTesting"],
            path: "Benchmarks/CadenceSoak",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CadenceFanout",
            dependencies: [
                "CadenceCore", "CadenceTesting", "CadenceBenchmarkKit",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/CadenceFanout",
            swiftSettings: strict
        ),
        .testTarget(
            name: "CadenceCoreTests", dependencies: ["CadenceCore", "CadenceTesting", "CadenceOracles"],
            swiftSettings: strict),
        .testTarget(
            name: "CadenceStoreTests",
            dependencies: [
                "CadenceStore", "CadenceCore", "CadenceTesting", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(name: "CadenceEngineTests", dependencies: ["CadenceEngine"], swiftSettings: strict),
        .testTarget(
            name: "CadenceResearchTests", dependencies: ["CadenceResearch", "CadenceEngine", "CadenceCore"],
            swiftSettings: strict),
        .testTarget(
            name: "CadenceUITests",
            dependencies: ["CadenceUI", "CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceStore", "CadenceTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "CadenceTerminalTests",
            dependencies: [
                "CadenceTerminal", "CadenceUI", "CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceOracles",
                "CadenceTesting",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "CadencePacingTests", dependencies: ["CadencePacing", "CadenceOracles"], swiftSettings: strict),
        .testTarget(
            name: "CadenceMarkdownTests", dependencies: ["CadenceMarkdown", "CadenceTesting", "CadenceOracles"],
            exclude: ["Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "CadenceCore", "CadenceClient", "CadenceServer", "CadenceEngine", "CadenceTesting", "CadenceStore",
                "CadenceUI", "CadenceResearch",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
    ]
)
