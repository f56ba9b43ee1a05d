/// An append-only array of plain values in fixed pages: it grows without copying (an array that
/// doubles holds both buffers at once, twice its contents at worst), so the memory it holds is its
/// contents plus at most one page — what a stated memory budget can count on.
///
/// Its state lives behind a pointer the class holds as a constant: reads and writes on the hot
/// path pay no dynamic exclusivity check (a class's `var`s do).
final class Paged<Element: BitwiseCopyable> {
    static var pageShift: Int { 14 }
    static var pageSize: Int { 1 << pageShift }

    private struct State {
        var pages: UnsafeMutablePointer<UnsafeMutablePointer<Element>>?
        var pageCount = 0
        var pageCapacity = 0
        var count = 0
    }

    private let state: UnsafeMutablePointer<State>

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        removeAll()
        state.deallocate()
    }

    var count: Int { state.pointee.count }

    /// Bytes of memory held (whole pages, and the page table).
    var byteCount: Int { state.pointee.pageCount * Self.pageSize * MemoryLayout<Element>.stride + state.pointee.pageCapacity * 8 }

    @discardableResult @inline(__always)
    func append(_ x: Element) -> Int {
        let n = state.pointee.count
        if n == state.pointee.pageCount << Self.pageShift { addPage() }
        // Non-nil once a page is added.
        state.pointee.pages.unsafelyUnwrapped[n >> Self.pageShift].advanced(by: n & (Self.pageSize - 1)).initialize(to: x)
        state.pointee.count = n + 1
        return n
    }

    @inline(never)
    private func addPage() {
        var s = state.pointee
        if s.pageCount == s.pageCapacity {
            let capacity = max(8, s.pageCapacity * 2)
            let grown = UnsafeMutablePointer<UnsafeMutablePointer<Element>>.allocate(capacity: capacity)
            if let old = s.pages {
                grown.moveInitialize(from: old, count: s.pageCount)
                old.deallocate()
            }
            s.pages = grown
            s.pageCapacity = capacity
        }
        (s.pages.unsafelyUnwrapped + s.pageCount).initialize(to: .allocate(capacity: Self.pageSize))
        s.pageCount += 1
        state.pointee = s
    }

    /// The element at `i` (`i < count`).
    subscript(_ i: Int) -> Element {
        @inline(__always) get { state.pointee.pages.unsafelyUnwrapped[i >> Self.pageShift][i & (Self.pageSize - 1)] }
        @inline(__always) set { state.pointee.pages.unsafelyUnwrapped[i >> Self.pageShift][i & (Self.pageSize - 1)] = newValue }
    }

    /// A pointer to the element at `i`, valid until the next `append` or `removeAll`.
    @inline(__always)
    func pointer(_ i: Int) -> UnsafeMutablePointer<Element> {
        state.pointee.pages.unsafelyUnwrapped[i >> Self.pageShift] + (i & (Self.pageSize - 1))
    }

    /// Hands `body` the elements in order, a page at a time.
    func forEachPage(_ body: (UnsafeBufferPointer<Element>) -> Void) {
        let s = state.pointee
        guard let pages = s.pages else { return }
        for k in 0..<s.pageCount {
            body(UnsafeBufferPointer(start: pages[k], count: min(Self.pageSize, s.count - k * Self.pageSize)))
        }
    }

    /// Empties it and gives the memory back.
    func removeAll() {
        let s = state.pointee
        if let pages = s.pages {
            for k in 0..<s.pageCount { pages[k].deallocate() }
            pages.deallocate()
        }
        state.pointee = State()
    }
}

/// Byte strings (user ids) kept end to end in pages of 64 KiB (one longer than a quarter page
/// gets an allocation of its own): no allocation per string, no copy when it grows.
final class ByteArena {
    static let pageSize = 1 << 16
    private let pages = Paged<UnsafeMutablePointer<UInt8>>()
    /// Strings longer than a quarter page, each in an allocation of its own.
    private let long = Paged<UnsafeMutablePointer<UInt8>>()
    private let cursor: UnsafeMutablePointer<(used: Int, bytes: Int)>

    init() {
        cursor = .allocate(capacity: 1)
        cursor.initialize(to: (ByteArena.pageSize, 0))
    }

    deinit {
        removeAll()
        cursor.deallocate()
    }

    var byteCount: Int { cursor.pointee.bytes }

    /// Stores `bytes`; returns where (page, offset; a page below 0 is a long string's own).
    func store(_ bytes: UnsafeBufferPointer<UInt8>) -> (page: Int32, offset: Int32) {
        if bytes.count > Self.pageSize / 4 {
            let own = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            if let from = bytes.baseAddress { own.update(from: from, count: bytes.count) }
            long.append(own)
            cursor.pointee.bytes += bytes.count
            return (Int32(-long.count), 0)
        }
        if cursor.pointee.used + bytes.count > Self.pageSize {
            pages.append(.allocate(capacity: Self.pageSize))
            cursor.pointee.bytes += Self.pageSize
            cursor.pointee.used = 0
        }
        let at = cursor.pointee.used
        if let from = bytes.baseAddress { (pages[pages.count - 1] + at).update(from: from, count: bytes.count) }
        cursor.pointee.used = at + bytes.count
        return (Int32(pages.count - 1), Int32(at))
    }

    @inline(__always)
    func bytes(page: Int32, offset: Int32, count: Int32) -> UnsafeBufferPointer<UInt8> {
        let base = page < 0 ? long[Int(-page) - 1] : pages[Int(page)] + Int(offset)
        return UnsafeBufferPointer(start: base, count: Int(count))
    }

    func removeAll() {
        for k in 0..<pages.count { pages[k].deallocate() }
        for k in 0..<long.count { long[k].deallocate() }
        pages.removeAll()
        long.removeAll()
        cursor.pointee = (Self.pageSize, 0)
    }
}
