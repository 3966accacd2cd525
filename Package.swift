// swift-tools-version:6.0
import PackageDescription

// The product's modules are optimised in debug builds too (tests stay unoptimised): the tests
// drive the debug liveryd and livery as processes and call the cascade, the compiler and the
// quantizer directly, and unoptimised they spend most of the suite's time there.
// `-enable-testing` still holds, so `@testable import` works.
let optimised: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Livery",
    // Synchronization's `Mutex` needs macOS 15; on Linux any Swift 6 toolchain has it.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "liveryd", targets: ["liveryd"]),
        // The client's front: `get`, `set` and `toggle` without Foundation, every other command
        // line handed to `livery-cli` beside it (`LiveryFront`).
        .executable(name: "livery", targets: ["livery"]),
        // The full client, every command (`LiveryCLI`).
        .executable(name: "livery-cli", targets: ["livery-cli"]),
        // livery's SVG renderer, run by it for each SVG image with a deadline (`SVGRenderer`).
        .executable(name: "livery-svg", targets: ["livery-svg"]),
        // liveryd's palette picture decoder, run by it for each picture with a deadline and
        // limits (`PictureDecoder`).
        .executable(name: "livery-picture", targets: ["livery-picture"]),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        // Cairo for pictures, with gdk-pixbuf (PNG, JPEG) and librsvg (SVG) for their images.
        .systemLibrary(
            name: "CCairo", pkgConfig: "librsvg-2.0",
            providers: [.apt(["libcairo2-dev", "librsvg2-dev"])]),
        .systemLibrary(
            name: "CGtk", pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]),
        .target(
            name: "LiveryCore", dependencies: ["CYAML", "LiveryText", "Mustache"], swiftSettings: optimised),
        // Text made safe for a terminal or a log, without Foundation (LiveryCore's and the front's).
        .target(name: "LiveryText", swiftSettings: optimised),
        // A Mustache renderer (spec v1.4.2) that knows nothing of themes.
        .target(name: "Mustache", swiftSettings: optimised),
        .target(name: "LiveryDBus", dependencies: ["CDBus"], swiftSettings: optimised),
        // The bus contract shared by daemon and client: the table of members, the typed replies
        // and the client half of Watch; the interface XML is documentation and the reference
        // the table and the daemon's exported interface are checked against.
        .target(
            name: "LiveryAPI", dependencies: ["LiveryCore", "LiveryDBus"],
            exclude: ["org.livery.Livery1.xml"], swiftSettings: optimised),
        // What Livery does, knowing nothing of the bus (`ServiceImportTests` checks it).
        .target(name: "LiveryService", dependencies: ["LiveryCore", "Mustache"], swiftSettings: optimised),
        // The bus adapters of the service: org.livery.Livery1, the portal backend, darkman's interface.
        .target(
            name: "LiveryDaemon",
            dependencies: ["LiveryService", "LiveryAPI", "LiveryCore", "LiveryDBus"],
            swiftSettings: optimised),
        // The sample screen drawn with a theme's values (`livery preview`, `livery gallery`).
        .target(name: "LiveryPreview", dependencies: ["LiveryCore", "CCairo"], swiftSettings: optimised),
        .target(
            name: "LiveryCLI",
            dependencies: [
                "LiveryAPI", "LiveryCore", "LiveryDBus", "LiveryFront", "LiveryPreview", "Mustache",
            ],
            swiftSettings: optimised),
        // `livery`'s start: `get`, `set ID` and `toggle` over one libdbus call, without Foundation,
        // and the texts both halves of the client print for a failed call.
        .target(name: "LiveryFront", dependencies: ["CDBus", "LiveryText"], swiftSettings: optimised),
        // The GTK 4 window of the sample screen (`make demo`), a client of Watch and Changed.
        .target(
            name: "LiveryDemo", dependencies: ["CGtk", "LiveryAPI", "LiveryCore", "LiveryDBus"],
            swiftSettings: optimised),
        .executableTarget(name: "liveryd", dependencies: ["LiveryDaemon"], swiftSettings: optimised),
        // The Swift standard library linked in (`-static-stdlib`): the front loads libdbus and the
        // C and C++ runtimes only, and no Swift library's symbols are bound at start. A release
        // build drops the symbol tables (`--strip-all`, a third of the file; nothing reads them
        // at run time).
        .executableTarget(
            name: "livery", dependencies: ["LiveryFront", "LiveryText"], swiftSettings: optimised,
            linkerSettings: [
                .unsafeFlags(["-static-stdlib"]),
                .unsafeFlags(["-Xlinker", "--strip-all"], .when(configuration: .release)),
            ]),
        .executableTarget(
            name: "livery-cli", dependencies: ["LiveryCLI", "LiveryText"], swiftSettings: optimised),
        // One SVG image drawn per process (`SVGRenderer`): librsvg and Glibc only, no Foundation.
        .executableTarget(name: "livery-svg", dependencies: ["CCairo"], swiftSettings: optimised),
        // One palette picture decoded and sampled per process (`PictureDecoder`).
        .executableTarget(
            name: "livery-picture", dependencies: ["LiveryCore", "LiveryPreview"], swiftSettings: optimised),
        .executableTarget(
            name: "livery-bench", dependencies: ["LiveryAPI", "LiveryCore", "LiveryDBus"],
            swiftSettings: optimised),
        .executableTarget(name: "livery-demo", dependencies: ["LiveryDemo"], swiftSettings: optimised),
        .testTarget(
            name: "LiveryCoreTests", dependencies: ["LiveryCore"],
            exclude: ["Formats/expected_scheme_colours.py"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(name: "LiveryPreviewTests", dependencies: ["LiveryPreview", "LiveryCore"]),
        .testTarget(name: "LiveryDBusTests", dependencies: ["LiveryDBus"]),
        .testTarget(name: "LiveryAPITests", dependencies: ["LiveryAPI", "LiveryDBus"]),
        .testTarget(
            name: "LiveryDemoTests", dependencies: ["LiveryDemo", "LiveryAPI", "LiveryCore", "LiveryDBus"]),
        .testTarget(
            name: "LiveryDaemonTests",
            dependencies: [
                "LiveryDaemon", "LiveryService", "LiveryAPI", "LiveryCore", "LiveryDBus", "Mustache",
            ]),
        .testTarget(
            name: "LiveryCLITests",
            dependencies: ["LiveryCLI", "LiveryAPI", "LiveryCore", "LiveryDBus", "LiveryFront", "Mustache"]),
        .testTarget(
            name: "LiveryFrontTests", dependencies: ["LiveryFront", "LiveryCLI", "LiveryAPI", "LiveryDBus"]),
        // Runs the built liveryd and livery as processes; imports no target.
        .testTarget(name: "EndToEndTests"),
    ],
    swiftLanguageModes: [.v6]
)
