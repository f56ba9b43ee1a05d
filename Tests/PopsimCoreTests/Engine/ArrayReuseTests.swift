import Testing
@testable import PopsimCore

/// The buffers a run keeps from run to run: refilled in their own storage.
@Suite struct ArrayReuseTests {
    @Test func refillFirstFillsThePrefixAndKeepsItsStorage() {
        var a = [7, 7, 7, 7, 7, 7, 7, 7]
        for count in [8, 3, 0, 5, 8, 12, 2, 20, 20] {
            a.refill(-1, first: count)
            #expect(a.count >= count && a.prefix(count).allSatisfy { $0 == -1 })
            a.indices.forEach { a[$0] = $0 }
        }
        #expect(a.count == 32) // 8, then 16 for 12, then 32 for 20: doubled, not made anew each time
    }
}
