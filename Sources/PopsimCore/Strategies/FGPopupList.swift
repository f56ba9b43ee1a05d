/// FGPopupScheduler's list of popup elements (`FGPopupList`): kept in the order of the
/// scheduler's strategy, hit-tested from the front, and emptied of a popup's every element.
///
/// Why not one array, as the library has: a burst of arrivals inserts each one behind every
/// element of its priority and each dismissal removes a popup's elements, both O(n), which made a
/// burst of a million arrivals quadratic. Here the list is a band per priority, highest first
/// (one band for the `fifo` and `lifo` orders), each a deque of elements in list order; removed
/// elements are tombstones the scan skips and compaction drops; each popup knows its live
/// elements. An arrival and a removal are amortized O(1); a hit test costs the elements and bands
/// it passes (merging the bands of new priorities in first). One byte per element ever added
/// stays (its flags); the rest goes with the element.
///
/// Until it holds more than `smallLimit` elements (every replayed user's list, and most runs'),
/// the list is that one array, live elements only, in list order: the bands, their deques and
/// the per-popup lists cost ~830 instructions more a request (callgrind, replay under fg),
/// for lists of a few elements. The first arrival past the limit moves them into bands, where
/// they stay until `reset`. `WaitingLineTests` holds both against the library's array.
struct FGPopupList: Sendable {
    struct Element: Sendable {
        let id: Int
        let popup: PopupID
        let priority: Int
        /// Whether its request has ended in the timeline (shown, or merged into the popup on
        /// screen): a settled element that leaves writes nothing.
        var settled = false
    }

    /// Where an arrival goes: `back` (`fifo`), `front` (`lifo`), or behind the more important
    /// elements: after its equals (`priority`) or before them (`lifoTie`).
    enum Placement: Sendable {
        case back, front
        case priority(lifoTie: Bool)
    }

    /// What a hit test does with the element it reaches.
    enum Verdict {
        case take, erase, pass
    }

    private struct Entry: Sendable {
        let id: Int
        let popup: PopupID
        let priority: Int
    }

    private struct Band: Sendable {
        let key: Int
        var entries = Deque<Entry>()
        var live = 0
        /// Whether the band is in `order` or `newBands`.
        var listed = false
    }

    private static let live: UInt8 = 1
    private static let settledFlag: UInt8 = 2

    private let placement: Placement
    private let appends: Bool
    /// Each element's flags, by id.
    private var flags: [UInt8] = []
    /// The elements of each popup (id and band), by popup index: live ones, and dead ones not yet
    /// dropped (a dead entry is skipped; the list is compacted once they outnumber the live).
    private var ofPopup: [[(id: Int, band: Int)]]
    private var liveOfPopup: [Int]
    private var bands: [Band] = []
    /// Band by key, once there are more than `smallBands` (until then a scan of `bands` is
    /// cheaper than hashing, and a run that starts empty allocates no table).
    private var bandOfKey: [Int: Int] = [:]
    private static let smallBands = 16
    private var lastBand: (key: Int, band: Int)?
    /// Listed bands, lowest key first (the list's front is the last band, so the bands a hit test
    /// empties come off the end); `newBands` are listed but not yet merged in.
    private var order: [Int] = []
    private var newBands: [Int] = []
    /// The popups the last hit test erased, in list order (a reused buffer).
    private(set) var erased: [PopupID] = []
    private(set) var count = 0
    /// While `isSmall`: every live element, in list order (the bands are empty).
    private var small: [Entry] = []
    private var isSmall = true
    static let smallLimit = 32

    init(placement: Placement, popups: Int) {
        self.placement = placement
        switch placement {
        case .back, .priority(lifoTie: false): appends = true
        case .front, .priority(lifoTie: true): appends = false
        }
        ofPopup = Array(repeating: [], count: popups)
        liveOfPopup = Array(repeating: 0, count: popups)
    }

    /// Empty again, as `init` makes it for as many popups, in this list's storage.
    mutating func reset() {
        flags.empty()
        for i in ofPopup.indices where !ofPopup[i].isEmpty { ofPopup[i].empty() }
        liveOfPopup.refill(0, count: liveOfPopup.count)
        // The bands stay, emptied, their storage kept for the next run (a run's bands are
        // mostly its predecessor's keys: destroying and rebuilding them cost a fifth of a reset).
        // Many bands (a run of many priorities) go, with their index.
        if bands.count <= Self.smallBands {
            for b in bands.indices { unlist(b) }
        } else {
            bands.empty()
            bandOfKey.removeAll(keepingCapacity: true)
        }
        lastBand = nil
        order.empty()
        newBands.empty()
        erased.empty()
        count = 0
        small.empty()
        isSmall = true
    }

    var isEmpty: Bool { count == 0 }

    /// Whether its elements are in bands (they passed `smallLimit` since the last `reset`).
    var usesBands: Bool { !isSmall }

