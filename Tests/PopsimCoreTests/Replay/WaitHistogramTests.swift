import Testing
@testable import PopsimCore

/// The waits' histogram: exact below 256 ms, quantiles at most 0.79 % below the true value,
/// merging the same as adding.
@Suite struct WaitHistogramTests {
    @Test func quantilesAreWithinTheDocumentedError() {
        var rng = SplitMix64(seed: 9)
        var h = WaitHistogram(), parts = [WaitHistogram(), WaitHistogram()]
        var values: [Int] = []
        for i in 0..<20_000 {
            let v = rng.below(1 << (1 + rng.below(30)))
            values.append(v)
            h.add(v)
            parts[i % 2].add(v)
        }
        values.sort()
        for q in [1, 50, 90, 99, 100] {
            let exact = values[max(1, (q * values.count + 99) / 100) - 1]
            let got = h.quantile(q) ?? -1
            #expect(got <= exact)
            #expect(Double(exact - got) <= Double(exact) * 0.0079, "p\(q): \(got) for \(exact)")
        }
        #expect(h.max == values.last)
        var merged = parts[1]
        merged.merge(parts[0])
        #expect(merged == h)
        var small = WaitHistogram()
        for v in [0, 3, 255, 7] { small.add(v) }
        #expect(small.quantile(50) == 3)
        #expect(small.quantile(100) == 255)
    }

    /// The buckets in use are what a plain count per bucket gives, through the table's growth,
    /// a merge in either order, and a rebuild from the parts (what `--merge` reads back).
    @Test func bucketsAreAPlainCountPerBucket() throws {
        var rng = SplitMix64(seed: 4)
        var h = WaitHistogram(), a = WaitHistogram(), b = WaitHistogram()
        var plain: [Int: Int] = [:]
        for i in 0..<30_000 {
            let v = rng.below(1 << (1 + rng.below(40)))
            h.add(v)
            if i % 3 == 0 { a.add(v) } else { b.add(v) }
            plain[WaitHistogram.bucket(of: v), default: 0] += 1
        }
        #expect(plain.count > 2_000)
        let buckets = h.sortedBuckets
        #expect(buckets.map(\.index) == plain.keys.sorted())
        #expect(buckets.allSatisfy { plain[$0.index] == $0.count })
        var ab = a, ba = b
        ab.merge(b)
        ba.merge(a)
        #expect(ab == h && ba == h)
        #expect(ab.sortedBuckets.elementsEqual(buckets) { $0 == $1 })
        let rebuilt = try #require(WaitHistogram(buckets: buckets.map { ($0.index, $0.count) }, max: h.max, sum: h.sum))
        #expect(rebuilt == h && rebuilt.sortedBuckets.elementsEqual(buckets) { $0 == $1 })
    }

    @Test func isoTimesReadAsMilliseconds() {
        #expect(TraceTime.milliseconds("1970-01-01T00:00:00Z", unit: .iso8601) == 0)
        #expect(TraceTime.milliseconds("2026-11-20T08:00:00.25Z", unit: .iso8601) == 1_795_161_600_250)
        #expect(TraceTime.milliseconds("2026-11-20T09:00:00+01:00", unit: .iso8601) == 1_795_161_600_000)
        #expect(TraceTime.milliseconds("2026-02-30T00:00:00Z", unit: .iso8601) == nil)
        #expect(TraceTime.milliseconds("12.3456", unit: .s) == 12_345)
        #expect(TraceTime.milliseconds("-1.5", unit: .s) == -1_500)
        #expect(TraceTime.milliseconds("99999999999999999999", unit: .ms) == nil)
    }

    /// Integer times of every length (read a word or two at a time) give what a digit at a time
    /// gives, signed or not; a byte that is not a digit anywhere makes the time nil.
    @Test func integerTimesOfEveryLength() {
        let digits = Array("9071835246180739254")
        for n in 1...19 {
            let text = String(digits.prefix(n))
            let plain = text.reduce(0) { $0 * 10 + Int(String($1))! }
            // Beyond ±2⁶² ms a time is nil (TraceTime's contract).
            let expected = plain < 1 << 62 ? plain : nil
            #expect(TraceTime.milliseconds(text, unit: .ms) == expected, "\(text)")
            #expect(TraceTime.milliseconds("-" + text, unit: .ms) == expected.map { -$0 }, "-\(text)")
            for k in 0..<n {
                var bad = Array(text)
                for c: Character in ["x", "/", ":", " "] {
                    bad[k] = c
                    #expect(TraceTime.milliseconds(String(bad), unit: .ms) == nil, "\(String(bad))")
                }
            }
        }
        #expect(TraceTime.milliseconds("0000000001794787205454", unit: .ms) == nil)
        #expect(TraceTime.milliseconds("001794787205454", unit: .ms) == 1_794_787_205_454)
    }
}
