import Foundation
import Testing
import PopsimTestSupport
import PopsimCore
@testable import PopsimCLI

/// Scenario files of at least 1 MiB, and a trace file's chunks, are mapped rather than read
/// (FileContents, TraceSource): the same output as the same bytes read from a pipe, and a SIGBUS
/// (a mapped file cut short) ends popsim with exit 2 and one line, not a crash report.
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

    /// A trace of several chunks: the same report from the mapped file as from a pipe, with one
    /// worker and with two (the split reading), the digest included.
    @Test func aMappedTraceReplaysAsTheSameBytesFromAPipe() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gen = try runPopsim(["gen", "--trace", "--users", "3000", "--seed", "4", "--catalog", "app.json", "--output", "week.csv"], in: dir)
        #expect(gen.status == 0, "\(gen.stderr)")
        let csv = try String(contentsOf: dir.appendingPathComponent("week.csv"), encoding: .utf8)
        #expect(csv.utf8.count > 3 * SpillPlan.chunk, "not several chunks: \(csv.utf8.count) bytes")
        for jobs in ["1", "2"] {
            let common = ["--catalog", "app.json", "--strategy", "fg", "--format", "json", "--jobs", jobs]
            let mapped = try runPopsim(["replay", "week.csv"] + common, in: dir)
            let piped = try runPopsim(["replay", "-"] + common, in: dir, stdin: csv)
            #expect(mapped.status == 0 && piped.status == 0, "\(mapped.stderr)\(piped.stderr)")
            #expect(mapped.stdout.contains(#""rows": "#))
            #expect(mapped.stdout == piped.stdout.replacingOccurrences(of: #""file": "-""#, with: #""file": "week.csv""#))
        }
    }

    /// The chunks of a trace file are its bytes, in order, each at most a chunk long: the mapped
    /// part as it was when opened, then what the file gained meanwhile, read. Each chunk is still
    /// there while the next one is handed out (mapped or read into the other buffer), and the
    /// last one at the end (`atEnd`, once; not when reading stopped early).
    @Test func aTraceFileHandsOutEveryByteAndWhatItGainedMeanwhile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.csv").path
        var random = SplitMix64(seed: 9)
        let first = (0..<(2 * SpillPlan.chunk + 12_345)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let gained = (0..<(2 * SpillPlan.chunk + 77)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try Data(first).write(to: URL(fileURLWithPath: path))
        var source = try TraceSource(path, hashing: false)
        defer { source.close() }
        var seen: [UInt8] = [], sizes: [Int] = [], ends = 0
        var before: (chunk: UnsafeBufferPointer<UInt8>, bytes: [UInt8])?
        var stillThere: [Bool] = []
        try source.forEachChunk({ chunk in
            if sizes.isEmpty {
                let handle = try? FileHandle(forWritingTo: URL(fileURLWithPath: path))
                _ = try? handle?.seekToEnd()
                try? handle?.write(contentsOf: Data(gained))
                try? handle?.close()
            }
            if let before { stillThere.append(Array(before.chunk) == before.bytes) }
            before = (chunk, Array(chunk))
            sizes.append(chunk.count)
            seen.append(contentsOf: chunk)
            return true
        }, atEnd: {
            ends += 1
            if let before { stillThere.append(Array(before.chunk) == before.bytes) }
        })
        #expect(seen == first + gained)
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= SpillPlan.chunk })
        #expect(Array(sizes.prefix(3)) == [SpillPlan.chunk, SpillPlan.chunk, 12_345])
        #expect(sizes.count >= 6 && stillThere == Array(repeating: true, count: sizes.count) && ends == 1, "\(sizes) \(stillThere)")
        var again = try TraceSource(path, hashing: false)
        defer { again.close() }
        var chunks = 0
        try again.forEachChunk({ _ in
            chunks += 1
            return false
        }, atEnd: { ends += 1 })
        #expect(chunks == 1 && ends == 1)
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
