/// A growable buffer of plain values with a stable address between appends: no copy-on-write, no
/// uniqueness or bounds checks on the hot path (a reader's record bytes, an index's rows). A value
/// type that owns memory: its owner calls `free` once, and copies share the memory.
struct FlatBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>?
    var count = 0
    private(set) var capacity = 0

    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    mutating func reserve(_ n: Int) {
        guard n > capacity else { return }
        var size = Swift.max(64, capacity)
        while size < n { size = size.multipliedReportingOverflow(by: 2).overflow ? n : size * 2 }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: size)
        if let base {
            grown.update(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = size
    }

    mutating func append(_ elements: UnsafeBufferPointer<Element>) {
        guard let from = elements.baseAddress, !elements.isEmpty else { return }
        reserve(count + elements.count)
        guard let base else { return }
        (base + count).update(from: from, count: elements.count)
        count += elements.count
    }

    @inline(__always)
    mutating func append(_ x: Element) {
        if count == capacity { reserve(count + 1) }
        base?[count] = x
        count += 1
    }

    /// Frees the memory (the owner's deinit).
    mutating func free() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }
}
