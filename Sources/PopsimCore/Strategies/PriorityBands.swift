/// Distinct priorities kept highest first, one waiting line (band) each: the search both
/// priority queues share (`PriorityFIFO`, `PolicyQueue`).
extension Array where Element == Int {
    /// Where `priority` stands in this list sorted highest first: the index of its band, or
    /// where a new band for it goes; and whether the band is missing. O(log k).
    func band(for priority: Int) -> (index: Int, isNew: Bool) {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid] > priority { low = mid + 1 } else { high = mid }
        }
        return (low, low == count || self[low] != priority)
    }
}
