/// QHHeapManager (seed 004, version 3): one FIFO queue per `key`, driven by the app.
///
/// - Source: seed 004's article only (no repository was found); semantics/seeds.md §5.3 and §7.9.
/// - Queue order: one FIFO per `key` (a popup without one uses the key `default`); keys are
///   independent, so each can have a popup up at once: `warning … overlap` unless option `slots`
///   allows it.
/// - Showing: the library never shows by itself; popsim models the app as the article writes it:
///   a popup enqueued into an empty key shows at once (no gate); when a key's head is dismissed the
///   app calls `goNext`, which always removes the head and shows the new head only if its gate
///   (`when`, evaluated at that moment) passes.
/// - Hazard reproduced: a failing gate leaves an unshown head that blocks its key; nothing brings it
///   back: the next `goNext` (popsim's `trigger`) removes it unseen (`drop … condition`) and tries the
///   one after. A head still stuck when the run ends is marked `warning … stalled`.
/// - `clear` is `deleteValue` on every key: the queues empty (`drop … cleared`), popups on screen stay.
/// - A head that is the same popup fully on screen merges into it (`drop … duplicate`); one still
///   leaving (the app would make a new view at once) shows at its `gone`: popsim has one of each
///   popup on screen.
struct KeyedStrategy: Strategy {
    static let name = "keyed"
    static let summary = "QHHeapManager: one FIFO per key; the next head shows when the previous closes, if its gate passes"
    static let options: [OptionSpec] = [.slots, .showMs(default: 0), .hideMs(default: 0), .navMs]
    static let modelledFields: [PopupField] = [.when, .key]
    static let modelledActions: [ActionKind] = [.trigger, .clear]
    static let buttonActions = ButtonActionTiming.atResponse
    static let defaultKey = "default"

    /// Per key in order of first use: its queue and whether its head was shown.
    /// Per key in use, its requests in order: a deque, so a burst drains in linear time (an
    /// array's `removeFirst` made 400,000 requests of one key quadratic).
    private var queues: [Deque<PopupID>] = []
    private var headShown: [Bool] = []
    /// Per key: its head was shown by the app while still leaving, so it appears at its `gone`.
    private var waitsForGone: [Bool] = []
    private let keyOfPopup: KeyIndex
    /// Per key (declaration order), its place in `queues` once used (-1 before).
    private var slotOfKey: [Int]

    init(world: World) {
        keyOfPopup = KeyIndex(world.scenario, defaultKey: Self.defaultKey)
        slotOfKey = Array(repeating: -1, count: keyOfPopup.count)
    }

    @inline(__always)
    mutating func handle(_ happening: Happening, in world: World, decisions: inout Decisions) {
        switch happening {
        case .enqueued(let p):
            let k = keyIndex(for: p)
            queues[k].append(p)
            if queues[k].count == 1 { showHead(of: k, world, &decisions) }
        case .dismissing(let p, _):
            let k = keyIndex(for: p)
            if queues[k].first == p && headShown[k] { goNext(k, world, &decisions) }
        case .gone(let p):
            let k = slotOfKey[keyOfPopup[p]]
            if k >= 0 && waitsForGone[k] && queues[k].first == p {
                waitsForGone[k] = false
                decisions.show(p)
            }
        case .trigger:
            for k in queues.indices where !queues[k].isEmpty && !headShown[k] { goNext(k, world, &decisions) }
        case .clear:
            for k in queues.indices {
                for p in queues[k].elements.dropFirst(settled(k) ? 1 : 0) { decisions.drop(p, .cleared) }
                queues[k].removeAll()
                headShown[k] = false
                waitsForGone[k] = false
            }
        case .finished:
            for k in queues.indices where !queues[k].isEmpty && !headShown[k] { decisions.warn(queues[k][0], .stalled) }
        default:
            break
        }
    }

    func pending(in world: World) -> [PopupID] {
        queues.indices.flatMap { k in Array(queues[k].elements.dropFirst(settled(k) ? 1 : 0)) }
    }

    /// Whether the key's head request has ended in the timeline (shown, or merged).
    private func settled(_ k: Int) -> Bool { headShown[k] && !waitsForGone[k] }

    private mutating func keyIndex(for p: PopupID) -> Int {
        let key = keyOfPopup[p]
        if slotOfKey[key] >= 0 { return slotOfKey[key] }
        queues.append(Deque())
        headShown.append(false)
        waitsForGone.append(false)
        slotOfKey[key] = queues.count - 1
        return queues.count - 1
    }

    /// The app shows a key's head (a popup fully on screen from before is not shown again; one
    /// still leaving shows at its `gone`).
    private mutating func showHead(of k: Int, _ world: World, _ decisions: inout Decisions) {
        let head = queues[k][0]
        headShown[k] = true
        switch world.phase(head) {
        case .hidden: decisions.show(head)
        case .hiding: waitsForGone[k] = true
        case .presenting, .shown: decisions.drop(head, .duplicate)
        }
    }

    /// `goNext(type, gate)`: remove the head; show the new head if its gate passes.
    private mutating func goNext(_ k: Int, _ world: World, _ decisions: inout Decisions) {
        guard let old = queues[k].popFirst() else { return }
        if !headShown[k] { decisions.drop(old, .condition) }
        headShown[k] = false
        guard let next = queues[k].first, world.conditionHolds(next) else { return }
        showHead(of: k, world, &decisions)
    }
}
