// swift-tools-version: 6.0
import PackageDescription

// Modules point one way, by dependency weight:
//   CadenceCore, CadencePacing, CadenceMarkdown   pure logic, no I/O, no dependencies
//   CadenceStore                                   conversations in SQLite (GRDB)       → Core
//   CadenceUI                                      UI-agnostic view models              → Core, Pacing, Markdown, Store
//   CadenceTerminal                                full-screen terminal UI              → UI
//   CadenceEngine                                  answer engines (corpus retrieval in FTS5, page text) → Core, Markdown, GRDB
//   CadenceClient                                  AsyncHTTPClient transports          → Core
//   CadenceSearch                                  search sources (corpus, web, papers), response cache → Core, Engine, Client, GRDB
//   CadenceResearch                                model-driven deep research          → Core, Markdown, Engine, Client, Search, Web
//   CadenceWeb                                     guarded page fetching               → Engine
//   CadenceServer                                  Hummingbird reference server        → Core, Engine, Client
//   CadenceOracles                                 properties the fuzzers and regression tests check
//                                                  → Core, Pacing, Markdown, Terminal
//   cadence                                        the command                          → everything
//
// Every target builds in the same strict mode (the loop at the end adds it), and each product of a
// dependency is named once here, so that targets list what they use and nothing else.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The package of every product a target uses, so that a target names just the product, `.product("GRDB")`.
let packageOfProduct = [
    "AsyncHTTPClient": "async-http-client", "HummingbirdWSClient": "hummingbird-websocket", "Logging": "swift-log",
    "Hummingbird": "hummingbird", "HummingbirdWebSocket": "hummingbird-websocket",
    "ServiceLifecycle": "swift-service-lifecycle", "HTTPTypes": "swift-http-types", "PostgresNIO": "postgres-nio",
    "Metrics": "swift-metrics", "Prometheus": "swift-prometheus", "ArgumentParser": "swift-argument-parser",
    "NIOConcurrencyHelpers": "swift-nio", "NIOPosix": "swift-nio", "NIOCore": "swift-nio", "NIOHTTP1": "swift-nio",
    "NIOEmbedded": "swift-nio", "HummingbirdCore": "hummingbird", "CoreMetrics": "swift-metrics",
    "GRDB": "GRDB.swift", "JWTKit": "jwt-kit",
    "CryptoExtras": "swift-crypto",
]

extension Target.Dependency {
    static func product(_ name: String) -> Self {
        guard let package = packageOfProduct[name] else { fatalError("add \(name)'s package to packageOfProduct") }
        return .product(name: name, package: package)
    }
}

/// The library modules, in the order of the layout above.
let libraries = [
    "CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceStore", "CadenceUI", "CadenceTerminal", "CadenceEngine",
    "CadenceClient", "CadenceSearch", "CadenceResearch", "CadenceServer", "CadenceTesting", "CadenceOracles", "CadenceWeb",
]

