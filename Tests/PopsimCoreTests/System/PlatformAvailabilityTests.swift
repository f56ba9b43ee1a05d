import Foundation
import PopsimTestSupport
import Testing

/// popsim builds on the oldest macOS that `Package.swift` declares: no source imports a module or
/// names a type or function the toolchain marks as newer (`@available(macOS N …)`). On Linux the
/// compiler does not check it, so a Mac build broke unseen (`Synchronization.Atomic`, macOS 15,
/// issue 42): this test reads the availability from the toolchain's own module interfaces, beside
/// a short list kept here for what a toolchain might not ship.
@Suite struct PlatformAvailabilityTests {
    /// A macOS version, compared as numbers.
    struct Version: Comparable, CustomStringConvertible {
        var major: Int, minor: Int
        static func < (a: Version, b: Version) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
        var description: String { "\(major).\(minor)" }
    }

    /// Names and modules newer than some macOS, and the names the package declares itself.
    struct Gated {
        var names: [String: Version] = [:]
        var modules: [String: Version] = [:]

        /// Kept here: what the toolchain's interfaces may not say (or a toolchain may not ship).
        static let kept = Gated(names: ["Atomic": Version(major: 15, minor: 0), "AtomicLazyReference": Version(major: 15, minor: 0),
                                        "Mutex": Version(major: 15, minor: 0), "InlineArray": Version(major: 26, minor: 0)],
                                modules: ["Synchronization": Version(major: 15, minor: 0)])

        /// Adds what an interface marks: each top-level public type or function after an
        /// `@available(macOS N…)` line, at the lowest version it is given.
        mutating func read(interface text: String) {
            var pending: Version?
            let available = try? NSRegularExpression(pattern: "^@available\\(macOS (\\d+)(?:\\.(\\d+))?")
            let declaration = try? NSRegularExpression(
                pattern: "^(?:@\\w+(?:\\([^)]*\\))?\\s+)*public\\s+(?:final\\s+)?(?:struct|class|enum|protocol|actor|typealias|func)\\s+([A-Za-z_][A-Za-z0-9_]*)")
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                let range = NSRange(line.startIndex..., in: line)
                if let m = available?.firstMatch(in: line, range: range) {
                    let major = Int(Self.group(line, m, 1)) ?? 0, minor = Int(Self.group(line, m, 2)) ?? 0
                    pending = Version(major: major, minor: minor)
                    continue
                }
                if let m = declaration?.firstMatch(in: line, range: range) {
                    if let v = pending {
                        let name = Self.group(line, m, 1)
                        names[name] = min(names[name] ?? v, v)
                    }
                    pending = nil
                } else if !line.hasPrefix("@") {
                    pending = nil
                }
            }
        }

