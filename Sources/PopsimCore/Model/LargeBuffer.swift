/// Where the core's few large arrays (a script's events, a run's timeline) tell the system
/// they are about to be filled, so it can back them with huge pages.
///
/// Why a hook: the core calls no C library (docs/architecture.md); the executable installs
/// `System.adviseHugePages` here once at start, before any other thread exists. Unset (tests,
/// other embedders), reserving is all that happens.
public enum LargeBuffer {
    nonisolated(unsafe) public static var advise: ((UnsafeMutableRawPointer, Int) -> Void)?

    /// Reserves room for `count` elements in `array`, then passes the reserved storage to `advise`.
    public static func reserve<T>(_ array: inout [T], _ count: Int) {
        array.reserveCapacity(count)
        guard let advise, array.isEmpty, MemoryLayout<T>.stride * array.capacity >= 4 << 20 else { return }
        let bytes = MemoryLayout<T>.stride * array.capacity
        array.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { advise(UnsafeMutableRawPointer(base), bytes) }
        }
    }
}
