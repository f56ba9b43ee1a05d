import Foundation
import PackagePlugin

/// `swift package popsim-check …` in an app's own package: `popsim check` with the arguments as
/// given, in the package's folder, and no permission to write (swift-format splits `format` and
/// `lint` the same way): a CI job or a developer checks the goldens without
/// `--allow-writing-to-package-directory`. Recording goldens (`--update`) or writing a report
/// (`--junit`, `--out`) is the `popsim` verb's, which may write; this one says so and stops.
@main
struct PopsimCheckPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if let writing = arguments.first(where: { ["--update", "--junit", "--out"].contains($0) || $0.hasPrefix("--junit=") || $0.hasPrefix("--out=") }) {
            FileHandle.standardError.write(Data(("popsim-check: \(writing) writes into the package; run it as "
                + "'swift package --allow-writing-to-package-directory popsim check …'\n").utf8))
            exit(2)
        }
        let tool = try context.tool(named: "popsim")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["check"] + arguments
        process.currentDirectoryURL = context.package.directoryURL
        // check's hints name the plug-in's form (`--update` through the verb that may write).
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["POPSIM_INVOCATION": "swift package --allow-writing-to-package-directory popsim"]) { $1 }
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .exit, process.terminationStatus == 0 { return }
        exit(process.terminationReason == .exit ? process.terminationStatus : 70)
    }
}
