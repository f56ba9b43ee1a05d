import Foundation
import PackagePlugin

/// `swift package popsim …` in an app's own package: runs popsim (built from this package, or
/// the prebuilt binary an artifact bundle supplies: docs/install.md) in the package's folder with
/// the arguments as given, so that `swift package popsim check Popups/` checks the app's goldens.
///
/// The plug-in declares that it may write to the package (`popsim check --update`, `--out`):
/// SwiftPM then runs it only with `--allow-writing-to-package-directory`, so nothing is written
/// into an app's package unless its developer said so on the command line.
@main
struct PopsimPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "popsim")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        // popsim's hints (`… --update`) name the plug-in's form, which its user has.
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["POPSIM_INVOCATION": "swift package --allow-writing-to-package-directory popsim"]) { $1 }
        try process.run()
        process.waitUntilExit()
        // popsim has said what went wrong on its own standard error; its exit code is kept.
        if process.terminationReason == .exit, process.terminationStatus == 0 { return }
        exit(process.terminationReason == .exit ? process.terminationStatus : 70)
    }
}
