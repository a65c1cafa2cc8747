// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Locify",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "locify", targets: ["locify"]),
        .library(name: "LocifyCore", targets: ["LocifyCore"]),
        .library(name: "LocifyAPI", targets: ["LocifyAPI"]),
        .library(name: "LocifyKit", targets: ["LocifyKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/vapor/leaf.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/leaf-kit.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "LocifyCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA signatures, for the RS256 ID tokens OpenID Connect providers sign.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            resources: [
                .copy("Resources/countries.json"), .copy("Resources/address-formats.json"),
                .copy("Resources/cities1000.tsv"), .copy("Resources/countries-110m.geojson"),
            ]
        ),
        .target(name: "LocifyAPI", dependencies: ["LocifyCore"]),
        // The SDK native apps build on: the API's wire types and Core's rules, a GRDB store, no server parts.
        .target(
            name: "LocifyKit",
            dependencies: [
                "LocifyCore", "LocifyAPI", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Measurements for `locify bench`, kept out of the domain library.
        .target(name: "LocifyBenchmarks", dependencies: ["LocifyCore", "LocifyAPI"]),
        .target(
            name: "LocifyServer",
            dependencies: [
                "LocifyCore",
                "LocifyAPI",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "Leaf", package: "leaf"),
                .product(name: "LeafKit", package: "leaf-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [
                .copy("Resources/Views"), .copy("Resources/Public"), .copy("Resources/OpenAPI"),
                .copy("Resources/ServiceWorker"),
            ]
        ),
        .executableTarget(
            name: "locify",
            dependencies: [
                "LocifyCore",
                "LocifyServer",
                "LocifyBenchmarks",
                "LocifyKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LocifyCoreTests",
            dependencies: [
                "LocifyCore", "LocifyBenchmarks", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .testTarget(name: "LocifyAPITests", dependencies: ["LocifyCore", "LocifyAPI"]),
        .testTarget(
            name: "LocifyServerTests",
            dependencies: [
                "LocifyServer",
                "LocifyCore",
                "LocifyAPI",
                "LocifyKit",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "XCTVapor", package: "vapor"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
    ]
)
