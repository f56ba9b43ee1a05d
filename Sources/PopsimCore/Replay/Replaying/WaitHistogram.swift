/// Waits in milliseconds, counted into buckets that merge by addition: the quantiles of any number
/// of users, jobs and shards, in the same bytes whatever order they were added in.
///
/// Contract: values below 256 ms are exact; above, a bucket is 1/128 of its power of two wide, so a
/// quantile is at most 0.79 % below the true value (never above it); `max`, `count` and `sum`
/// are exact. Negative values count as 0. Memory: the exact buckets (2 KiB, once one is used) and
/// the others in use only.
public struct WaitHistogram: Sendable, Equatable {
    /// The exact buckets (below 256 ms) by index, empty until one is used: most waits land
    /// there, counted without hashing.
    private var exactBuckets: [Int] = []
    /// The other buckets in use: bucket index + 1 (0: a free slot) and its count, in an
    /// open-addressing table of a power of two slots, at most three quarters full, hashed by a
    /// multiply (a dictionary's SipHash per wait was 2 % of a replay).
    private var wideKeys: [Int] = []
    private var wideCounts: [Int] = []
    private var wideUsed = 0
    public private(set) var count = 0
    public private(set) var max: Int?
    public private(set) var sum = 0

    static let exact = 256
    static let subBits = 7

    public init() {}

    public mutating func add(_ value: Int) {
        let v = Swift.max(0, value)
        if v < Self.exact {
            if exactBuckets.isEmpty { exactBuckets = Array(repeating: 0, count: Self.exact) }
            exactBuckets[v] += 1
        } else {
            addWide(Self.bucket(of: v), 1)
        }
        count += 1
        max = Swift.max(max ?? v, v)
        sum = sum.addingReportingOverflow(v).overflow ? Int.max : sum + v
    }

    public mutating func merge(_ other: WaitHistogram) {
        if !other.exactBuckets.isEmpty {
            if exactBuckets.isEmpty { exactBuckets = Array(repeating: 0, count: Self.exact) }
            for b in 0..<Self.exact where other.exactBuckets[b] > 0 { exactBuckets[b] = Self.add(exactBuckets[b], other.exactBuckets[b]) }
        }
        for (k, n) in zip(other.wideKeys, other.wideCounts) where k != 0 { addWide(k - 1, n) }
        count = Self.add(count, other.count)
        if let m = other.max { max = Swift.max(max ?? m, m) }
        sum = sum.addingReportingOverflow(other.sum).overflow ? Int.max : sum + other.sum
    }

    /// Rebuilds a histogram from its parts (a report read back for `--merge`); nil when they do
    /// not fit together.
    public init?(buckets: [(Int, Int)], max: Int?, sum: Int) {
        var seen = Set<Int>()
        for (b, n) in buckets {
            guard b >= 0, b < Self.bucketCount, n > 0, seen.insert(b).inserted else { return nil }
            if b < Self.exact {
                if exactBuckets.isEmpty { exactBuckets = Array(repeating: 0, count: Self.exact) }
                exactBuckets[b] = n
            } else {
                addWide(b, n)
            }
            let (total, overflow) = count.addingReportingOverflow(n)
            guard !overflow, total < 1 << 60 else { return nil }
            count = total
        }
        guard (count == 0) == (max == nil), sum >= 0 else { return nil }
        self.max = max
        self.sum = sum
    }

    /// The buckets in use, by index.
    public var sortedBuckets: [(index: Int, count: Int)] {
        let exact = exactBuckets.enumerated().filter { $0.element > 0 }.map { (index: $0.offset, count: $0.element) }
        let wide = zip(wideKeys, wideCounts).filter { $0.0 != 0 }.map { (index: $0.0 - 1, count: $0.1) }
        return exact + wide.sorted { $0.index < $1.index }
    }

    /// Equal when every count is: an exact bucket never used and one used zero times are alike.
    public static func == (a: WaitHistogram, b: WaitHistogram) -> Bool {
        a.count == b.count && a.max == b.max && a.sum == b.sum && a.sortedBuckets.elementsEqual(b.sortedBuckets) { $0 == $1 }
    }

