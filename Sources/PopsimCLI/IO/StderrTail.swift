import Dispatch
import PopsimSystem

/// The end of a plug-in's stderr, read by a thread of its own so that a plug-in writing much
/// there never blocks; its last lines (a stack trace) go into error messages.
final class StderrTail: Sendable {
    private let fd: Int32
    /// The last bytes read, and whether `finish` was called.
    private let state = System.Locked((tail: [UInt8](), finished: false))
    /// Signalled once, when the stderr closed (a signal, not a lock).
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32) {
        self.fd = fd
        // A thread of its own (not a Dispatch worker: it blocks in read for the plug-in's life).
        if !System.detachThread({ [self] in drain() }) {
            System.closeFile(fd)
            done.signal()
        }
    }

    private func drain() {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { raw in raw.baseAddress.map { System.readBytes(fd, $0, raw.count) } ?? -1 }
            if n < 0 && System.errorNumber == System.interrupted { continue }
            if n <= 0 { break }
            state.withLock { s in
                s.tail.append(contentsOf: chunk[..<n])
                if s.tail.count > 8192 { s.tail.removeFirst(s.tail.count - 4096) }
            }
        }
        System.closeFile(fd)
        done.signal()
    }

    /// Waits (up to a second) for the plug-in's stderr to close.
    func finish() {
        let already = state.withLock { s in
            defer { s.finished = true }
            return s.finished
        }
        if !already { _ = done.wait(timeout: .now() + 1) }
    }

    /// At most this many of its last lines go into a message, and at most `maxTailBytes` of them.
    static let maxTailLines = 20
    static let maxTailBytes = 2048

    /// Its last lines, without trailing blank ones: at most 20 lines and 2 KiB (the oldest lines
    /// dropped first), each at most 200 characters, tabs as spaces, control characters removed.
    var lastLines: [String] {
        let text = String(decoding: state.withLock { $0.tail }, as: UTF8.self)
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line -> String in
            let clean = String(line.replacingTabs().unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
            return clean.count > 200 ? String(clean.prefix(200)) + "…" : clean
        }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
        lines = Array(lines.suffix(Self.maxTailLines))
        while lines.count > 1 && lines.reduce(0, { $0 + $1.utf8.count + 1 }) > Self.maxTailBytes { lines.removeFirst() }
        return lines
    }
}

extension Substring {
    /// Tabs as single spaces (a message line stays one line of known width).
    func replacingTabs() -> String { String(map { $0 == "\t" ? " " : $0 }) }
}
