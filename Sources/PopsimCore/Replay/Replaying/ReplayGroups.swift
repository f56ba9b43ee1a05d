/// The groups a replay's figures are also broken down by (docs/replay.md, "Per popup"): every
/// popup of the catalog, then every `level` and every `key` some popup has. A popup is in its own
/// group and in at most one level and one key group, so a request counts in at most three.
///
/// Contract: the groups and their order follow the catalog alone (popups in catalog order,
/// levels in `Level`'s order, keys by first use), so every shard of a replay has the same.
public struct ReplayGroups: Sendable, Equatable {
    /// What a group gathers.
    public enum By: String, Sendable, CaseIterable {
        case popup, level, key
    }

    public struct Group: Sendable, Equatable {
        public var by: By
        public var name: String
        /// The catalog's properties about it (by index): those that name one of its popups or
        /// none. Every property is counted; a report shows these.
        public var properties: [Int]

        public init(by: By, name: String, properties: [Int]) {
            self.by = by
            self.name = name
            self.properties = properties
        }
    }

    public let all: [Group]
    /// Per popup (catalog index), its groups: `slots` each, -1 for none. The first `popups`
    /// groups are the popups', in catalog order.
    private let ofPopup: [Int]
    static let slots = 3
    /// How many popups (and popup groups) there are.
    public let popups: Int
    /// Per group after the popups' (levels, keys): its popups.
    let members: [[Int]]

    public init(catalog: Scenario) {
        let named = catalog.expectations.map { Set($0.property.popups.map { Int($0.index) }) }
        func about(_ members: [Int]) -> [Int] {
            named.indices.filter { named[$0].isEmpty || members.contains(where: named[$0].contains) }
        }
        var all = catalog.popups.indices.map { Group(by: .popup, name: catalog.popups[$0].name, properties: about([$0])) }
        var ofPopup = [Int](repeating: -1, count: catalog.popups.count * Self.slots)
        for p in catalog.popups.indices { ofPopup[p * Self.slots] = p }
        for level in Level.allCases {
            let members = catalog.popups.indices.filter { catalog.popups[$0].level == level }
            guard !members.isEmpty else { continue }
            for p in members { ofPopup[p * Self.slots + 1] = all.count }
            all.append(Group(by: .level, name: level.rawValue, properties: about(members)))
        }
        var keys: [String] = []
        for popup in catalog.popups { if let key = popup.key, !keys.contains(key) { keys.append(key) } }
        for key in keys {
            let members = catalog.popups.indices.filter { catalog.popups[$0].key == key }
            for p in members { ofPopup[p * Self.slots + 2] = all.count }
            all.append(Group(by: .key, name: key, properties: about(members)))
        }
        self.all = all
        self.ofPopup = ofPopup
        let popups = catalog.popups.count
        self.popups = popups
        members = (popups..<all.count).map { g in (0..<popups).filter { p in (1..<Self.slots).contains { ofPopup[p * Self.slots + $0] == g } } }
    }

    public var count: Int { all.count }

    /// The groups of subject `s` (a popup's index), each once; none for another subject.
    @inline(__always)
    func forEach(of s: Int, _ body: (Int) -> Void) {
        guard s >= 0, s * Self.slots < ofPopup.count else { return }
        for k in 0..<Self.slots {
            let g = ofPopup[s * Self.slots + k]
            if g >= 0 { body(g) }
        }
    }

    /// The groups gathered `by`, with their indexes.
    public func groups(by: By) -> [(index: Int, group: Group)] {
        all.enumerated().filter { $0.element.by == by }.map { (index: $0.offset, group: $0.element) }
    }

    public static func == (a: ReplayGroups, b: ReplayGroups) -> Bool { a.all == b.all }
}
