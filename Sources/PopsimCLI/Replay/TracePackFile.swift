import PopsimCore
import PopsimReports
import PopsimSystem

/// `--pack FILE` written: the replay's blocks go to a temporary file (in `TMPDIR`, removed as it
/// is made, like the partitions), and only a replay that ends well writes FILE, atomically:
/// header, blocks, manifest, footer (`TracePack`). Nothing is left behind otherwise.
final class TracePackWriter: PackSink {
    let path: String
    private let folder: String
    private var fd: Int32 = -1
    private(set) var blocks: [TracePack.Manifest.Block] = []

    init(path: String, folder: String) throws(PopsimError) {
        self.path = path
        self.folder = folder
        try startOver()
    }

    deinit { if fd >= 0 { System.closeFile(fd) } }

    func startOver() throws(PopsimError) {
        if fd >= 0 { System.closeFile(fd) }
        blocks = []
        guard let (made, temporary) = System.makeTemporary(in: folder) else {
            throw PopsimError.io(path: folder, reason: "cannot make a temporary file for --pack: " + System.lastError)
        }
        System.removeFile(temporary)
        fd = made
    }

    func append(_ block: [UInt8]) throws(PopsimError) {
        guard FileIO.writeAll(block, to: fd) else {
            throw PopsimError.io(path: folder, reason: "cannot write the pack's temporary file: " + System.lastError)
        }
        blocks.append(TracePack.Manifest.Block(bytes: block.count, checksum: TracePack.Checksum.of(block)))
    }

    /// Writes FILE: the blocks so far and `manifest` (its `blocks` set here).
    func finish(_ manifest: TracePack.Manifest) throws(PopsimError) {
        var manifest = manifest
        manifest.blocks = blocks
        let json = Array(manifest.json.utf8)
        let offset = TracePack.header.count + blocks.reduce(0) { $0 + $1.bytes }
        let fd = self.fd
        var failed = false
        do {
            try FileIO.writeAtomically(to: path) { writer in
                writer.write(bytes: TracePack.header)
                guard System.rewind(fd), FileIO.readPieces(fd, count: offset - TracePack.header.count, { writer.write(bytes: $0) }) == nil else {
                    failed = true
                    return false
                }
                writer.write(bytes: json)
                writer.write(bytes: TracePack.footer(offset: offset, length: json.count, checksum: TracePack.Checksum.of(json)))
                return true
            }
        } catch {
            throw PopsimError.io(path: path, reason: error.reason)
        }
        if failed { throw PopsimError.io(path: path, reason: "cannot read the pack's temporary file back: " + System.lastError) }
    }
}

/// A pack opened for a replay: its manifest, and its blocks dealt to the workers in turn, each
/// worker's share a `SpillStore` of its own (its own descriptor: workers read at once).
struct TracePackFile {
    let path: String
    let manifest: TracePack.Manifest
    /// Each block's offset, bytes and checksum.
    let blocks: [(offset: Int, block: TracePack.Manifest.Block)]

    /// Whether `path` names a pack (a regular file that begins as one: `TracePack.sniffs`).
    static func isPack(_ path: String) -> Bool {
        guard path != "-", System.fileInfo(path)?.kind == .regular else { return false }
        let fd = System.openForReading(path)
        guard fd >= 0 else { return false }
        defer { System.closeFile(fd) }
        var first = [UInt8](repeating: 0, count: TracePack.header.count)
        let n = first.withUnsafeMutableBytes { System.readBytes(fd, $0.baseAddress, $0.count) }
        return n == first.count && TracePack.sniffs(first)
    }

