import Foundation
import Testing
import PopsimTestSupport

/// Scenario files of at least 1 MiB are mapped rather than read (FileContents): the same
/// output as the same bytes read from a pipe, and a SIGBUS (a mapped file cut short) ends
/// popsim with exit 2 and one line, not a crash report.
@Suite struct MappedInputTests {
    @Test func aMappedFileRunsAsTheSameBytesFromAPipe() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.json").path
        let gen = try runPopsim(["gen", "--events", "40000", "--seed", "3", "--output", path])
        #expect(gen.status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count >= 1 << 20, "below the mapping threshold: \(bytes.count) bytes")
        let mapped = try runPopsim(["run", path, "--format", "json"])
        let piped = try runPopsim(["run", "-", "--format", "json"], stdin: String(decoding: bytes, as: UTF8.self))
        #expect(mapped.status == 0 && piped.status == 0)
        #expect(mapped.stdout.count > 1 << 20)
        #expect(mapped.stdout == piped.stdout.replacingOccurrences(of: #""file": "-""#, with: #""file": "\#(path)""#))
        let lintMapped = try runPopsim(["lint", path]), lintPiped = try runPopsim(["lint", "-"], stdin: String(decoding: bytes, as: UTF8.self))
        #expect(lintMapped.status == lintPiped.status)
        #expect(lintMapped.stdout == lintPiped.stdout.replacingOccurrences(of: "-:", with: path + ":"))
    }

    @Test func aBusErrorEndsWithOneLineAndExitTwo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("in.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = popsimExecutable()
        process.arguments = ["run", fifo]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        usleep(300_000)
        kill(process.processIdentifier, SIGBUS)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 2)
        #expect(stderr == "popsim: cannot read: an input file was cut short while popsim read it (a bus error)\n")
    }
}
