/// A few short words (at most 63, each under 15 bytes) to their index, looked up by bytes: a
/// 64-slot open-addressing table on (length, first and last byte), then a byte comparison — no
/// hashing of the whole word, no String. What a loader asks once per event or row.
struct KeywordTable: Sendable {
    /// 64 slots (0: empty, else the word's index + 1), then 16 bytes per word: the word padded
    /// with zeros, its length in the last byte.
    private let table: [UInt8]

    /// Whether `words` fit: at most 63, each 1 to 14 bytes, no two alike.
    static func holds(_ words: [String]) -> Bool {
        words.count <= 63 && words.allSatisfy { (1..<15).contains($0.utf8.count) } && Set(words).count == words.count
    }

    init(_ words: [String]) {
        var table = [UInt8](repeating: 0, count: 64 + words.count * 16)
        for (i, word) in words.enumerated() {
            let bytes = Array(word.utf8)
            guard !bytes.isEmpty, bytes.count < 15, i < 63 else { continue }
            var slot = Self.hash(bytes.count, bytes[0], bytes[bytes.count - 1])
            while table[slot] != 0 { slot = (slot + 1) & 63 }
            table[slot] = UInt8(i + 1)
            for (j, b) in bytes.enumerated() { table[64 + i * 16 + j] = b }
            table[64 + i * 16 + 15] = UInt8(bytes.count)
        }
        self.table = table
    }

    static func hash(_ length: Int, _ first: UInt8, _ last: UInt8) -> Int {
        (length &* 7 &+ Int(first) &* 3 &+ Int(last)) & 63
    }

    /// The index of the word `bytes` spell, if it is one.
    @inline(__always)
    func index(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        guard n > 0, n < 15, let word = bytes.baseAddress else { return nil }
        let found = table.withUnsafeBufferPointer { t -> Int in
            guard let start = t.baseAddress else { return -1 }
            var slot = Self.hash(n, bytes[0], bytes[n - 1])
            while t[slot] != 0 {
                let base = 64 + (Int(t[slot]) - 1) * 16
                if Int(t[base + 15]) == n, RawBytes.equal(start + base, word, count: n) { return Int(t[slot]) - 1 }
                slot = (slot + 1) & 63
            }
            return -1
        }
        return found < 0 ? nil : found
    }
}
