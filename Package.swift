// swift-tools-version:6.0
// popsim takes no package dependencies: Foundation and the standard library only.
//
// Four targets, one per layer (docs/architecture.md); the compiler enforces the direction:
// PopsimCore (model, JSON, loading, engine, strategies) ← PopsimReports (pure functions of a run)
// ← PopsimCLI (arguments, console, files, commands, exit codes) ← popsim (the thin executable).
import PackageDescription

let package = Package(
    name: "popsim",
    products: [
        .executable(name: "popsim", targets: ["popsim"]),
        .library(name: "PopsimCore", targets: ["PopsimCore"]),
        .library(name: "PopsimReports", targets: ["PopsimReports"]),
        .library(name: "PopsimCLI", targets: ["PopsimCLI"]),
    ],
    targets: [
        .target(name: "PopsimCore"),
        .target(name: "PopsimReports", dependencies: ["PopsimCore"]),
        .target(name: "PopsimCLI", dependencies: ["PopsimCore", "PopsimReports"]),
        .executableTarget(name: "popsim", dependencies: ["PopsimCLI"]),
        .target(name: "PopsimTestSupport", dependencies: ["PopsimCore", "PopsimReports", "PopsimCLI"]),
        .testTarget(
            name: "PopsimKitTests",
            dependencies: ["PopsimCore", "PopsimReports", "PopsimCLI", "PopsimTestSupport"]
        ),
        .testTarget(
            name: "PopsimCLITests",
            dependencies: ["PopsimCore", "PopsimReports", "PopsimCLI", "PopsimTestSupport", "popsim"]
        ),
    ]
)
