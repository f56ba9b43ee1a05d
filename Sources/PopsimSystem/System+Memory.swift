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
}