        static func group(_ line: String, _ m: NSTextCheckingResult, _ i: Int) -> String {
            guard let r = Range(m.range(at: i), in: line) else { return "" }
            return String(line[r])
        }
    }

    /// What a source does that the declared macOS does not have: `file:line: what`.
    static func findings(in text: String, file: String, gated: Gated, own: Set<String>, minimum: Version) -> [String] {
        var out: [String] = []
        let word = try? NSRegularExpression(pattern: "(?<![.\\w])([A-Za-z_][A-Za-z0-9_]*)\\b")
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // The code of the line: no comment, no string's words.
            var code = String(raw.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            code = code.replacingOccurrences(of: "\"[^\"]*\"", with: "\"\"", options: .regularExpression)
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("import ") {
                let module = trimmed.dropFirst("import ".count).trimmingCharacters(in: .whitespaces)
                if let v = gated.modules[module], v > minimum { out.append("\(file):\(n + 1): import \(module) (macOS \(v))") }
                continue
            }
            for m in word?.matches(in: code, range: NSRange(code.startIndex..., in: code)) ?? [] {
                let name = Gated.group(code, m, 1)
                guard !own.contains(name), let v = gated.names[name], v > minimum else { continue }
                out.append("\(file):\(n + 1): \(name) (macOS \(v))")
            }
        }
        return out
    }

    /// The macOS `Package.swift` declares (`.macOS(.v13)`, `.v10_15`).
    static func declaredMinimum() throws -> Version {
        let manifest = try String(contentsOfFile: packageRoot.path + "/Package.swift", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "\\.macOS\\(\\.v(\\d+)(?:_(\\d+))?\\)")
        let m = try #require(pattern.firstMatch(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)))
        return Version(major: Int(Gated.group(manifest, m, 1)) ?? 0, minor: Int(Gated.group(manifest, m, 2)) ?? 0)
    }

    /// The module interfaces of the toolchain that runs this test, found from `swiftc` on the
    /// PATH (Linux; on a Mac the compiler itself holds the sources to the declared platform).
    static func toolchainInterfaces() -> [String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") {
            let swiftc = URL(fileURLWithPath: String(dir) + "/swiftc").resolvingSymlinksInPath()
            guard FileManager.default.fileExists(atPath: swiftc.path) else { continue }
            let lib = swiftc.deletingLastPathComponent().deletingLastPathComponent().path + "/lib/swift/linux"
            var found: [String] = []
            for module in ["Swift", "_Concurrency", "Synchronization", "_StringProcessing", "Dispatch"] {
                let folder = lib + "/" + module + ".swiftmodule"
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                where name.hasSuffix(".swiftinterface") && !name.contains(".private.") {
                    found.append(folder + "/" + name)
                }
            }
            if !found.isEmpty { return found.sorted() }
        }
        return []
    }

    static func gated() throws -> Gated {
        var g = Gated.kept
        let interfaces = toolchainInterfaces()
        #if os(Linux)
        // Here the interfaces are the check: a toolchain without them would check nothing new.
        #expect(interfaces.count >= 3, "the toolchain's module interfaces were not found from PATH")
        #endif
        for file in interfaces { g.read(interface: try String(contentsOfFile: file, encoding: .utf8)) }
        return g
    }

    /// The names the package's sources declare (a type of our own may share a newer one's name).
    static func ownNames(_ texts: [String]) throws -> Set<String> {
        let declared = try NSRegularExpression(pattern: "\\b(?:struct|class|enum|protocol|typealias|actor|func)\\s+([A-Za-z_][A-Za-z0-9_]*)")
        var own = Set<String>()
        for text in texts {
            for m in declared.matches(in: text, range: NSRange(text.startIndex..., in: text)) { own.insert(Gated.group(text, m, 1)) }
        }
        return own
    }

    @Test func theInterfacesSayWhatIsNewer() throws {
        let g = try Self.gated()
        #if os(Linux)
        // Read from the toolchain, not only the kept list.
        #expect(g.names["Regex"] == Version(major: 13, minor: 0))
        #expect(g.names["ContinuousClock"] == Version(major: 13, minor: 0))
        #endif
        #expect(g.names["Atomic"] == Version(major: 15, minor: 0))
        #expect(g.modules["Synchronization"] == Version(major: 15, minor: 0))
    }

    /// The check catches what broke the Mac build: `FirstFailure.swift` as it was.
    @Test func theAtomicThatBrokeTheMacBuildIsCaught() throws {
        let before = """
            import Synchronization

            final class FirstFailure: Sendable {
                private let lowest = Atomic<Int>(Int.max) // "Mutex" in a comment is no use
                func precedes(_ i: Int) -> Bool { lowest.load(ordering: .relaxed) < i }
            }
            """
        let found = Self.findings(in: before, file: "FirstFailure.swift", gated: try Self.gated(), own: [], minimum: try Self.declaredMinimum())
        #expect(found == ["FirstFailure.swift:1: import Synchronization (macOS 15.0)", "FirstFailure.swift:4: Atomic (macOS 15.0)"])
        // Declared at 15, the same file is fine.
        #expect(Self.findings(in: before, file: "f", gated: try Self.gated(), own: [], minimum: Version(major: 15, minor: 0)) == [])
    }

    @Test func noSourceNeedsANewerMacOSThanDeclared() throws {
        let minimum = try Self.declaredMinimum()
        #expect(minimum == Version(major: 13, minor: 0))
        let files = PortabilityTests.swiftFiles().filter { $0.hasPrefix("Sources/") }
        #expect(files.count > 150)
        let texts = try files.map { try String(contentsOfFile: packageRoot.path + "/" + $0, encoding: .utf8) }
        let own = try Self.ownNames(texts)
        let g = try Self.gated()
        let found = zip(files, texts).flatMap { Self.findings(in: $1, file: $0, gated: g, own: own, minimum: minimum) }
        #expect(found == [])
    }
}
