import Foundation
import PopsimSystem
import PopsimTestSupport
import Testing

/// popsim builds on Linux (Glibc or Musl) and macOS: only PopsimSystem may touch a C library, and
/// nothing may name one, as `Glibc.close` does (it compiles on one platform only).
@Suite struct PortabilityTests {
    /// Every Swift file of the package (sources, tests, benchmarks, fuzz harness), relative.
    static func swiftFiles() -> [String] {
        let root = packageRoot.path
        var out: [String] = []
        for top in ["Sources", "Tests", "Fuzz", "Benchmarks"] {
            guard let walker = FileManager.default.enumerator(atPath: root + "/" + top) else { continue }
            while let next = walker.nextObject() as? String {
                if next.hasSuffix(".swift") { out.append(top + "/" + next) }
            }
        }
        return out.sorted()
    }

    @Test func onlyTheSystemLayerImportsACLibrary() throws {
        let files = Self.swiftFiles()
        #expect(files.count > 150)
        var offenders: [String] = []
        for file in files where !file.hasPrefix("Sources/PopsimSystem/") {
            let text = try String(contentsOfFile: packageRoot.path + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if ["import Glibc", "import Musl", "import Darwin"].contains(trimmed) { offenders.append(file + ": " + trimmed) }
            }
        }
        #expect(offenders == [])
    }

    @Test func noCallNamesItsCLibrary() throws {
        // A library's name, a dot, then a function or type: `Glibc.close`, `Darwin.stat`.
        let qualified = try NSRegularExpression(pattern: "\\b(Glibc|Musl|Darwin)\\.[A-Za-z_]")
        var offenders: [String] = []
        for file in Self.swiftFiles() {
            let text = try String(contentsOfFile: packageRoot.path + "/" + file, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.trimmingCharacters(in: .whitespaces))
                guard !code.hasPrefix("//") else { continue }
                if qualified.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                    offenders.append("\(file):\(n + 1): \(code)")
                }
            }
        }
        #expect(offenders == [])
    }

    /// Each file of the system layer compiles against the three libraries it may meet.
    @Test func theSystemLayerImportsEachLibraryItMayMeet() throws {
        let folder = packageRoot.path + "/Sources/PopsimSystem"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            #expect(text.hasPrefix("#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Musl)\nimport Musl\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n"), "\(file)")
        }
    }

    /// The wrappers do what the C library does, here.
    @Test func wrappersWork() throws {
        #expect(System.processorCount >= 1)
        let before = System.monotonicMs()
        System.sleep(microseconds: 2000)
        #expect(System.monotonicMs() >= before + 1)
        let folder = NSTemporaryDirectory() + "popsim-system-\(ProcessInfo.processInfo.processIdentifier)"
        #expect(System.makeDirectory(folder))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(System.fileInfo(folder)?.kind == .directory)
        let made = try #require(System.makeTemporary(in: folder))
        #expect(System.writeBytes(made.fd, "abc", 3) == 3)
        System.closeFile(made.fd)
        #expect(System.fileInfo(made.path)?.size == 3)
        #expect(System.directoryEntries(folder)?.count == 1)
        #expect(System.renameFile(made.path, to: folder + "/x"))
        #expect(System.fileInfo(folder + "/x")?.kind == .regular)
        #expect(System.describe(System.noSpace).isEmpty == false)
    }
}
