/// A waiting line taken highest priority first, arrival order among equals, in O(log k) per
/// arrival and amortized O(1) per take (k distinct priorities), so a burst of arrivals at one
/// instant stays linear. Removal of arbitrary entries (`remove(where:)`) is O(n).
///
/// `elements` lists what waits in arrival order (for `pending`).
struct PriorityFIFO: Sendable {
    private struct Entry: Sendable {
        var sequence: Int
        var popup: PopupID
    }

    /// Distinct priorities, highest first, each with its FIFO of entries and a head index.
    private var priorities: [Int] = []
    private var lines: [[Entry]] = []
    private var heads: [Int] = []
    private var sequence = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ p: PopupID, priority: Int) {
        let (low, isNew) = priorities.band(for: priority)
        if isNew {
            priorities.insert(priority, at: low)
            lines.insert([], at: low)
            heads.insert(0, at: low)
        }
        lines[low].append(Entry(sequence: sequence, popup: p))
        sequence += 1
        count += 1
    }

    /// The first arrival of the highest priority waiting, taken out.
    mutating func popBest() -> PopupID? {
        for i in priorities.indices where heads[i] < lines[i].count {
            let p = lines[i][heads[i]].popup
            heads[i] += 1
            if heads[i] > 64 && heads[i] * 2 > lines[i].count {
                lines[i].removeFirst(heads[i])
                heads[i] = 0
            }
            count -= 1
            return p
        }
        return nil
    }

    /// Takes out every waiting popup `matches` accepts; returns them in arrival order. The lines
    /// keep their storage (a line rebuilt by `filter` grew again from nothing: 5 % of a run).
    mutating func remove(where matches: (PopupID) -> Bool) -> [PopupID] {
        var removed: [Entry] = []
        for i in priorities.indices {
            var kept = 0
            for r in heads[i]..<lines[i].count {
                let entry = lines[i][r]
                if matches(entry.popup) {
                    removed.append(entry)
                } else {
                    lines[i][kept] = entry
                    kept += 1
                }
            }
            lines[i].removeLast(lines[i].count - kept)
            heads[i] = 0
        }
        count -= removed.count
        return removed.sorted { $0.sequence < $1.sequence }.map(\.popup)
    }

    /// Empties the line, keeping its bands and their storage.
    mutating func removeAll() {
        for i in lines.indices { lines[i].empty() }
        for i in heads.indices { heads[i] = 0 }
        count = 0
    }

    /// What waits, in the order it would be taken.
    var ranked: [PopupID] { priorities.indices.flatMap { lines[$0][heads[$0]...].map(\.popup) } }

    /// What waits, in arrival order.
    var elements: [PopupID] {
        priorities.indices.flatMap { lines[$0][heads[$0]...] }.sorted { $0.sequence < $1.sequence }.map(\.popup)
    }
}
