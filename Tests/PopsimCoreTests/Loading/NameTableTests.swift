import Testing
@testable import PopsimCore

/// `NameTable.firstOccurrences` (built in slot order) gives what inserting in file order gives:
/// the same first ids, the same repeats, the same lookups.
@Suite struct NameTableTests {
    static func sequential(_ names: [String]) -> (NameTable, [Int]) {
        var table = NameTable()
        var repeats: [Int] = []
        for (i, name) in names.enumerated() where table.insert(name, id: Int32(i)) != nil { repeats.append(i) }
        return (table, repeats)
    }

    @Test(arguments: [0, 1, 2, 17, 1000, 5000])
    func batchEqualsSequential(_ n: Int) {
        var rng = SplitMix64(seed: UInt64(n) &+ 7)
        // Names drawn from a pool smaller than n: many repeats, some runs of the same name.
        let pool = max(1, n * 2 / 3)
        let names = (0..<n).map { _ in "p\(rng.next() % UInt64(pool))" }
        let (batch, repeats) = NameTable.firstOccurrences(names)
        let (reference, expected) = Self.sequential(names)
        #expect(repeats == expected)
        #expect(batch.count == reference.count)
        for name in Set(names) + ["absent", "p", ""] { #expect(batch.lookup(name) == reference.lookup(name), "\(name)") }
    }

    @Test func distinctNamesMapToTheirIndex() {
        let names = (0..<3000).map { "popup-\($0)" }
        let (table, repeats) = NameTable.firstOccurrences(names)
        #expect(repeats.isEmpty && table.count == 3000)
        for (i, name) in names.enumerated() { #expect(table.lookup(name) == Int32(i)) }
    }
}
