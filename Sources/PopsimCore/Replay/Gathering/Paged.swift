/// An append-only array of plain values in fixed pages: it grows without copying (an array that
/// doubles holds both buffers at once, twice its contents at worst), so the memory it holds is its
/// contents plus at most one page — what a stated memory budget can count on.
final class Paged<Element: BitwiseCopyable>: @unchecked Sendable {
    static var pageShift: Int { 14 }
    static var pageSize: Int { 1 << pageShift }
    private var pages: [UnsafeMutablePointer<Element>] = []
    private(set) var count = 0

    init() {}

    deinit { removeAll() }

    /// Bytes of memory held (whole pages).
    var byteCount: Int { pages.count * Self.pageSize * MemoryLayout<Element>.stride }

    @discardableResult
    func append(_ x: Element) -> Int {
        if count == pages.count << Self.pageShift { pages.append(.allocate(capacity: Self.pageSize)) }
        (pages[count >> Self.pageShift] + (count & (Self.pageSize - 1))).initialize(to: x)
        count += 1
        return count - 1
    }

    subscript(_ i: Int) -> Element {
        get { pages[i >> Self.pageShift][i & (Self.pageSize - 1)] }
        set { pages[i >> Self.pageShift][i & (Self.pageSize - 1)] = newValue }
    }

    /// Empties it and gives the memory back.
    func removeAll() {
        for p in pages { p.deallocate() }
        pages = []
        count = 0
    }
}

/// Byte strings (user ids) kept end to end in pages of 64 KiB (one longer than a quarter page
/// gets an allocation of its own): no allocation per string, no copy when it grows.
final class ByteArena: @unchecked Sendable {
    static let pageSize = 1 << 16
    private var pages: [UnsafeMutablePointer<UInt8>] = []
    /// Strings longer than a quarter page, each in an allocation of its own.
    private var long: [UnsafeMutablePointer<UInt8>] = []
    private var used = ByteArena.pageSize
    private(set) var byteCount = 0

    init() {}

    deinit { removeAll() }

    /// Stores `bytes`; returns where (page, offset; a page below 0 is a long string's own).
    func store(_ bytes: UnsafeBufferPointer<UInt8>) -> (page: Int32, offset: Int32) {
        if bytes.count > Self.pageSize / 4 {
            let own = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            if let from = bytes.baseAddress { own.update(from: from, count: bytes.count) }
            long.append(own)
            byteCount += bytes.count
            return (Int32(-long.count), 0)
        }
        if used + bytes.count > Self.pageSize {
            pages.append(.allocate(capacity: Self.pageSize))
            byteCount += Self.pageSize
            used = 0
        }
        let at = used
        if let from = bytes.baseAddress { (pages[pages.count - 1] + at).update(from: from, count: bytes.count) }
        used += bytes.count
        return (Int32(pages.count - 1), Int32(at))
    }

    func bytes(page: Int32, offset: Int32, count: Int32) -> UnsafeBufferPointer<UInt8> {
        let base = page < 0 ? long[Int(-page) - 1] : pages[Int(page)] + Int(offset)
        return UnsafeBufferPointer(start: base, count: Int(count))
    }

    func removeAll() {
        for p in pages + long { p.deallocate() }
        pages = []
        long = []
        used = Self.pageSize
        byteCount = 0
    }
}
