/// The `policy` strategy's waiting line, in the order popups will be taken: first the popups put
/// `ahead` (an arrival that replaced or preempted, a preempted popup returning first), then one
/// band per priority, highest first (one band when the order ignores priority), each in fifo or
/// lifo order.
///
/// Contract: an arrival finds its band in O(log k) for k priorities (binary search) and is placed
/// in amortized O(1) (a new priority inserts a band: O(k)); finding the first entry a rule
/// accepts scans the line in taking order, so it is O(k) when the first band with anyone
/// qualifies and O(n) when the rules skip most of the line; removal from the middle (a popup
/// dropped by a rule, a removal by the app) and a return in order are O(n).
struct PolicyQueue: Sendable {
    struct Entry: Sendable, Equatable {
        var popup: PopupID
        /// Arrival order, which a popup returning in order goes back by.
        var sequence: Int
        var priority: Int
        /// When it was enqueued, or put back after a preemption (for `ttlMs`).
        var since: Int
        /// Put back after a preemption: its show is a return, not a new one (caps), with the time
        /// it had left, if it resumes.
        var returning = false
        var left: Int?
    }

    /// A place in the line: a band, or `ahead` (band -1).
    struct Position {
        var band: Int
        var index: Int
    }

    private let lifo: Bool
    private let byPriority: Bool
    private var ahead = Deque<Entry>()
    private var priorities: [Int] = []
    private var bands: [Deque<Entry>] = []
    private var nextSequence = 0
    private(set) var count = 0
    /// The popups with an entry waiting, each once (in no particular order): a rule that asks
    /// whether any waiting popup could show (`conditions: any`) asks each popup once instead of
    /// each entry (a line that a `then` fed 60 entries a millisecond took 400 s to run, issue 30).
    /// Counted in arrays by popup index, not hashed: this runs on every arrival and removal.
    private(set) var waiting: [PopupID] = []
    /// Per popup index: its entries waiting, and its place in `waiting` (when it has any).
    private var entries: [Int32] = []
    private var place: [Int32] = []

    init(_ order: PolicyRules.Order) {
        lifo = order == .lifo || order == .priorityLIFO
        byPriority = order == .priorityFIFO || order == .priorityLIFO
    }

    var isEmpty: Bool { count == 0 }

    /// A new arrival, placed by the order.
    mutating func add(_ p: PopupID, priority: Int, at now: Int) {
        let entry = Entry(popup: p, sequence: nextSequence, priority: byPriority ? priority : 0, since: now)
        nextSequence += 1
        let band = self.band(for: entry.priority)
        if lifo { bands[band].prepend(entry) } else { bands[band].append(entry) }
        count += 1
        arrive(p)
    }

    /// A new arrival that goes before everything waiting (it replaced or preempted).
    mutating func addAhead(_ p: PopupID, priority: Int, at now: Int) {
        ahead.prepend(Entry(popup: p, sequence: nextSequence, priority: byPriority ? priority : 0, since: now))
        nextSequence += 1
        count += 1
        arrive(p)
    }

    /// A popup taken off screen, back in line: first of all, or where its arrival puts it.
    mutating func putBack(_ entry: Entry, first: Bool) {
        count += 1
        arrive(entry.popup)
        if first { return ahead.prepend(entry) }
        let band = self.band(for: entry.priority)
        let later = bands[band].firstIndex { lifo ? $0.sequence < entry.sequence : $0.sequence > entry.sequence }
        bands[band].insert(entry, at: later ?? bands[band].count)
    }

    /// The first entry in taking order that `matches` accepts.
    func first(where matches: (Entry) -> Bool) -> (Position, Entry)? {
        if let i = ahead.firstIndex(where: matches) { return (Position(band: -1, index: i), entry(Position(band: -1, index: i))) }
        for b in bands.indices {
            if let i = bands[b].firstIndex(where: matches) { return (Position(band: b, index: i), entry(Position(band: b, index: i))) }
        }
        return nil
    }

    private func entry(_ at: Position) -> Entry {
        at.band < 0 ? ahead[at.index] : bands[at.band][at.index]
    }

    @discardableResult
    mutating func remove(at position: Position) -> Entry {
        count -= 1
        let entry = position.band < 0 ? ahead.remove(at: position.index) : bands[position.band].remove(at: position.index)
        leave(entry.popup, 1)
        return entry
    }

    private mutating func arrive(_ p: PopupID) {
        let i = Int(p.index)
        if i >= entries.count {
            entries += repeatElement(0, count: i + 1 - entries.count)
            place += repeatElement(0, count: i + 1 - place.count)
        }
        if entries[i] == 0 {
            place[i] = Int32(waiting.count)
            waiting.append(p)
        }
        entries[i] += 1
    }

    private mutating func leave(_ p: PopupID, _ n: Int) {
        let i = Int(p.index)
        guard i < entries.count, entries[i] > 0 else { return }
        entries[i] -= Int32(n)
        guard entries[i] <= 0 else { return }
        entries[i] = 0
        let at = Int(place[i])
        let last = waiting.removeLast()
        if at < waiting.count {
            waiting[at] = last
            place[Int(last.index)] = Int32(at)
        }
    }

    /// Takes out every entry of `p`, returning them in taking order.
    mutating func removeAll(_ p: PopupID) -> [Entry] { removeAll { $0 == p } }

    /// Takes out the entries of every popup `matches` (a popup and its instances), returning
    /// them in taking order.
    mutating func removeAll(where matches: (PopupID) -> Bool) -> [Entry] {
        let found = elements.filter { matches($0.popup) }
        guard !found.isEmpty else { return [] }
        ahead.removeAll { matches($0.popup) }
        for b in bands.indices { bands[b].removeAll { matches($0.popup) } }
        count -= found.count
        for e in found { leave(e.popup, 1) }
        return found
    }

    /// Takes out everything, returning it in taking order.
    mutating func removeAll() -> [Entry] {
        let all = elements
        ahead.removeAll()
        for b in bands.indices { bands[b].removeAll() }
        count = 0
        for p in waiting { entries[Int(p.index)] = 0 }
        waiting.empty()
        return all
    }

    /// What waits, in taking order.
    var elements: [Entry] { ahead.elements + bands.flatMap(\.elements) }

    private mutating func band(for priority: Int) -> Int {
        let (index, isNew) = priorities.band(for: priority)
        if isNew {
            priorities.insert(priority, at: index)
            bands.insert(Deque(), at: index)
        }
        return index
    }
}
