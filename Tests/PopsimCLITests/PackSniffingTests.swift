import Foundation
import Testing
import PopsimTestSupport
import PopsimSystem
@testable import PopsimCore
@testable import PopsimCLI

/// What is a pack, and what a pack that ends early says (issue 66, causes 22 and 23).
@Suite("packs: sniffing and short reads")
struct PackSniffingTests {
    /// A CSV whose first column is named `PSPK` is a CSV; a pack of this version or another is
    /// a pack (the other refused by its version).
    @Test func aCSVThatBeginsWithTheMagicIsNoPack() throws {
        #expect(!TracePack.sniffs(Array("PSPK,user,time,action,popup\n".utf8)))
        #expect(!TracePack.sniffs(Array("PSPK\tuser\n".utf8)) && !TracePack.sniffs(Array("PSPK\n".utf8)) && !TracePack.sniffs(Array("PSPK".utf8)))
        #expect(TracePack.sniffs(TracePack.header + [0, 0]))
        #expect(TracePack.sniffs(TracePack.magic + [2]))
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.csv").path
        try "PSPK,user,time,action,popup\nx,u,0,enqueue,a\n".write(toFile: trace, atomically: true, encoding: .utf8)
        #expect(!TracePackFile.isPack(trace))
        let catalog = dir.appendingPathComponent("c.json").path
        try #"{"popsim": 1, "popups": {"a": {"duration": 1000}}}"#.write(toFile: catalog, atomically: true, encoding: .utf8)
        let r = popsimInProcess(["replay", trace, "--catalog", catalog, "--strategy", "fg"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("1 users, 1 rows"), "\(r.stdout)")
    }

    /// A file that ends before the bytes a pack said it holds: the reason says so, not the
    /// error of whatever system call failed last.
    @Test func aShortReadSaysTheFileEnded() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("short").path
        try Data(repeating: 7, count: 10).write(to: URL(fileURLWithPath: path))
        let fd = System.openForReading(path)
        defer { System.closeFile(fd) }
        var seen = 0
        let short = FileIO.readPieces(fd, count: 20, piece: 4) { seen += $0.count }
        #expect(seen == 10)
        #expect(short?.reason == "it ends before the bytes it should hold (cut short, or changed while popsim read it)")
        #expect(System.rewind(fd) && FileIO.readPieces(fd, count: 10, piece: 4) { _ in } == nil)
    }
}
