// swift-tools-version:6.0
// An app's own package that uses popsim through its SwiftPM plug-in: from this folder,
//   swift package popsim-check Popups/                     (read-only)
//   swift package --allow-writing-to-package-directory popsim check Popups/ --update
// (both run in CI: `.github/workflows/ci.yml`, job `swiftpm-plugin`).
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [
        // An app names popsim's repository and a version —
        //   .package(url: "https://github.com/OWNER/popsim", from: "0.1.0"),
        // this example uses the checkout it sits in.
        .package(name: "popsim", path: "../.."),
    ],
    targets: [
        .target(name: "App"),
    ]
)
