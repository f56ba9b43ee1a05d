/// Asks the processor to bring memory into its caches before it is read: a hint that changes no
/// result, only when the bytes arrive.
///
/// Why: gathering a row finds its user in a hash table far larger than the caches (a slot, then
/// the user's entry: two misses a row, two thirds of `UserGatherer.add`), while the rows a worker
/// reads next, and so their users' hashes, are known ahead (`IndexedRows.upcoming`). Swift has no
/// prefetch of its own; this names LLVM's `llvm.prefetch` intrinsic, which every target lowers to
/// its prefetch instruction or to nothing. It never faults, even on an address that is not mapped.
enum CacheHint {
    @_silgen_name("llvm.prefetch.p0")
    private static func prefetch(_ address: UnsafeRawPointer, _ write: Int32, _ locality: Int32, _ data: Int32)

    /// Brings the cache line holding `p` in, to be read soon.
    @inline(__always)
    static func willRead(_ p: UnsafeRawPointer) {
        prefetch(p, 0, 3, 1)
    }
}
