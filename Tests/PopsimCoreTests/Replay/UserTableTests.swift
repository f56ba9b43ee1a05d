import Testing
@testable import PopsimCore

/// Users are found by their bytes whether their id sits in its entry (up to 16 bytes) or in the
/// arena (longer): ids that differ only past the 16th byte, or only in length, are told apart,
/// and every id reads back as it was given.
@Suite struct UserTableTests {
    /// Ids of every length from 0 to 40, each of a few spellings sharing long prefixes.
    static let ids: [[UInt8]] = (0...40).flatMap { n in
        [Array(repeating: UInt8(ascii: "u"), count: n), Array(repeating: UInt8(ascii: "u"), count: max(0, n - 1)) + (n > 0 ? [UInt8(ascii: "v")] : [])]
    }.reduce(into: [[UInt8]]()) { all, id in if !all.contains(id) { all.append(id) } }

    @Test func everyIdIsFoundAndReadsBack() {
        let table = UserTable()
        for (k, id) in Self.ids.enumerated() {
            let i = id.withUnsafeBufferPointer { bytes -> Int in
                let hash = UserTable.hash(bytes)
                #expect(table.find(bytes, hash: hash) == nil, "id of \(id.count) bytes found before it was added")
                return table.insert(bytes, hash: hash, firstRow: k + 1, time: k)
            }
            #expect(i == k)
        }
        for (k, id) in Self.ids.enumerated() {
            id.withUnsafeBufferPointer { bytes in
                #expect(table.find(bytes, hash: UserTable.hash(bytes)) == k)
            }
            #expect(Array(table.id(k)) == id)
            #expect(table[k].firstRow == k + 1)
        }
    }

    /// Two ids with the same hash (forced) are still told apart by their bytes, inline or not.
    @Test func sameHashDifferentBytes() {
        let table = UserTable()
        let a = Array("user-00000000016".utf8), b = Array("user-00000000017".utf8)
        #expect(a.count == UserTable.inlineBytes && b.count == UserTable.inlineBytes)
        let long = Array("a-user-id-longer-than-sixteen".utf8)
        let i = a.withUnsafeBufferPointer { table.insert($0, hash: 42, firstRow: 1, time: 0) }
        let j = long.withUnsafeBufferPointer { table.insert($0, hash: 42, firstRow: 2, time: 0) }
        #expect(a.withUnsafeBufferPointer { table.find($0, hash: 42) } == i)
        #expect(long.withUnsafeBufferPointer { table.find($0, hash: 42) } == j)
        #expect(b.withUnsafeBufferPointer { table.find($0, hash: 42) } == nil)
        table.removeAll()
        #expect(a.withUnsafeBufferPointer { table.find($0, hash: 42) } == nil)
        #expect(table.count == 0)
    }
}
