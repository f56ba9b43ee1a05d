// swift-tools-version:6.0
// popsim takes no package dependencies: Foundation and the standard library only.
//
// Four targets, one per layer (docs/architecture.md); the compiler enforces the direction:
// PopsimCore (model, JSON, loading, engine, strategies) ← PopsimReports (pure functions of a run)
// ← PopsimCLI (arguments, console, files, commands, exit codes) ← popsim (the thin executable).
// PopsimSystem is the one target that calls the C library (Glibc, Musl or Darwin); the CLI and the
// executable reach the system only through it.
import PackageDescription

let package = Package(
    name: "popsim",
    // macOS 13: nothing popsim uses is newer (`PlatformAvailabilityTests` holds every source to
    // it against the toolchain's own availability attributes); `Synchronization` (macOS 15) is
    // not used for that reason. Linux needs no declaration.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "popsim", targets: ["popsim"]),
        .library(name: "PopsimCore", targets: ["PopsimCore"]),
        .library(name: "PopsimReports", targets: ["PopsimReports"]),
        .library(name: "PopsimCLI", targets: ["PopsimCLI"]),
        // `swift package popsim …` in a package that depends on this one (docs/install.md).
        .plugin(name: "PopsimPlugin", targets: ["PopsimPlugin"]),
        .plugin(name: "PopsimCheckPlugin", targets: ["PopsimCheckPlugin"]),
    ],
    targets: [
        // The core uses `System.Locked` (a mutex) of PopsimSystem, and nothing else of it.
        .target(name: "PopsimCore", dependencies: ["PopsimSystem"]),
        .target(name: "PopsimReports", dependencies: ["PopsimCore"]),
        .target(name: "PopsimSystem"),
        .target(name: "PopsimCLI", dependencies: ["PopsimCore", "PopsimReports", "PopsimSystem"]),
        .executableTarget(name: "popsim", dependencies: ["PopsimCLI", "PopsimCore", "PopsimSystem"]),
        .plugin(
            name: "PopsimPlugin",
            capability: .command(
                intent: .custom(verb: "popsim", description: "Run popsim in this package's folder (check, run, explore, …)."),
                permissions: [.writeToPackageDirectory(reason: "popsim writes goldens (check --update) and reports (--out) where you say.")]
            ),
            dependencies: ["popsim"]
        ),
        // `check` without write permission: CI checks an app's goldens without
        // --allow-writing-to-package-directory (docs/install.md).
        .plugin(
            name: "PopsimCheckPlugin",
            capability: .command(intent: .custom(verb: "popsim-check", description: "Check this package's popsim goldens (read-only: no --update).")),
            dependencies: ["popsim"]
        ),
        .target(name: "PopsimTestSupport", dependencies: ["PopsimCore", "PopsimReports", "PopsimCLI", "PopsimSystem"]),
        // Tests by the layer they test (end-to-end ones in PopsimCLITests); each may use the layers
        // above it for files and fixtures.
        .testTarget(
            name: "PopsimCoreTests",
            dependencies: ["PopsimCore", "PopsimReports", "PopsimCLI", "PopsimSystem", "PopsimTestSupport"]
        ),
        .testTarget(
            name: "PopsimReportsTests",
            dependencies: ["PopsimCore", "PopsimReports", "PopsimCLI", "PopsimTestSupport"]
        ),
        .testTarget(
            name: "PopsimCLITests",
            dependencies: ["PopsimCore", "PopsimReports", "PopsimCLI", "PopsimSystem", "PopsimTestSupport", "popsim"]
        ),
    ]
)
