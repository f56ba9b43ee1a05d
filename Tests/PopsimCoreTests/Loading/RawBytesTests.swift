import Testing
@testable import PopsimCore

/// The word-at-a-time comparisons of the name and keyword tables against a byte loop: every
/// length around the word sizes, a difference at every place, and the tables' lookups of near
/// misses (one byte changed, one short, one long).
@Suite struct RawBytesTests {
    @Test func equalAgreesWithAByteLoopAtEveryLengthAndPlace() {
        for n in 0...40 {
            let a = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            for k in -1..<n {
                var b = a
                if k >= 0 { b[k] ^= 0x20 }
                let same = a.withUnsafeBytes { x in b.withUnsafeBytes { y in
                    RawBytes.equal(x.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, y.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: n)
                } }
                #expect(same == (k < 0), "length \(n), difference at \(k)")
            }
        }
    }

    static let words = ["a", "ab", "abc", "set", "show", "shown", "enqueue", "dismiss", "clearUpTo", "dismissed",
                        "permission", "campaign-12", "abcdefghijkl", "abcdefghijklm", "abcdefghijklmn"]

    static func nearMisses(_ word: String) -> [String] {
        let bytes = Array(word.utf8)
        var misses = [String(word.dropLast()), word + "x", "x" + word]
        for k in bytes.indices {
            var b = bytes
            b[k] ^= 0x01
            misses.append(String(decoding: b, as: UTF8.self))
        }
        return misses.filter { !words.contains($0) }
    }

    @Test func keywordTableFindsEachWordAndNoNearMiss() {
        let table = KeywordTable(Self.words)
        func index(_ s: String) -> Int? {
            var s = s
            return s.withUTF8 { table.index($0) }
        }
        for (i, word) in Self.words.enumerated() {
            #expect(index(word) == i, "\(word)")
            for miss in Self.nearMisses(word) { #expect(index(miss) == nil, "\(miss)") }
        }
        #expect(index("") == nil)
    }

    @Test func nameTableFindsEachNameAndNoNearMiss() {
        var table = NameTable()
        let names = Self.words + ["a-much-longer-name-of-a-popup", "a-much-longer-name-of-a-popuq", "", "éclair"]
        for (i, name) in names.enumerated() { table.insert(name, id: Int32(i)) }
        for (i, name) in names.enumerated() {
            #expect(table.lookup(name) == Int32(i), "\(name)")
            for miss in Self.nearMisses(name) where !names.contains(miss) { #expect(table.lookup(miss) == nil, "\(miss)") }
        }
    }
}
