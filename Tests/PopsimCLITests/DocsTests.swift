import Foundation
import Testing
import PopsimTestSupport

/// One command shown in README.md or docs/ with the output it prints (convention 28: docs are
/// tests, in the manner of cram and trycmd).
struct DocExample: CustomTestStringConvertible, Sendable {
    var file: String
    var line: Int
    var command: String
    var output: String
    var testDescription: String { "\(file):\(line): $ \(command)" }

    /// Every fenced block whose first line starts with `$ `: the command (a trailing `\` continues
    /// it on the next line), then exactly what it prints.
    static func all() -> [DocExample] {
        documents().flatMap { file -> [DocExample] in
            guard let text = try? String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8) else { return [] }
            var out: [DocExample] = []
            let lines = text.components(separatedBy: "\n")
            var i = 0
            while i < lines.count {
                defer { i += 1 }
                guard lines[i] == "```", i + 1 < lines.count, lines[i + 1].hasPrefix("$ ") else { continue }
                let start = i + 1
                var j = start
                var command = String(lines[j].dropFirst(2))
                while command.hasSuffix("\\"), j + 1 < lines.count {
                    j += 1
                    command = String(command.dropLast()) + " " + lines[j].trimmingCharacters(in: .whitespaces)
                }
                var body: [String] = []
                j += 1
                while j < lines.count, lines[j] != "```" {
                    body.append(lines[j])
                    j += 1
                }
                out.append(DocExample(file: file, line: start + 1, command: command,
                                      output: body.isEmpty ? "" : body.joined(separator: "\n") + "\n"))
                i = j
            }
            return out
        }
    }

    static func documents() -> [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }
}

@Suite("README and docs: every command prints what they show, every link resolves")
struct DocsTests {
    @Test(arguments: DocExample.all())
    func printsWhatTheDocsShow(_ example: DocExample) throws {
        // A command that writes a file of the repository (`--output PATH`, PATH committed) writes
        // it into a temporary folder instead, and what it writes must be the committed file.
        var command = example.command
        var written: (path: String, temporary: URL)?
        if let r = command.range(of: " --output "), let path = command[r.upperBound...].split(separator: " ").first.map(String.init),
           FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(path).path) {
            let temporary = try temporaryDirectory().appendingPathComponent((path as NSString).lastPathComponent)
            command = command.replacingOccurrences(of: " --output \(path)", with: " --output \(temporary.path)")
            written = (path, temporary)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = packageRoot
        let bin = popsimExecutable().deletingLastPathComponent().path
        process.environment = ["PATH": "\(bin):/usr/bin:/bin", "COLUMNS": "80", "NO_COLOR": "1", "LC_ALL": "C.UTF-8",
                               "TERM": "dumb"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var printed = String(decoding: data, as: UTF8.self)
        if let written {
            printed = printed.replacingOccurrences(of: written.temporary.path, with: written.path)
            #expect(try Data(contentsOf: written.temporary) == Data(contentsOf: packageRoot.appendingPathComponent(written.path)),
                    "\(example.file):\(example.line): \(written.path) is not what the command writes")
        }
        #expect(printed == example.output, "\(example.file):\(example.line)")
    }

    @Test func thereAreExamplesToCheck() {
        #expect(DocExample.all().count >= 5)
    }

    /// Every relative link `[text](path)` or `[text](path#anchor)` points at a file that exists.
    @Test(arguments: DocExample.documents())
    func relativeLinksResolve(_ file: String) throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
        let base = packageRoot.appendingPathComponent(file).deletingLastPathComponent()
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close])
            rest = rest[close...]
            if target.contains("://") || target.hasPrefix("#") || target.hasPrefix("mailto:") { continue }
            let path = String(target.split(separator: "#", maxSplits: 1).first ?? "")
            let exists = FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path)
            #expect(exists, "\(file): link to \(target) does not resolve")
        }
    }

    /// guarantees.md names the test behind each promise: each name must be a real test (`R1 x`
    /// and `R2 x` in the two hostile-input files, `Suite.test`, or a suite), so the document
    /// cannot cite a test that was renamed or removed.
    @Test func everyGuaranteeNamesARealTest() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/guarantees.md"), encoding: .utf8)
        let tests = packageRoot.appendingPathComponent("Tests")
        var sources: [String: String] = [:]
        if let walker = FileManager.default.enumerator(atPath: tests.path) {
            for case let path as String in walker where path.hasSuffix(".swift") {
                sources[(path as NSString).lastPathComponent] = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            }
        }
        let all = sources.values.joined(separator: "\n")
        var cited = 0
        for (prefix, file) in [("R1 `", "HostileInputTests.swift"), ("R2 `", "HostileInputRound2Tests.swift")] {
            var rest = Substring(text)
            while let open = rest.range(of: prefix) {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: "`") else { break }
                let name = String(rest[..<close])
                #expect(sources[file]?.contains("func \(name)(") == true, "guarantees.md: \(prefix)\(name)` is not a test in \(file)")
                cited += 1
            }
        }
        // `Suite.test` and bare suite names ending in Tests.
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: "`") else { break }
            let word = String(rest[..<close])
            rest = rest[rest.index(after: close)...]
            if word.hasSuffix(".swift") { continue }
            let parts = word.split(separator: ".")
            guard let suite = parts.first, suite.hasSuffix("Tests"), suite.allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
            #expect(all.contains("struct \(suite)") || sources.keys.contains("\(suite).swift") || suite == "Tests",
                    "guarantees.md: no suite \(suite)")
            if parts.count == 2 { #expect(all.contains("func \(parts[1])("), "guarantees.md: no test \(word)") }
            cited += 1
        }
        #expect(cited >= 30)
    }
}