let package = Package(
    name: "Cadence",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    // Every library module is a product of its own name.
    products: libraries.map { .library(name: $0, targets: [$0]) } + [
        .executable(name: "cadence", targets: ["cadence"])
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.1.0"),
        // For the tests' RSA keys (CryptoExtras); already in the graph through jwt-kit.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
        // `swift package generate-documentation`: the DocC catalogs of every library module (.ci/run builds them).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "CadenceCore"),
        .target(name: "CadencePacing"),
        .target(name: "CadenceMarkdown"),
        .target(name: "CadenceStore", dependencies: ["CadenceCore", .product("GRDB")]),
        .target(name: "CadenceUI", dependencies: ["CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceStore"]),
        .target(
            name: "CadenceTerminal", dependencies: ["CadenceCore", "CadenceMarkdown", "CadenceUI"]),
        .target(
            name: "CadenceEngine", dependencies: ["CadenceCore", "CadenceMarkdown", .product("GRDB")],
            resources: [.copy("Corpus")]),
        .target(
            name: "CadenceClient",
            dependencies: [
                "CadenceCore", .product("AsyncHTTPClient"), .product("HummingbirdWSClient"), .product("Logging"),
                .product("NIOConcurrencyHelpers"), .product("NIOCore"), .product("NIOPosix"),
            ]),
        .target(
            name: "CadenceSearch",
            dependencies: [
                "CadenceCore", "CadenceEngine", "CadenceClient", .product("AsyncHTTPClient"), .product("NIOCore"),
                .product("NIOHTTP1"), .product("NIOConcurrencyHelpers"), .product("GRDB"),
            ]),
        .target(
            name: "CadenceResearch",
            dependencies: ["CadenceCore", "CadenceMarkdown", "CadenceEngine", "CadenceClient", "CadenceSearch", "CadenceWeb"]),
        .target(
            name: "CadenceWeb",
            dependencies: [
                "CadenceEngine", .product("AsyncHTTPClient"), .product("NIOCore"), .product("NIOHTTP1"),
                .product("NIOPosix"), .product("NIOConcurrencyHelpers"),
            ]),
        .target(
            name: "CadenceServer",
            dependencies: [
                "CadenceCore", "CadenceEngine", "CadenceClient", .product("Hummingbird"), .product("HummingbirdWebSocket"),
                .product("ServiceLifecycle"), .product("HTTPTypes"), .product("Logging"), .product("PostgresNIO"),
                .product("Metrics"), .product("Prometheus"), .product("NIOEmbedded"),
                // Imported directly too, so named, not left to arrive through the products above.
                .product("HummingbirdCore"), .product("CoreMetrics"), .product("NIOCore"), .product("NIOPosix"),
                .product("NIOHTTP1"), .product("NIOConcurrencyHelpers"), .product("JWTKit"),
                .product("AsyncHTTPClient"),
            ]),
        .target(
            name: "CadenceTesting",
            dependencies: [
                "CadenceCore", .product("Hummingbird"), .product("ServiceLifecycle"), .product("HTTPTypes"),
            ]),
        .target(
            name: "CadenceOracles",
            dependencies: ["CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceTerminal"]),
        .executableTarget(
            name: "cadence",
            dependencies: [
                "CadenceCore", "CadenceClient", "CadenceServer", "CadenceEngine", "CadencePacing", "CadenceMarkdown",
                "CadenceStore", "CadenceUI", "CadenceTerminal", "CadenceResearch", "CadenceWeb", "CadenceSearch",
                .product("ArgumentParser"), .product("NIOConcurrencyHelpers"),
            ]),
        .target(
            name: "CadenceBenchmarkKit",
            dependencies: ["CadenceCore", "CadenceEngine", "CadenceServer", .product("NIOConcurrencyHelpers")],
            path: "Benchmarks/CadenceBenchmarkKit"),
        .executableTarget(
            name: "CadenceBenchmarks",
            dependencies: [
                "CadenceCore", "CadenceMarkdown", "CadenceResearch", "CadenceClient", "CadenceUI", "CadenceTerminal",
                "CadenceTesting", "CadenceBenchmarkKit", "CadenceServer", "CadenceEngine", .product("AsyncHTTPClient"),
                .product("NIOConcurrencyHelpers"), .product("NIOPosix"), .product("NIOCore"), .product("Hummingbird"),
            ],
            path: "Benchmarks/CadenceBenchmarks"),
        .executableTarget(
            name: "CadenceSoak", dependencies: ["CadenceCore", "CadenceClient", "CadenceTesting"],
            path: "Benchmarks/CadenceSoak"),
        .executableTarget(
            name: "CadenceFanout",
            dependencies: [
                "CadenceCore", "CadenceTesting", "CadenceBenchmarkKit", .product("NIOConcurrencyHelpers"),
                .product("NIOCore"), .product("NIOPosix"), .product("NIOHTTP1"), .product("Hummingbird"),
                .product("HTTPTypes"),
            ],
            path: "Benchmarks/CadenceFanout"),
        .testTarget(
            name: "CadenceCoreTests", dependencies: ["CadenceCore", "CadenceTesting", "CadenceOracles", "CadenceTestFixtures"]),
        .testTarget(
            name: "CadenceStoreTests",
            dependencies: ["CadenceStore", "CadenceCore", "CadenceTesting", .product("GRDB")]),
        .testTarget(name: "CadenceEngineTests", dependencies: ["CadenceEngine"]),
        .testTarget(
            name: "CadenceWebTests",
            dependencies: [
                "CadenceWeb", "CadenceEngine", "CadenceTesting", .product("Hummingbird"), .product("NIOCore"),
                .product("NIOConcurrencyHelpers"),
            ]),
        .testTarget(
            name: "CadenceResearchTests",
            dependencies: [
                "CadenceResearch", "CadenceEngine", "CadenceCore", "CadenceSearch", "CadenceWeb", "CadenceTesting",
                .product("Hummingbird"), .product("NIOConcurrencyHelpers"),
            ]),
        .testTarget(
            name: "CadenceSearchTests",
            dependencies: [
                "CadenceSearch", "CadenceEngine", "CadenceCore", "CadenceTesting", .product("Hummingbird"),
                .product("HTTPTypes"), .product("NIOConcurrencyHelpers"),
            ]),
        .testTarget(
            name: "CadenceUITests",
            dependencies: [
                "CadenceUI", "CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceStore", "CadenceTesting",
            ]),
        .testTarget(
            name: "CadenceTerminalTests",
            dependencies: [
                "CadenceTerminal", "CadenceUI", "CadenceCore", "CadencePacing", "CadenceMarkdown", "CadenceTesting",
            ]),
        .testTarget(name: "CadencePacingTests", dependencies: ["CadencePacing", "CadenceCore"]),
        .testTarget(name: "CadenceServerTests", dependencies: ["CadenceServer", "CadenceCore"]),
        .testTarget(
            name: "CadenceMarkdownTests", dependencies: ["CadenceMarkdown", "CadenceTesting"], exclude: ["Fixtures"]),
        // What the unit tests and the integration tests share: the captured provider streams beside
        // the repository and their loopback replays, provider streams written out event by event, a
        // deadline for every wait, the updates of one answer.
        .target(
            name: "CadenceTestFixtures",
            dependencies: ["CadenceCore", "CadenceClient", "CadenceTesting", .product("NIOConcurrencyHelpers")],
            path: "Tests/CadenceTestFixtures"),
        .testTarget(
            name: "CadenceClientTests",
            dependencies: [
                "CadenceClient", "CadenceCore", "CadenceTesting", "CadenceTestFixtures", .product("NIOConcurrencyHelpers"),
            ]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "CadenceTestFixtures",
                "CadenceCore", "CadenceClient", "CadenceServer", "CadenceEngine", "CadenceTesting", "CadenceStore",
                "CadenceUI", "CadenceResearch", "CadenceSearch", "CadenceWeb", .product("GRDB"), .product("Hummingbird"),
                .product("HummingbirdWSClient"), .product("HummingbirdWebSocket"), .product("NIOEmbedded"),
                .product("JWTKit"), .product("CryptoExtras"), .product("PostgresNIO"),
            ]),
    ]
)

// The strict mode of every target, in one place.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strict
}
