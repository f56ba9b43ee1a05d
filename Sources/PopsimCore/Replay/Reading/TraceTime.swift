/// A trace's `time` text as integer milliseconds, in the unit the caller chose.
///
/// Contract: no floating point (the same text gives the same milliseconds on every machine);
/// digits of a fraction beyond the third are dropped (times are milliseconds everywhere in
/// popsim); nil for anything else, and for a time beyond ±2⁶² ms.
public enum TraceTime {
    static let limit = 1 << 62

    public static func milliseconds(_ text: String, unit: TraceLayout.TimeUnit) -> Int? {
        var text = text
        return text.withUTF8 { milliseconds($0, unit: unit) }
    }

    /// `zoneMinutes`: the offset east of UTC of an ISO 8601 time written without a zone.
    public static func milliseconds(_ bytes: UnsafeBufferPointer<UInt8>, unit: TraceLayout.TimeUnit, zoneMinutes: Int = 0) -> Int? {
        switch unit {
        case .ms: return integer(bytes)
        case .s: return seconds(bytes[...])
        case .iso8601: return iso8601(bytes[...], zoneMinutes: zoneMinutes)
        }
    }

    /// Digits, with an optional leading `-`; eight at a time while eight are left.
    static func integer(_ s: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = s.count
        let negative = n > 0 && s[0] == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        guard n > i, n - i <= 19, let base = s.baseAddress else { return nil }
        var v = 0
        // Up to 18 digits cannot pass 2⁶³; eight digits are one word (simdjson's way).
        if n - i <= 18 {
            let raw = UnsafeRawPointer(base)
            if n - i > 8 && n - i <= 16 { return sixteen(raw, from: i, to: n, negative: negative) }
            while n - i >= 8 {
                guard let eight = eightDigits(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) else { return nil }
                v = v &* 100_000_000 &+ eight
                i += 8
            }
            while i < n {
                let d = Int(base[i]) &- 48
                guard d >= 0, d <= 9 else { return nil }
                v = v &* 10 &+ d
                i += 1
            }
            guard v < limit else { return nil }
            return negative ? -v : v
        }
        while i < n {
            let d = Int(base[i]) &- 48
            // 19 digits may pass Int.max: the limit is checked before every digit.
            guard d >= 0, d <= 9, v < limit / 10 else { return nil }
            v = v &* 10 &+ d
            i += 1
        }
        return negative ? -v : v
    }

    /// 9 to 16 digits in two words, no loop (a millisecond epoch time has 13): the first eight,
    /// then the last eight with the digits the first word read set to `0`.
    @inline(__always)
    private static func sixteen(_ raw: UnsafeRawPointer, from i: Int, to n: Int, negative: Bool) -> Int? {
        guard let high = eightDigits(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) else { return nil }
        // The last word's low bytes (its first digits) that the first word read already.
        let overlap = UInt64(16 - (n - i)) &* 8
        let w = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        let low = ~UInt64(0) << overlap
        guard let rest = eightDigits((w & low) | (0x3030_3030_3030_3030 & ~low)) else { return nil }
        let v = high &* tenTo(n - i - 8) &+ rest
        return negative ? -v : v
    }

    /// 10 to the `k` (0...8): a table without a global's lazy start at every use.
    @inline(__always)
    private static func tenTo(_ k: Int) -> Int {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// Eight ASCII digits (little-endian, the first in the low byte) as their number; nil when a
    /// byte is not a digit.
    @inline(__always)
    static func eightDigits(_ w: UInt64) -> Int? {
        // Each byte 0x30...0x39: its high nibble 3, and adding 6 keeps it below 0x40.
        guard (w & 0xF0F0_F0F0_F0F0_F0F0) | (((w &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4) == 0x3333_3333_3333_3333 else {
            return nil
        }
        var v = w & 0x0F0F_0F0F_0F0F_0F0F
        v = (v &* 2561) >> 8
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
        return Int(v)
    }

    static func seconds(_ b: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let dot = b.firstIndex(of: UInt8(ascii: ".")) else {
            return integer(UnsafeBufferPointer(rebasing: b)).flatMap { $0.magnitude < limit / 1000 ? $0 * 1000 : nil }
        }
        guard let whole = integer(UnsafeBufferPointer(rebasing: b[..<dot])), whole.magnitude < limit / 1000 else { return nil }
        let fraction = b[(dot + 1)...]
        guard !fraction.isEmpty, fraction.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        var ms = 0
        for (i, c) in fraction.prefix(3).enumerated() { ms += Int(c - 48) * [100, 10, 1][i] }
        let negative = b.first == UInt8(ascii: "-")
        return whole * 1000 + (negative ? -ms : ms)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff…][Z|±HH:MM]`; a space may stand for `T`. Without a zone (what
    /// BigQuery and Redshift often write), the time is `zoneMinutes` east of UTC (0: UTC).
    static func iso8601(_ b: Slice<UnsafeBufferPointer<UInt8>>, zoneMinutes: Int = 0) -> Int? {
        let s = UnsafeBufferPointer(rebasing: b)
        guard s.count >= 19 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= s.count else { return nil }
            var n = 0
            for c in s[from..<(from + count)] {
                guard c >= 48, c <= 57 else { return nil }
                n = n * 10 + Int(c - 48)
            }
            return n
        }
        guard let year = number(0, 4), s[4] == UInt8(ascii: "-"), let month = number(5, 2), s[7] == UInt8(ascii: "-"),
              let day = number(8, 2), s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: " "),
              let hour = number(11, 2), s[13] == UInt8(ascii: ":"), let minute = number(14, 2), s[16] == UInt8(ascii: ":"),
              let second = number(17, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month, year), hour < 24, minute < 60, second < 61 else { return nil }
        var i = 19
        var ms = 0
        if i < s.count, s[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < s.count, s[i] >= 48, s[i] <= 57 {
                if i - start < 3 { ms += Int(s[i] - 48) * [100, 10, 1][i - start] }
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset = zoneMinutes * 60_000
        if i == s.count {
            // No zone: the trace's.
        } else if s[i] == UInt8(ascii: "Z") {
            offset = 0
            i += 1
        } else if s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            guard let h = number(i + 1, 2), i + 3 < s.count, s[i + 3] == UInt8(ascii: ":"), let m = number(i + 4, 2), h < 24, m < 60 else { return nil }
            offset = (h * 60 + m) * 60_000 * (s[i] == UInt8(ascii: "+") ? 1 : -1)
            i += 6
        } else {
            return nil
        }
        guard i == s.count else { return nil }
        let days = daysFromCivil(year, month, day)
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms - offset
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
