#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension System {
    /// Asks the kernel to back `count` bytes at `base` with huge pages where it can (Linux's
    /// `MADV_HUGEPAGE`; nothing elsewhere). Why: a 1M-event run touches ~150 MB once, and with
    /// 4 KiB pages a tenth of its time went to page faults (docs/performance.md). Only the
    /// page-aligned interior is advised; smaller regions than a few huge pages are left alone.
    /// Advice only: the memory's contents and lifetime are unchanged, and a refusal is ignored.
    public static func adviseHugePages(_ base: UnsafeMutableRawPointer, _ count: Int) {
        #if os(Linux)
        let page = 4096
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + count) & ~(page - 1)
        guard end - start >= 4 << 20, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        #endif
    }

    /// `count` bytes of the open file `fd` from `offset` (a multiple of the page size), mapped
    /// read-only and private (`mmap`), or nil where mapping fails. Why: reading a 42 MB scenario
    /// copied it into fresh memory, which the kernel zeroes first; mapping hands over the page
    /// cache's pages (docs/performance.md). The caller unmaps with `unmapFile`. A file cut
    /// shorter while mapped raises SIGBUS on access past its new end: popsim's handler ends with
    /// exit 2 (see `main.swift`). `populate`: the pages are mapped now, in one call (else each is
    /// mapped when first read, a few pages a fault, by whichever thread reads it).
    public static func mapFile(_ fd: Int32, _ count: Int, offset: Int = 0, populate: Bool = true) -> UnsafeRawBufferPointer? {
        guard count > 0, offset >= 0 else { return nil }
        #if os(Linux)
        let flags = MAP_PRIVATE | (populate ? MAP_POPULATE : 0)
        #else
        let flags = MAP_PRIVATE
        #endif
        let mapped: UnsafeMutableRawPointer? = mmap(nil, count, PROT_READ, flags, fd, off_t(offset))
        guard let base = mapped, Int(bitPattern: base) != -1 else { return nil }
        return UnsafeRawBufferPointer(start: base, count: count)
    }

    public static func unmapFile(_ region: UnsafeRawBufferPointer) {
        if let base = region.baseAddress { _ = munmap(UnsafeMutableRawPointer(mutating: base), region.count) }
    }

    /// SIGBUS: what the kernel sends for a mapped page the file no longer has.
    public static let busErrorSignal = SIGBUS
}
