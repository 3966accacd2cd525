// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Livery",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "liveryd", targets: ["liveryd"]),
        .executable(name: "livery", targets: ["livery"]),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .target(name: "LiveryCore", dependencies: ["CYAML"]),
        .target(name: "LiveryDBus", dependencies: ["CDBus"]),
        .target(name: "LiveryDaemon", dependencies: ["LiveryCore", "LiveryDBus", "CMalloc"]),
        .target(name: "LiveryCLI", dependencies: ["LiveryCore", "LiveryDBus", "LiveryDaemon"]),
        .executableTarget(name: "liveryd", dependencies: ["LiveryDaemon"]),
        .executableTarget(name: "livery", dependencies: ["LiveryCLI"]),
        .executableTarget(name: "livery-bench", dependencies: ["LiveryCore", "LiveryDBus", "LiveryDaemon"]),
        .testTarget(name: "LiveryCoreTests", dependencies: ["LiveryCore"]),
        .testTarget(name: "LiveryDBusTests", dependencies: ["LiveryDBus"]),
        .testTarget(name: "LiveryDaemonTests", dependencies: ["LiveryDaemon", "LiveryCore", "LiveryDBus"]),
        .testTarget(name: "EndToEndTests", dependencies: ["LiveryCore"]),
    ],
    swiftLanguageModes: [.v6]
)
