import Testing
@testable import PopsimCore
import PopsimTestSupport

/// Rows held in the order they came are handed out by user the same whatever the memory the
/// arrangement may use (one user a range, a few, all), in any order of asking, and again after
/// more rows came.
@Suite struct ArrangedRowsTests {
    /// A trace of `users` users, interleaved: user k has k + 1 rows, row r of it at time 10 r.
    static func trace(users: Int) -> [UInt8] {
        var lines = ["user,time,action,popup,value"]
        for r in 0..<users {
            for k in r..<users { lines.append("u\(k),\(10 * r),enqueue,a,") }
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func gatherer(_ bytes: [UInt8], arrangeBytes: Int) -> UserGatherer? {
        guard let catalog = TraceReaderChunkTests.catalog else { return nil }
        let layout = TraceLayout(format: .csv)
        var g = UserGatherer(decoder: TraceRowDecoder(file: "t.csv", layout: layout, catalog: catalog), worker: 0, workers: 1,
                             shard: nil, promisedGrouped: false, maxErrors: 10, arrangeBytes: arrangeBytes)
        var reader = TraceFormat.csv.makeReader(layout, file: "t.csv")
        bytes.withUnsafeBufferPointer {
            reader.feed($0)
            g.read(&reader)
        }
        reader.finish()
        g.read(&reader)
        return g
    }

    /// Each user's rows as (time) lists, asked in `order`.
    static func times(_ g: UserGatherer, order: [Int]) -> [Int: [Int]] {
        var rows: [TimedEntry] = [], out: [Int: [Int]] = [:]
        for i in order {
            g.rows(of: i, into: &rows)
            out[i] = rows.map(\.time)
        }
        return out
    }

    @Test func everyLimitHandsOutTheSameRows() throws {
        let bytes = Self.trace(users: 12)
        let row = MemoryLayout<TimedEntry>.stride
        let whole = try #require(Self.gatherer(bytes, arrangeBytes: 1 << 20))
        #expect(whole.heldUsers == 12)
        let expected = Self.times(whole, order: Array(0..<12))
        // User k (index k: users come in order) has k + 1 rows at 0, 10, … 10 k.
        for k in 0..<12 { #expect(expected[k] == (0...k).map { 10 * $0 }) }
        for limit in [1, row, 3 * row, 7 * row, 20 * row, 200 * row] {
            let g = try #require(Self.gatherer(bytes, arrangeBytes: limit))
            #expect(Self.times(g, order: Array(0..<12)) == expected, "limit \(limit)")
            #expect(Self.times(g, order: Array((0..<12).reversed())) == expected, "limit \(limit), backwards")
            #expect(Self.times(g, order: [5, 0, 11, 3, 3, 7, 1, 2, 4, 6, 8, 9, 10]) == expected, "limit \(limit), shuffled")
            // What it adds to the memory held stays within the limit, or one user's rows.
            #expect(g.arranged.byteCount <= max(limit, 12 * row) + 64 * 8)
        }
    }

    /// Rows that come after users were handed out are handed out with them.
    @Test func rowsThatComeLaterAreHandedOutToo() throws {
        let g = try #require(Self.gatherer(Self.trace(users: 3), arrangeBytes: 2 * MemoryLayout<TimedEntry>.stride))
        var rows: [TimedEntry] = []
        g.rows(of: 0, into: &rows)
        #expect(rows.map(\.time) == [0])
        g.append(0, TimedEntry(time: 99, entry: rows[0].entry))
        g.rows(of: 0, into: &rows)
        #expect(rows.map(\.time) == [0, 99])
        g.rows(of: 2, into: &rows)
        #expect(rows.map(\.time) == [0, 10, 20])
    }
}
