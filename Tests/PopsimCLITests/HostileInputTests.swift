import Foundation
import Testing
import PopsimCore
import PopsimReports
import PopsimCLI
import PopsimTestSupport

/// Inputs that try to crash, hang or exhaust popsim: each has its exact message and exit code.
@Suite("hostile inputs, end to end", .serialized)
struct HostileInputTests {
    func file(_ name: String, _ bytes: [UInt8], in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A file of `size` zero bytes that takes no disk space.
    func sparse(_ name: String, size: Int, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return path
    }

    @Test func filesOverTheMemoryCeilingAreRefusedAtOnce() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = try sparse("big.json", size: 300 << 20, in: dir)
        var output = try runPopsim(["run", big])
        #expect(output.status == 2 && output.stdout == "")
        #expect(output.stderr == "\(big): cannot read: larger than 256 MiB (raise the limit with --max-input-mb)\n")
        let medium = try sparse("medium.json", size: 200 << 20, in: dir)
        output = try runPopsim(["run", medium, "--max-input-mb", "100"])
        #expect(output.status == 2)
        #expect(output.stderr == "\(medium): cannot read: larger than 100 MiB (raise the limit with --max-input-mb)\n")
        // Under the ceiling a 200 MB file is read, and its first byte already tells it is not JSON.
        output = try runPopsim(["lint", "--load-only", medium])
        #expect(output.status == 2)
        #expect(output.stderr == "\(medium):1:1: expected a value, got byte 0x00\n")
    }

    @Test func aMillionNestedArraysStopAtTheDepthLimit() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try file("deep.json", Array(repeating: UInt8(ascii: "["), count: 1_000_000), in: dir)
        let output = try runPopsim(["run", path])
        #expect(output.status == 2)
        #expect(output.stderr == "\(path):1:257: nesting deeper than 256 levels\n")
    }

    @Test func tenMegabyteStringsStayOneShortLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Ten megabytes in the full tier; three in the quick one (the same paths, a third of the time).
        let long = String(repeating: "a", count: TestTier.count(quick: 3 << 20, full: 10 << 20))
        let named = try file("named.json", Array(#"{"popsim": 1, "strategy": "jc-fifo", "name": "\#(long)"}"#.utf8), in: dir)
        var output = try runPopsim(["run", named])
        #expect(output.status == 0 && output.stderr == "")
        #expect(output.stdout.hasPrefix(long + " · jc-fifo\n  showMs=400 hideMs=200 navMs=0\n"))
        let keyed = try file("key.json", Array(#"{"popsim": 1, "\#(long)": 1}"#.utf8), in: dir)
        output = try runPopsim(["run", keyed, "--strategy", "fg"])
        #expect(output.status == 2)
        let short = String(repeating: "a", count: 40) + "…"
        #expect(output.stderr == "\(keyed):1:15: [\"\(short)\"]: unknown key \"\(short)\"\n")
    }

    @Test func untilInt64MaxEndsWhenNothingIsLeft() throws {
        let output = try runPopsim(["run", "-"], stdin: """
            {"popsim": 1, "strategy": "jc-fifo", "until": 9223372036854775807,
             "popups": {"a": {"duration": 100}}, "events": [{"at": 5, "enqueue": "a"}]}
            """)
        #expect(output.status == 0 && output.stderr == "")
        #expect(output.stdout.contains("summary: 1 shown, 0 dropped, 0 pending, 0 warnings, end 705 ms\n"))
    }

    @Test func aMillionEventsAtOneInstant() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = #"{"popsim": 1, "strategy": "jc-fifo", "popups": {"a": {}}, "events": ["#
        // A million with `CI` set; 200,000 in the quick tier (the debug build takes ~12 s for a million).
        let count = TestTier.count(quick: 200_000, full: 1_000_000)
        text += Array(repeating: #"{"at": 0, "enqueue": "a"}"#, count: count).joined(separator: ",") + "]}"
        let path = try file("storm.json", Array(text.utf8), in: dir)
        let output = try runPopsim(["run", path])
        #expect(output.status == 0 && output.stderr == "")
        #expect(output.stdout.hasSuffix("pending: a ×\(count - 1)\non screen at the end: a\npopup  enqueued  first shown  wait\na             0            0     0\n"))
    }

    @Test func aPopupThatReEnqueuesItselfIsStoppedNotHung() throws {
        let loop = """
            {"popsim": 1, "strategy": "jc-fifo", "options": {"showMs": 0, "hideMs": 0},
             "popups": {"loop": {"respond": {"after": %d}, "then": {"close": [{"enqueue": "loop"}]}}},
             "events": [{"at": 0, "enqueue": "loop"}]}
            """
        var output = try runPopsim(["run", "-"], stdin: String(format: loop, 0))
        #expect(output.status == 2 && output.stdout == "")
        #expect(output.stderr == "-: the run did not settle: more than 100000 steps at one instant (at 0 ms); a popup may re-enqueue itself forever\n")
        output = try runPopsim(["run", "-", "--max-steps", "1000"], stdin: String(format: loop, 1))
        #expect(output.status == 2)
        #expect(output.stderr == "-: the run did not settle: more than 1000 steps in all (at 200 ms); a popup may re-enqueue itself forever (raise the limit with --max-steps)\n")
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.txt").path
        output = try runPopsim(["run", "-", "--timeout", "1", "--max-steps", "2000000000", "--output", target], stdin: String(format: loop, 1))
        #expect(output.status == 2)
        #expect(output.stderr == "popsim: timed out after 1 s (raise or disable the limit with --timeout)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func byteOrderMarkCRLFAndStandardInput() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = #"{"popsim": 1, "strategy": "jc-fifo", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#
        let bom = try file("bom.json", [0xEF, 0xBB, 0xBF] + Array(good.utf8), in: dir)
        #expect(try runPopsim(["run", bom]).status == 0)
        let crlf = try file("crlf.json", Array("{\r\n\"popsim\": 1,\r\n\"until\": \"x\"\r\n}\r\n".utf8), in: dir)
        let output = try runPopsim(["run", crlf, "--strategy", "fg"])
        #expect(output.status == 2)
        #expect(output.stderr == "\(crlf):3:10: until: expected an integer >= 0, got \"x\"\n")
        let stdin = try runPopsim(["run", "/dev/stdin"], stdin: good)
        #expect(stdin.status == 0)
        #expect(stdin.stdout.hasPrefix("stdin · jc-fifo · "))
    }

    @Test func anUnreadableFileAndAnUnwritableFolder() throws {
        var output = try runPopsim(["run", "/proc/self/mem"])
        #expect(output.status == 2)
        #expect(output.stderr == "/proc/self/mem: cannot read: Input/output error\n")
        // Root ignores permission bits; sysfs refuses new files even to root.
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = getuid() == 0 ? "/sys/kernel" : dir.path
        if getuid() != 0 { try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder) }
        let target = folder + "/out.txt"
        output = try runPopsim(["run", "Scenarios/jc-article-demo.json", "--output", target])
        #expect(output.status == 2 && output.stdout == "")
        #expect(output.stderr == "\(target): cannot write: Permission denied\n")
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
