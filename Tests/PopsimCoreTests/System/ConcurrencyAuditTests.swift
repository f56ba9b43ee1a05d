import Foundation
import Testing
import PopsimTestSupport

/// Issue 42: what threads share is guarded in one way, and every exception is written down.
/// Shared mutable state lives behind `System.Locked` (the one audited `@unchecked Sendable` of
/// shared state); any other `@unchecked Sendable` says why in its doc comment ("audited"); no
/// semaphore stands in for a lock; `nonisolated(unsafe)` is kept to state a signal handler reads
/// (where no lock may be taken) and a hook set before any thread exists.
@Suite struct ConcurrencyAuditTests {
    /// Every Swift source of the package, by path from its root, with its lines.
    static func sources() throws -> [(path: String, lines: [String])] {
        let root = packageRoot.appendingPathComponent("Sources")
        guard let walk = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return try walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            ("Sources/" + path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n"))
        }
    }

    @Test func everyUncheckedSendableIsAudited() throws {
        var found: [String] = []
        for (path, lines) in try Self.sources() {
            for (i, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                && line.contains("@unchecked Sendable") {
                found.append(path)
                // The doc comment right above the declaration says why.
                var j = i - 1, comment: [String] = []
                while j >= 0, lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    comment.append(lines[j])
                    j -= 1
                }
                let why = comment.joined(separator: " ")
                #expect(why.contains("audited"), "\(path):\(i + 1): an @unchecked Sendable without its audit in the doc comment above it")
            }
        }
        // The list is short on purpose: a new one is a decision, reviewed here.
        #expect(found == ["Sources/PopsimCLI/IO/FileContents.swift", "Sources/PopsimCLI/IO/PluginProcess.swift",
                          "Sources/PopsimCLI/Replay/ReplayPass.swift", "Sources/PopsimCore/JSON/JSONReader.swift",
                          // A scenario's copy-on-write box (`Scenario.Details`): changed only when unshared.
                          "Sources/PopsimCore/Model/Scenario.swift", "Sources/PopsimCore/Replay/Gathering/TraceValues.swift",
                          "Sources/PopsimCore/Replay/Reading/IndexedRows.swift", "Sources/PopsimCore/Replay/Reading/SplitReading.swift",
                          "Sources/PopsimCore/Replay/Replaying/ReplayWorker.swift", "Sources/PopsimSystem/System+Lock.swift"])
    }

    @Test func noSemaphoreIsALock() throws {
        for (path, lines) in try Self.sources() {
            for (i, line) in lines.enumerated() where line.contains("DispatchSemaphore(value: 1)") {
                Issue.record("\(path):\(i + 1): a semaphore used as a lock: keep the state in a System.Locked")
            }
        }
    }

    @Test func nonisolatedUnsafeOnlyWhereNoLockMayBeTaken() throws {
        // Read by a signal handler (async-signal-safe: no lock), or set once before any thread.
        let kept: Set<String> = ["Sources/popsim/main.swift", "Sources/PopsimCLI/IO/StopRequest.swift", "Sources/PopsimCLI/IO/FileIO.swift",
                                 "Sources/PopsimCLI/IO/PluginGroups.swift", "Sources/PopsimSystem/System+Reaper.swift",
                                 "Sources/PopsimSystem/System+Process.swift", "Sources/PopsimCore/Model/LargeBuffer.swift"]
        for (path, lines) in try Self.sources() {
            for (i, line) in lines.enumerated() where line.contains("nonisolated(unsafe)") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                #expect(kept.contains(path), "\(path):\(i + 1): nonisolated(unsafe) outside the signal-handler state: use a System.Locked")
            }
        }
    }
}