    init(_ path: String) throws(PopsimError) {
        self.path = path
        let damaged = PopsimError.io(path: path, reason: Self.damaged)
        let fd = System.openForReading(path)
        guard fd >= 0 else { throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError) }
        defer { System.closeFile(fd) }
        guard let size = System.fileInfo(descriptor: fd)?.size, size >= TracePack.header.count + TracePack.footerBytes else { throw damaged }
        var head = [UInt8](repeating: 0, count: TracePack.header.count)
        guard Self.read(fd, at: 0, into: &head) else { throw damaged }
        guard Array(head[0..<TracePack.magic.count]) == TracePack.magic else { throw damaged }
        guard head[TracePack.magic.count] == TracePack.version else {
            throw PopsimError.io(path: path, reason: "a pack of version \(head[TracePack.magic.count]); this popsim reads version \(TracePack.version): pack the trace again")
        }
        var footer = [UInt8](repeating: 0, count: TracePack.footerBytes)
        guard Self.read(fd, at: size - TracePack.footerBytes, into: &footer),
              let place = TracePack.manifestPlace(footer: footer, fileBytes: size), place.length <= Self.maxManifestBytes(blocksBytes: place.offset)
        else { throw damaged }
        var json = [UInt8](repeating: 0, count: place.length)
        guard Self.read(fd, at: place.offset, into: &json), TracePack.Checksum.of(json) == place.checksum,
              let manifest = TracePack.Manifest.read(json) else { throw damaged }
        var blocks: [(Int, TracePack.Manifest.Block)] = []
        var at = TracePack.header.count
        for block in manifest.blocks {
            guard block.bytes <= place.offset - at else { throw damaged }
            blocks.append((at, block))
            at += block.bytes
        }
        guard at == place.offset else { throw damaged }
        self.manifest = manifest
        self.blocks = blocks
    }

    /// The largest manifest read, near what popsim writes for blocks of `blocksBytes` bytes in
    /// all: its fixed part, at most `UnmappedEvents.listed` names of at most
    /// `UnmappedEvents.longestName` bytes (escaped: six bytes a byte at worst), and a line of at
    /// most 80 bytes a block, a block being `TracePack.blockBytes` or more but the last (a forged
    /// 57 MB manifest was parsed whole under `--memory 64M`, 1 GB).
    static func maxManifestBytes(blocksBytes: Int) -> Int {
        let names = UnmappedEvents.listed * (UnmappedEvents.longestName * 6 + 32)
        return (1 << 20) + names + 80 * (blocksBytes / TracePack.blockBytes + 1)
    }

    static let damaged = "not a pack this popsim can read (damaged, or not written by popsim replay --pack): pack the trace again"

    /// Reads exactly `into.count` bytes at `offset`.
    static func read(_ fd: Int32, at offset: Int, into bytes: inout [UInt8]) -> Bool {
        guard System.seek(fd, to: offset) else { return false }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { all in System.readBytes(fd, all.baseAddress.map { $0 + done }, all.count - done) }
            if n < 0, System.errorNumber == System.interrupted { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// The blocks of `worker` of `workers` (every `workers`-th, from its own), as a store.
    func share(_ worker: Int, of workers: Int) throws(PopsimError) -> any SpillStore {
        try Share(path: path, blocks: stride(from: worker, to: blocks.count, by: workers).map { blocks[$0] })
    }

    /// One worker's blocks: read back like partitions, checked as foreign bytes.
    final class Share: SpillStore {
        let path: String
        private var fd: Int32
        private let blocks: [(offset: Int, block: TracePack.Manifest.Block)]

        init(path: String, blocks: [(offset: Int, block: TracePack.Manifest.Block)]) throws(PopsimError) {
            self.path = path
            self.blocks = blocks
            fd = System.openForReading(path)
            guard fd >= 0 else { throw PopsimError.io(path: path, reason: "cannot read it: " + System.lastError) }
        }

        deinit { close() }

        var count: Int { blocks.count }
        var isForeign: Bool { true }
        var unreadable: PopsimError { PopsimError.io(path: path, reason: TracePackFile.damaged) }

        func append(_ part: Int, _ bytes: [UInt8]) throws(PopsimError) {
            throw PopsimError.internalError("replay: a pack's block was written to")
        }

        func size(_ part: Int) -> Int { blocks[part].block.bytes }

        /// Hands the block over in pieces; bytes that are not those written (their checksum) are
        /// `unreadable`, once all were handed over (the replay then stops with that error).
        func read(_ part: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(PopsimError) {
            var checksum = TracePack.Checksum()
            guard System.seek(fd, to: blocks[part].offset) else { throw unreadable }
            let short = FileIO.readPieces(fd, count: blocks[part].block.bytes, piece: TracePartitions.piece) { piece in
                checksum.add(piece)
                body(piece)
            }
            if let short { throw PopsimError.io(path: path, reason: short.reason) }
            guard checksum.value == blocks[part].block.checksum else { throw unreadable }
        }

        func close() {
            if fd >= 0 { System.closeFile(fd) }
            fd = -1
        }
    }
}
