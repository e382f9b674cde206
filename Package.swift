// swift-tools-version: 6.0
import PackageDescription

import class Foundation.ProcessInfo

let package = Package(
    name: "feedsite",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "feedsite", targets: ["feedsite"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // cmark-gfm and its GFM extensions (tables, strikethrough), from Debian's libcmark-gfm-dev.
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // Google's gumbo, a spec-compliant HTML5 parser, from Debian's libgumbo-dev.
        .systemLibrary(
            name: "CGumbo",
            pkgConfig: "gumbo",
            providers: [.apt(["libgumbo-dev"])]
        ),
        // Gumbo with a memory and time budget, freed without recursion (C: it must longjmp out of gumbo).
        .target(
            name: "CGumboBounded", dependencies: ["CGumbo"],
            cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),
        // libxml2's SAX2 parser, read directly on UTF-8 bytes (FeedsiteParse/XMLEventReader.swift), from Debian's libxml2-dev.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // ICU's regular expressions with a bound on their work (C: ICU renames its functions per
        // version, which only its own headers resolve). Debian's libicu-dev, which libxml2 links too.
        .target(
            name: "CICURegex",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        // The `exclude:`/`include:` patterns' search. The only target that sees ICU directly.
        .target(name: "FeedsitePattern", dependencies: ["CICURegex"]),
        // libvips, opened with dlopen at run time rather than linked: `make dist` builds a stand-alone
        // static binary, Debian ships no static libvips, and the shared libvips42 pulls in ~100 libraries.
        .target(name: "CVipsLoader"),
        // Feed avatars: an icon → at most 64×64 px and 16 KB (WebP), through libvips. The only target that sees it.
        .target(name: "FeedsiteImage", dependencies: ["CVipsLoader"]),
        // zlib, from Debian's zlib1g-dev.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // A response's Content-Encoding (gzip, deflate) undone through zlib, the way browsers read
        // it: every gzip member, raw deflate, a cut-off body as far as it goes. The only target that sees zlib.
        .target(name: "FeedsiteCompression", dependencies: ["FeedsiteShared", "CZlib"]),
        // What more than one stage uses: the calendar, http(s) URLs, byte scans, HTML entities, compression
        // headers, concurrentMap.
        .target(name: "FeedsiteShared"),
        // Parse: feed bytes → `Feed`. The only target that sees libxml2.
        .target(name: "FeedsiteParse", dependencies: ["FeedsiteShared", "CLibXML2"]),
        // Sanitise: an item's HTML or Markdown → `SanitisedHTML`. The only target that sees gumbo and cmark-gfm.
        .target(
            name: "FeedsiteSanitise",
            dependencies: ["FeedsiteShared", "CGumbo", "CGumboBounded", "CCmarkGFM"],
            // Optimised in debug builds too: the test suite sanitises hostile items megabytes large
            // and 100,000 levels deep, minutes of work each without optimisation, on the cores
            // every other test waits for.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // The view models' template glue (`TemplateKey`, each view type's `value(_:at:)`,
        // `TemplateSchema.viewTypes`), generated at build time from `Render/PageViews*.swift` by the
        // TemplateGlue plugin; its reader and writer are TemplateGlueCore. Kept out of Sources/: they
        // are build tools, not part of feedsite.
        .target(name: "TemplateGlueCore", path: "Plugins/TemplateGlueCore"),
        .executableTarget(
            name: "TemplateGlueGenerator", dependencies: ["TemplateGlueCore"], path: "Plugins/TemplateGlueGenerator"),
        .plugin(name: "TemplateGlue", capability: .buildTool(), dependencies: ["TemplateGlueGenerator"]),
        // Config, Fetch, Pipeline, Render, Write: every stage but Parse and Sanitise, and no C library.
        .target(
            name: "FeedsiteKit",
            dependencies: [
                "FeedsiteShared",
                "FeedsiteParse",
                "FeedsiteSanitise",
                "FeedsitePattern",
                "FeedsiteImage",
                "FeedsiteCompression",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // NIOConnectionError (DNS, refused, connect timeout), to word fetch failures.
                .product(name: "NIOPosix", package: "swift-nio"),
                // The writer's cold file work (removing trees, copying, listing, moving folders).
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                // The state download's decompression (`StateDownload`).
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "Yams", package: "Yams"),
            ],
            plugins: ["TemplateGlue"]
        ),
        // The preview server (`feedsite serve`): its own target so the pipeline never imports Hummingbird.
        .target(
            name: "FeedsiteServe",
            dependencies: [
                "FeedsiteKit",
                "FeedsiteShared",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),
        .executableTarget(
            name: "feedsite",
            dependencies: [
                "FeedsiteKit",
                "FeedsiteParse",
                "FeedsiteSanitise",
                "FeedsiteServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // mimalloc (Debian's libmimalloc-dev) replaces glibc's malloc for the whole process: a
            // cold build allocates millions of short-lived strings and arrays on both cores, and
            // glibc's malloc/free were 14 % of its CPU (Benchmarks/RESULTS.md). Linked by the
            // executable only, so it interposes malloc before libc does.
            linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "FeedsiteKitTests",
            dependencies: [
                // cmark's plain-text renderer, the reference `PlainText` is tested against.
                "CCmarkGFM",
                "FeedsiteKit",
                "FeedsiteCompression",
                "FeedsiteImage",
                "FeedsiteParse",
                "FeedsiteSanitise",
                "FeedsiteShared",
                "FeedsitePattern",
                "feedsite",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Reads the Mustache spec's YAML files (Render/MustacheSpecTests.swift).
                .product(name: "Yams", package: "Yams"),
            ],
            // Read by path at test time (see Support/Fixtures.swift), not bundled as resources.
            exclude: ["Fixtures", "Snapshots"]
        ),
        .testTarget(name: "TemplateGlueTests", dependencies: ["TemplateGlueCore", "TemplateGlueGenerator"]),
        .testTarget(
            name: "FeedsiteServeTests",
            dependencies: [
                "FeedsiteKit",
                "FeedsiteSanitise",
                "FeedsiteServe",
                "feedsite",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Stops the test server gracefully, as SIGINT does (ServeFixture.swift).
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
    ]
)

// libFuzzer targets (Fuzz/README.md): only with FEEDSITE_FUZZ=1, as `make fuzz` builds them (with
// `-sanitize=fuzzer,address` into its own `.build-fuzz`), so `swift build` never sees them.
if ProcessInfo.processInfo.environment["FEEDSITE_FUZZ"] == "1" {
    package.targets.append(.target(name: "FuzzerDriver", path: "Fuzz/FuzzerDriver"))
    for name in [
        "FuzzFeedParser", "FuzzSanitiser", "FuzzStateDecoder", "FuzzConfiguration", "FuzzIconFile", "FuzzSubsetParser",
        "FuzzTemplate", "FuzzDecompression", "FuzzJSONFeedBudget",
    ] {
        package.targets.append(
            .executableTarget(
                name: name,
                dependencies: [
                    "FeedsiteKit", "FeedsiteParse", "FeedsiteSanitise", "FeedsiteShared", "FeedsiteImage",
                    "FeedsiteCompression", "FuzzerDriver",
                ],
                path: "Fuzz/\(name)"))
    }
}
