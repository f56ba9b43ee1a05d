// Shared helpers for popsim's tests: loading inline scenarios, running them, running the binary.
import Foundation
import PopsimCore
import PopsimReports
import PopsimCLI
import PopsimSystem

/// The package's root folder, found from this source file.
public let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The registry's names as error messages list them (tests derive from the registry, not a copy).
public let knownStrategies = StrategyRegistry.names.joined(separator: ", ")

/// The test tiers (docs/architecture.md, "Tests"): a plain `swift test` runs the quick tier, a
/// few minutes' worth at most; with `CI` set (`.ci/run` sets it) the sweeps run in full.
public enum TestTier {
    public static let full = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "0" } ?? false

    /// `quick` items in the quick tier, `full` in the full one.
    public static func count(quick: Int, full: Int) -> Int { Self.full ? full : quick }
}

/// Loads scenario text as if read from `file`.
public func loadScenario(_ text: String, file: String = "test.json") -> Result<Scenario, LoadErrors> {
    ScenarioLoader.load(Array(text.utf8), file: file, catalog: StrategyRegistry.catalog)
}

/// The one-line messages a scenario text produces (empty when it loads).
public func loadErrors(_ text: String, file: String = "test.json") -> [String] {
    switch loadScenario(text, file: file) {
    case .success: return []
    case .failure(let errors): return errors.errors.map(\.line)
    }
}

/// Errors that tests report as failures with a readable message.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Scenario text from its parts (`popups` and `events` without their brackets), for tests that
/// write a scenario inline; the other parts as JSON.
public func scenarioText(strategy: String, popups: String, events: String, state: String = "{}", options: String = "{}",
                         expect: String = "[]") -> String {
    #"{"popsim": 1, "strategy": "\#(strategy)", "state": \#(state), "options": \#(options), "popups": {\#(popups)}, "#
        + #""events": [\#(events)], "expect": \#(expect)}"#
}

/// Loads and runs scenario text with invariant checks on; returns the plain text timeline.
public func timeline(_ text: String, strategy: String? = nil, options: [String] = []) throws -> String {
    try TimelineText.render(run(text, strategy: strategy, options: options).timeline)
}

/// Loads and runs scenario text with invariant checks on.
public func run(_ text: String, strategy: String? = nil, options: [String] = []) throws -> RunResult {
    let scenario: Scenario
    switch loadScenario(text) {
    case .success(let s): scenario = s
    case .failure(let errors): throw TestFailure(errors.errors.map(\.line).joined(separator: "\n"))
    }
    return try Pipeline.run(scenario, strategy: strategy, overrides: OptionOverride.parseAll(options),
                            limits: RunLimits(checkInvariants: true))
}

/// What a run of the real `popsim` binary printed.
public struct ProcessOutput: Sendable {
    public var stdout: String
    public var stderr: String
    public var status: Int32
}

/// The built `popsim` executable, next to the test bundle.
public func popsimExecutable() -> URL {
    var candidates: [URL] = []
    if let first = CommandLine.arguments.first {
        var dir = URL(fileURLWithPath: first).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("popsim"))
            dir = dir.deletingLastPathComponent()
        }
    }
    candidates.append(Bundle.main.bundleURL.appendingPathComponent("popsim"))
    candidates.append(packageRoot.appendingPathComponent(".build/debug/popsim"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) && !isDirectory($0) }
        ?? packageRoot.appendingPathComponent(".build/debug/popsim")
}

private func isDirectory(_ url: URL) -> Bool {
    var flag: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
}

/// Runs `popsim` with a pinned environment (no colour, fixed width, C locale) in `directory`;
/// `interruptAfter`: sends it SIGINT (Ctrl-C) after so many seconds.
public func runPopsim(_ arguments: [String], in directory: URL = packageRoot, stdin: String? = nil,
                      environment extra: [String: String] = [:], interruptAfter: TimeInterval? = nil) throws -> ProcessOutput {
    var environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C", "COLUMNS": "100", "TERM": "xterm"]
    for (k, v) in extra { environment[k] = v }
    return try runProcess(popsimExecutable(), arguments, in: directory, stdin: stdin, environment: environment, interruptAfter: interruptAfter)
}

/// Runs `executable` in `directory` with exactly `environment` (nil: popsim's tests' own),
/// `stdin` written to it, SIGINT after `interruptAfter` seconds if given, both outputs read whole.
public func runProcess(_ executable: URL, _ arguments: [String], in directory: URL, stdin: String? = nil,
                       environment: [String: String]? = nil, interruptAfter: TimeInterval? = nil) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    if let interruptAfter {
        Thread.sleep(forTimeInterval: interruptAfter)
        process.interrupt()
    }
    // Both pipes are drained at once: a process that fills one while the other is read would block.
    let errBox = System.Locked(Data())
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        let data = err.fileHandleForReading.readDataToEndOfFile()
        errBox.withLock { $0 = data }
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let errData = errBox.withLock { $0 }
    process.waitUntilExit()
    return ProcessOutput(stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         status: process.terminationStatus)
}

/// A fresh empty folder under the system's temporary folder, removed with what it holds when the
/// test process exits (a test may remove it sooner): a run of the suite left ~250 folders behind.
public func temporaryDirectory() throws -> URL {
    _ = removedAtExit
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("popsim-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    madeFolders.withLock { $0.append(url) }
    return url
}

/// The folders `temporaryDirectory` made.
private let madeFolders = System.Locked<[URL]>([])

/// Registers, once, the removal of `madeFolders` at exit.
private let removedAtExit: Void = {
    atexit {
        for url in madeFolders.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
}()

/// Runs popsim's command line in this process (`Popsim.main`) with a console like `runPopsim`'s
/// environment (no colour, 100 columns): for tests whose subject is not the process itself, at
/// no launch's cost. Paths are the caller's to make absolute (the process's folder is not changed).
public func popsimInProcess(_ arguments: [String], environment extra: [String: String] = [:]) -> ProcessOutput {
    var environment = ["LC_ALL": "C", "COLUMNS": "100", "TERM": "xterm"]
    for (k, v) in extra { environment[k] = v }
    var console = Console(environment: environment)
    let code = Popsim.main(arguments, console: &console)
    return ProcessOutput(stdout: console.stdout, stderr: console.stderr, status: code.rawValue)
}
