/// FGPopupScheduler's list of popup elements (`FGPopupList`): kept in the order of the
/// scheduler's strategy, hit-tested from the front, and emptied of a popup's every element.
///
/// Why not one array, as the library has: a burst of arrivals inserts each one behind every
/// element of its priority and each dismissal removes a popup's elements, both O(n), which made a
/// burst of a million arrivals quadratic. Here the list is a band per priority, highest first
/// (one band for the `fifo` and `lifo` orders), each a deque of element ids in list order; removed
/// elements are tombstones the scan skips and compaction drops; each popup knows its live
/// elements. An arrival and a removal are amortized O(1) plus a dictionary lookup; a hit test
/// costs the elements and bands it passes (merging bands of new priorities in first).
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

    private struct Band: Sendable {
        let key: Int
        var ids = Deque<Int>()
        var live = 0
        /// Whether the band is in `order` or `newBands`.
        var listed = false
    }

    private let placement: Placement
    private var elements: [Element] = []
    private var isLive: [Bool] = []
    /// The live element ids of each popup, by popup index.
    private var ofPopup: [[Int]]
    private var bands: [Band] = []
    private var bandOfKey: [Int: Int] = [:]
    /// Listed bands, lowest key first (the list's front is the last band, so the bands a hit test
    /// empties come off the end); `newBands` are listed but not yet merged in.
    private var order: [Int] = []
    private var newBands: [Int] = []
    private(set) var count = 0

    init(placement: Placement, popups: Int) {
        self.placement = placement
        ofPopup = Array(repeating: [], count: popups)
    }

    var isEmpty: Bool { count == 0 }

    /// Inserts an element for `popup` where the placement says.
    mutating func add(_ popup: PopupID, priority: Int) {
        let id = elements.count
        elements.append(Element(id: id, popup: popup, priority: priority))
        isLive.append(true)
        ofPopup[Int(popup.index)].append(id)
        count += 1
        let b = band(for: key(priority))
        bands[b].live += 1
        switch placement {
        case .back, .priority(lifoTie: false): bands[b].ids.append(id)
        case .front, .priority(lifoTie: true): bands[b].ids.prepend(id)
        }
    }

    mutating func settle(_ id: Int) { elements[id].settled = true }

    /// The hit test: visits live elements from the front, erasing those `verdict` says to, until
    /// one is taken. Returns it and the popups erased before it, in list order.
    mutating func scan(_ verdict: (Element) -> Verdict) -> (taken: Element?, erased: [PopupID]) {
        mergeNewBands()
        var erased: [PopupID] = []
        var touched: [Int] = []
        var taken: Element?
        outer: for b in order.reversed() {
            while let id = bands[b].ids.first, !isLive[id] { _ = bands[b].ids.popFirst() }
            var i = 0
            while i < bands[b].ids.count {
                let id = bands[b].ids[i]
                i += 1
                guard isLive[id] else { continue }
                switch verdict(elements[id]) {
                case .take:
                    taken = elements[id]
                    break outer
                case .erase:
                    kill(id)
                    erased.append(elements[id].popup)
                    touched.append(b)
                case .pass:
                    continue
                }
            }
        }
        for b in touched { compact(b) }
        while let b = order.last, bands[b].live == 0 {
            unlist(b)
            order.removeLast()
        }
        return (taken, erased)
    }

    /// Removes every element of `popup`; returns them.
    mutating func removeAll(of popup: PopupID) -> [Element] {
        let ids = ofPopup[Int(popup.index)]
        guard !ids.isEmpty else { return [] }
        for id in ids { kill(id) }
        for id in ids { compact(band(ofElement: id)) }
        return ids.map { elements[$0] }
    }

    /// Removes every element; returns them in list order.
    mutating func removeAll() -> [Element] {
        let all = liveInOrder()
        for e in all { kill(e.id) }
        for b in bands.indices {
            bands[b].ids.removeAll()
            bands[b].listed = false
        }
        order = []
        newBands = []
        return all
    }

    /// The live elements in list order.
    func liveInOrder() -> [Element] {
        let front = (order + newBands).sorted { bands[$0].key > bands[$1].key }
        return front.flatMap { b in bands[b].ids.elements.filter { isLive[$0] }.map { elements[$0] } }
    }

    // MARK: - Bands

    private func key(_ priority: Int) -> Int {
        if case .priority = placement { return priority }
        return 0
    }

    private func band(ofElement id: Int) -> Int { bandOfKey[key(elements[id].priority)] ?? 0 }

    /// The band of `key`, created and listed if needed.
    private mutating func band(for key: Int) -> Int {
        let b: Int
        if let existing = bandOfKey[key] {
            b = existing
        } else {
            b = bands.count
            bands.append(Band(key: key))
            bandOfKey[key] = b
        }
        if !bands[b].listed {
            bands[b].listed = true
            newBands.append(b)
        }
        return b
    }

    private mutating func kill(_ id: Int) {
        guard isLive[id] else { return }
        isLive[id] = false
        count -= 1
        bands[band(ofElement: id)].live -= 1
        let p = Int(elements[id].popup.index)
        if let i = ofPopup[p].firstIndex(of: id) { ofPopup[p].remove(at: i) }
    }

    /// Drops a band's tombstones once they outnumber its live elements.
    private mutating func compact(_ b: Int) {
        let dead = bands[b].ids.count - bands[b].live
        guard dead > 32 && dead * 2 > bands[b].ids.count else { return }
        bands[b].ids.removeAll { !isLive[$0] }
    }

    /// Sorts the bands of new priorities in, dropping emptied ones: O(bands), paid only when a
    /// hit test follows the arrival of a new priority.
    private mutating func mergeNewBands() {
        guard !newBands.isEmpty else { return }
        for b in order + newBands where bands[b].live == 0 { unlist(b) }
        order = (order + newBands).filter { bands[$0].listed }.sorted { bands[$0].key < bands[$1].key }
        newBands = []
    }

    private mutating func unlist(_ b: Int) {
        bands[b].listed = false
        bands[b].ids.removeAll()
    }
}
