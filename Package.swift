// swift-tools-version:6.0
// popsim takes no package dependencies: Foundation and the standard library only.
import PackageDescription

let package = Package(
    name: "popsim",
    products: [
        .executable(name: "popsim", targets: ["popsim"]),
        .library(name: "PopsimKit", targets: ["PopsimKit"]),
    ],
    targets: [
        .target(name: "PopsimKit"),
        .executableTarget(name: "popsim", dependencies: ["PopsimKit"]),
        .target(name: "PopsimTestSupport", dependencies: ["PopsimKit"]),
        .testTarget(
            name: "PopsimKitTests",
            dependencies: ["PopsimKit", "PopsimTestSupport"]
        ),
        .testTarget(
            name: "PopsimCLITests",
            dependencies: ["PopsimKit", "PopsimTestSupport", "popsim"]
        ),
    ]
)