    /// Inserts an element for `popup` where the placement says.
    mutating func add(_ popup: PopupID, priority: Int) {
        if isSmall {
            if count < Self.smallLimit { return addSmall(popup, priority: priority) }
            leaveSmall()
        }
        let id = flags.count
        flags.append(Self.live)
        let b = band(for: key(priority))
        ofPopup[Int(popup.index)].append((id, b))
        liveOfPopup[Int(popup.index)] += 1
        count += 1
        bands[b].live += 1
        let entry = Entry(id: id, popup: popup, priority: priority)
        if appends { bands[b].entries.append(entry) } else { bands[b].entries.prepend(entry) }
    }

    mutating func settle(_ id: Int) { flags[id] |= Self.settledFlag }

    /// The hit test: visits live elements from the front, erasing those `verdict` says to (they
    /// are in `erased` afterwards, in list order), until one is taken; returns it.
    /// `context` is handed to `verdict` rather than captured by it: a closure that captures the
    /// world copies it (a retain and release of each of its arrays) at every hit test.
    mutating func scan<Context>(_ context: Context, _ verdict: (Context, Element) -> Verdict) -> Element? {
        erased.empty()
        if isSmall { return scanSmall(context, verdict) }
        mergeNewBands()
        var taken: Element?
        for b in order.reversed() {
            while let e = bands[b].entries.first, flags[e.id] & Self.live == 0 { _ = bands[b].entries.popFirst() }
            let erasedBefore = erased.count
            var i = 0
            let n = bands[b].entries.count
            while i < n {
                let entry = bands[b].entries[i]
                i += 1
                guard flags[entry.id] & Self.live != 0 else { continue }
                let element = self.element(entry)
                switch verdict(context, element) {
                case .take: taken = element
                case .erase:
                    kill(entry.id, popup: entry.popup, band: b)
                    erased.append(entry.popup)
                case .pass: continue
                }
                if taken != nil { break }
            }
            if erased.count > erasedBefore { compact(b) }
            if taken != nil { break }
        }
        while let b = order.last, bands[b].live == 0 {
            unlist(b)
            order.removeLast()
        }
        return taken
    }

    /// Removes every element of `popup`; returns how many of them were not settled.
    mutating func removeAll(of popup: PopupID) -> Int {
        if isSmall { return removeAllSmall(of: popup) }
        let p = Int(popup.index)
        guard liveOfPopup[p] > 0 else { return 0 }
        var unsettled = 0
        // Read in place, then emptied keeping its storage (a copy held across would make the
        // emptying allocate anew: one allocation per removal).
        let n = ofPopup[p].count
        for k in 0..<n {
            let r = ofPopup[p][k]
            guard flags[r.id] & Self.live != 0 else { continue }
            if flags[r.id] & Self.settledFlag == 0 { unsettled += 1 }
            flags[r.id] &= ~Self.live
            count -= 1
            bands[r.band].live -= 1
        }
        for k in 0..<n { compact(ofPopup[p][k].band) }
        ofPopup[p].empty()
        liveOfPopup[p] = 0
        return unsettled
    }

    /// Removes every element; `all` gets them in list order (a buffer the caller keeps). No
    /// allocation: the bands, the order and the buffers keep their storage for the next ones.
    mutating func removeAll(into all: inout [Element]) {
        all.empty()
        if isSmall {
            for entry in small {
                all.append(element(entry))
                flags[entry.id] &= ~Self.live
            }
            small.empty()
            count = 0
            return
        }
        mergeNewBands()
        for b in order.reversed() {
            let n = bands[b].entries.count
            for k in 0..<n {
                let entry = bands[b].entries[k]
                if flags[entry.id] & Self.live != 0 { all.append(element(entry)) }
            }
        }
        for e in all {
            flags[e.id] &= ~Self.live
            ofPopup[Int(e.popup.index)].empty()
            liveOfPopup[Int(e.popup.index)] = 0
        }
        for b in order { unlist(b) }
        count = 0
        order.empty()
    }

    /// The live elements in list order.
    func liveInOrder() -> [Element] {
        if isSmall { return small.map(element) }
        var out: [Element] = []
        out.reserveCapacity(count)
        for b in (newBands.isEmpty ? order : bandsByKey(order + newBands)).reversed() {
            for entry in bands[b].entries.elements where flags[entry.id] & Self.live != 0 { out.append(element(entry)) }
        }
        return out
    }

    /// The bands given, lowest key first (sorting keys, not looking bands up in the comparison).
    private func bandsByKey(_ list: [Int]) -> [Int] {
        list.map { (key: bands[$0].key, band: $0) }.sorted { $0.key < $1.key }.map(\.band)
    }

    // MARK: - Small

