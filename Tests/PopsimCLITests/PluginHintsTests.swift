import Foundation
import Testing
import PopsimTestSupport

/// Run through the SwiftPM plug-in (`POPSIM_INVOCATION`, which both plug-ins set), a failing
/// check's hints name the plug-in's form, not a `popsim` its user may not have (issue 66,
/// cause 27).
@Suite("check: hints in the plug-in's form")
struct PluginHintsTests {
    @Test func aCheckRunThroughThePlugInNamesThePlugIn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("s.json").path
        try #"{"popsim": 1, "popups": {"a": {"duration": 1000}}, "events": [{"at": 0, "enqueue": "a"}]}"#
            .write(toFile: scenario, atomically: true, encoding: .utf8)
        let form = "swift package --allow-writing-to-package-directory popsim"
        let through = popsimInProcess(["check", scenario, "--strategy", "fg"], environment: ["POPSIM_INVOCATION": form])
        #expect(through.status == 1, "\(through.stderr)")
        #expect(through.stdout.contains("record one with '\(form) check \(scenario) --strategy fg --update'"), "\(through.stdout)")
        #expect(through.stdout.contains("\n  \(form) check \(scenario) --strategy fg --update\n"), "\(through.stdout)")
        let plain = popsimInProcess(["check", scenario, "--strategy", "fg"])
        #expect(plain.stdout.contains("record one with 'popsim check \(scenario) --strategy fg --update'"), "\(plain.stdout)")
        // The plug-in's source says what it sets.
        for plugin in ["Plugins/PopsimPlugin/PopsimPlugin.swift", "Plugins/PopsimCheckPlugin/PopsimCheckPlugin.swift"] {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(plugin), encoding: .utf8)
            #expect(text.contains(#"["POPSIM_INVOCATION": "\#(form)"]"#), "\(plugin)")
        }
    }
}