    /// The nearest-rank quantile `percent`/100 (the smallest value with at least that share of
    /// the values at or below it), as its bucket's lowest value; nil when empty.
    public func quantile(_ percent: Int) -> Int? {
        guard count > 0 else { return nil }
        // ⌈percent · count / 100⌉ with a 128-bit product (a merged count may be large).
        let product = UInt(Swift.max(0, percent)).multipliedFullWidth(by: UInt(count))
        let (q, r) = UInt(100).dividingFullWidth(product)
        let rank = Swift.max(1, Int(clamping: q) + (r > 0 ? 1 : 0))
        var seen = 0
        for (b, n) in sortedBuckets {
            seen += n
            if seen >= rank { return Swift.min(Self.lowest(of: b), max ?? 0) }
        }
        return max
    }

    /// The earth mover's distance between two sets of waits, in ms (rounded): the mean, over
    /// every share q, of how far the q-quantile of one lies from the q-quantile of the other — 0
    /// for the same waits, d when every wait of one is d later. Each wait counts at its bucket's
    /// lowest value, as the quantiles do. Nil when either is empty.
    public static func distance(_ a: WaitHistogram, _ b: WaitHistogram) -> Int? {
        guard a.count > 0, b.count > 0 else { return nil }
        let x = a.sortedBuckets, y = b.sortedBuckets
        var i = 0, j = 0
        var fa = 0.0, fb = 0.0, area = 0.0
        var at: Int?
        // Both cumulative shares step at each bucket's lowest value; the area between them is
        // the distance.
        while i < x.count || j < y.count {
            let next = Swift.min(i < x.count ? lowest(of: x[i].index) : Int.max, j < y.count ? lowest(of: y[j].index) : Int.max)
            if let at { area += abs(fa - fb) * Double(next - at) }
            while i < x.count, lowest(of: x[i].index) == next {
                fa += Double(x[i].count) / Double(a.count)
                i += 1
            }
            while j < y.count, lowest(of: y[j].index) == next {
                fb += Double(y[j].count) / Double(b.count)
                j += 1
            }
            at = next
        }
        return Int(area.rounded())
    }

    /// Adds `n` to wide bucket `b` (counts saturate).
    private mutating func addWide(_ b: Int, _ n: Int) {
        if wideKeys.isEmpty {
            wideKeys = Array(repeating: 0, count: 16)
            wideCounts = wideKeys
        } else if (wideUsed + 1) * 4 > wideKeys.count * 3 {
            let (keys, counts) = (wideKeys, wideCounts)
            wideKeys = Array(repeating: 0, count: keys.count * 2)
            wideCounts = wideKeys
            wideUsed = 0
            for (k, c) in zip(keys, counts) where k != 0 { addWide(k - 1, c) }
        }
        let mask = wideKeys.count - 1
        var i = Int(truncatingIfNeeded: (UInt64(b) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while true {
            let k = wideKeys[i]
            if k == b + 1 {
                wideCounts[i] = Self.add(wideCounts[i], n)
                return
            }
            if k == 0 {
                wideKeys[i] = b + 1
                wideCounts[i] = n
                wideUsed += 1
                return
            }
            i = (i + 1) & mask
        }
    }

    /// Counts saturate (shards read back from files may hold anything).
    static func add(_ a: Int, _ b: Int) -> Int {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : s
    }

    static let bucketCount = exact + (63 - 8) << subBits

    static func bucket(of v: Int) -> Int {
        guard v >= exact else { return v }
        let e = Int.bitWidth - 1 - v.leadingZeroBitCount // 8...62
        let sub = (v >> (e - subBits)) & ((1 << subBits) - 1)
        return exact + (e - 8) << subBits + sub
    }

    static func lowest(of b: Int) -> Int {
        guard b >= exact else { return b }
        let e = (b - exact) >> subBits + 8
        let sub = (b - exact) & ((1 << subBits) - 1)
        return (1 << e) + sub << (e - subBits)
    }
}