    /// Inserts where the placement says: behind the elements of a higher priority and, unless
    /// `lifoTie`, its equals.
    private mutating func addSmall(_ popup: PopupID, priority: Int) {
        let id = flags.count
        flags.append(Self.live)
        count += 1
        let entry = Entry(id: id, popup: popup, priority: priority)
        small.append(entry)
        if case .back = placement { return }
        // Moved up past the elements it goes before (`Array.insert` is a generic range
        // replacement, ~100 instructions for one element).
        let placement = placement
        small.withUnsafeMutableBufferPointer { list in
            var j = list.count - 1
            while j > 0 {
                let before = list[j - 1]
                switch placement {
                case .back: return
                case .front: break
                case .priority(let lifoTie):
                    guard before.priority < priority || (lifoTie && before.priority == priority) else { list[j] = entry; return }
                }
                list[j] = before
                j -= 1
            }
            list[j] = entry
        }
    }

    private mutating func scanSmall<Context>(_ context: Context, _ verdict: (Context, Element) -> Verdict) -> Element? {
        var i = 0
        while i < small.count {
            let entry = small[i]
            let element = self.element(entry)
            switch verdict(context, element) {
            case .take: return element
            case .erase:
                small.remove(at: i)
                flags[entry.id] &= ~Self.live
                count -= 1
                erased.append(entry.popup)
            case .pass: i += 1
            }
        }
        return nil
    }

    private mutating func removeAllSmall(of popup: PopupID) -> Int {
        var unsettled = 0, kept = 0
        for k in small.indices {
            let entry = small[k]
            if entry.popup == popup {
                if flags[entry.id] & Self.settledFlag == 0 { unsettled += 1 }
                flags[entry.id] &= ~Self.live
                count -= 1
            } else {
                if kept != k { small[kept] = entry }
                kept += 1
            }
        }
        while small.count > kept { small.removeLast() }
        return unsettled
    }

    /// Moves the elements into bands, in list order (each band's elements are in list order
    /// whichever end arrivals join).
    private mutating func leaveSmall() {
        isSmall = false
        let entries = small
        small.empty()
        for entry in entries {
            let b = band(for: key(entry.priority))
            ofPopup[Int(entry.popup.index)].append((entry.id, b))
            liveOfPopup[Int(entry.popup.index)] += 1
            bands[b].live += 1
            bands[b].entries.append(entry)
        }
    }

    // MARK: - Bands

    private func element(_ entry: Entry) -> Element {
        Element(id: entry.id, popup: entry.popup, priority: entry.priority,
                settled: flags[entry.id] & Self.settledFlag != 0)
    }

    private func key(_ priority: Int) -> Int {
        if case .priority = placement { return priority }
        return 0
    }

    /// The band of `key`, created and listed if needed.
    private mutating func band(for key: Int) -> Int {
        let b: Int
        if let last = lastBand, last.key == key {
            b = last.band
        } else if let existing = bands.count <= Self.smallBands ? bands.firstIndex(where: { $0.key == key }) : bandOfKey[key] {
            b = existing
        } else {
            b = bands.count
            bands.append(Band(key: key))
            if bands.count > Self.smallBands {
                if bandOfKey.isEmpty { for (i, band) in bands.enumerated() { bandOfKey[band.key] = i } }
                bandOfKey[key] = b
            }
        }
        lastBand = (key, b)
        if !bands[b].listed {
            bands[b].listed = true
            newBands.append(b)
        }
        return b
    }

    private mutating func kill(_ id: Int, popup: PopupID, band b: Int) {
        guard flags[id] & Self.live != 0 else { return }
        flags[id] &= ~Self.live
        count -= 1
        bands[b].live -= 1
        let p = Int(popup.index)
        liveOfPopup[p] -= 1
        if ofPopup[p].count > 32 && liveOfPopup[p] * 2 < ofPopup[p].count {
            ofPopup[p].removeAll { flags[$0.id] & Self.live == 0 }
        }
    }

    /// Drops a band's tombstones once they outnumber its live elements.
    private mutating func compact(_ b: Int) {
        let dead = bands[b].entries.count - bands[b].live
        guard dead > 32 && dead * 2 > bands[b].entries.count else { return }
        bands[b].entries.removeAll { flags[$0.id] & Self.live == 0 }
    }

    /// Puts the bands of new priorities in their places (a binary search each), dropping emptied
    /// ones, in place: O(bands) moves and no allocation, paid only when a hit test follows the
    /// arrival of a new priority (each run of a replay starts with an empty list: it was a sort).
    private mutating func mergeNewBands() {
        guard !newBands.isEmpty else { return }
        var unlisted = false
        for b in order where bands[b].live == 0 {
            unlist(b)
            unlisted = true
        }
        if unlisted { order.removeAll { !bands[$0].listed } }
        for b in newBands {
            guard bands[b].live > 0 else {
                unlist(b)
                continue
            }
            let key = bands[b].key
            var lo = 0, hi = order.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if bands[order[mid]].key < key { lo = mid + 1 } else { hi = mid }
            }
            order.insert(b, at: lo)
        }
        newBands.empty()
    }

    private mutating func unlist(_ b: Int) {
        bands[b].listed = false
        bands[b].live = 0
        bands[b].entries.removeAll()
    }
}
