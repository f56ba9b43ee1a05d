import Testing
@testable import PopsimCore

/// The strategies' waiting lines against plain arrays doing the same operations: the fast
/// structures must keep exactly the library's order.
@Suite("waiting lines")
struct WaitingLineTests {
    /// A small deterministic generator (the tests must not depend on the system's randomness).
    struct Draw {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
    }

    @Test(arguments: 1...20)
    func dequeMatchesAnArray(_ seed: Int) {
        var draw = Draw(state: UInt64(seed))
        var deque = Deque<Int>()
        var model: [Int] = []
        for step in 0..<2000 {
            switch draw.next(8) {
            case 0, 1: deque.append(step); model.append(step)
            case 2: deque.prepend(step); model.insert(step, at: 0)
            case 3, 4: #expect(deque.popFirst() == (model.isEmpty ? nil : model.removeFirst()))
            case 5:
                let i = draw.next(model.count + 1)
                deque.insert(step, at: i)
                model.insert(step, at: i)
            case 6 where !model.isEmpty:
                let i = draw.next(model.count)
                #expect(deque.remove(at: i) == model.remove(at: i))
            default:
                let k = draw.next(10)
                deque.removeAll { $0 % 10 == k }
                model.removeAll { $0 % 10 == k }
            }
            #expect(deque.count == model.count && deque.first == model.first)
        }
        #expect(deque.elements == model)
        #expect(deque.firstIndex { $0 % 7 == 3 } == model.firstIndex { $0 % 7 == 3 })
    }

    @Test(arguments: 1...20)
    func orderedPopupSetMatchesAnArray(_ seed: Int) {
        var draw = Draw(state: UInt64(seed))
        var set = OrderedPopupSet(popups: 300)
        var model: [PopupID] = []
        for _ in 0..<3000 {
            let p = PopupID(draw.next(300))
            if draw.next(3) == 0 {
                set.remove(p)
                model.removeAll { $0 == p }
            } else {
                set.append(p)
                if !model.contains(p) { model.append(p) }
            }
            let k = draw.next(5) + 1
            #expect(set.newest(k) == (k <= model.count ? model[model.count - k] : nil))
            #expect(set.contains(p) == model.contains(p) && set.count == model.count)
        }
        #expect(set.elements == model)
        #expect(set.suffix(4) == Array(model.suffix(4)))
    }

    /// FGPopupScheduler's list as the library keeps it: one array, insertion by a linear search.
    /// Long lists: past `FGPopupList.smallLimit`, into bands.
    @Test(arguments: [FGPopupList.Placement.back, .front, .priority(lifoTie: false), .priority(lifoTie: true)])
    func fgListMatchesTheLibrarysArray(_ placement: FGPopupList.Placement) {
        #expect(checkFGList(placement, popups: 40, steps: 1500) == (small: true, bands: true, smallAgain: false))
    }

    /// Short lists emptied by `reset` every so often (a replay's users): the one array, and
    /// some of them past the limit into bands and back to the array after the reset.
    @Test(arguments: [FGPopupList.Placement.back, .front, .priority(lifoTie: false), .priority(lifoTie: true)])
    func shortFGListsMatchTheLibrarysArray(_ placement: FGPopupList.Placement) {
        #expect(checkFGList(placement, popups: 6, steps: 3000, resetEvery: 40) == (small: true, bands: false, smallAgain: false))
        #expect(checkFGList(placement, popups: 60, steps: 3000, resetEvery: 100) == (small: true, bands: true, smallAgain: true))
    }

    /// Whether a list ended a step with its elements in the one array, in bands, and in the
    /// array after it had them in bands (a reset between).
    func checkFGList(_ placement: FGPopupList.Placement, popups: Int, steps: Int, resetEvery: Int? = nil)
        -> (small: Bool, bands: Bool, smallAgain: Bool) {
        var seen = (small: false, bands: false, smallAgain: false)
        for seed in 1...10 {
            var draw = Draw(state: UInt64(seed))
            var list = FGPopupList(placement: placement, popups: popups)
            var inBandsBefore = false
            var model: [(popup: PopupID, priority: Int, settled: Bool)] = []
            for step in 0..<steps {
                if let every = resetEvery, step % every == every - 1 {
                    list.reset()
                    model.removeAll()
                }
                let p = PopupID(draw.next(popups))
                switch draw.next(6) {
                case 0, 1, 2:
                    let priority = draw.next(5) * 100
                    list.add(p, priority: priority)
                    let i: Int
                    switch placement {
                    case .back: i = model.count
                    case .front: i = 0
                    case .priority(let lifoTie):
                        i = model.firstIndex { $0.priority < priority || ($0.priority == priority && lifoTie) } ?? model.count
                    }
                    model.insert((p, priority, false), at: i)
                case 3:
                    #expect(list.removeAll(of: p) == model.filter { $0.popup == p && !$0.settled }.count)
                    model.removeAll { $0.popup == p }
                case 4:
                    // A hit test that erases popups with an odd index and takes the first of the
                    // last quarter.
                    let last = popups * 3 / 4
                    let taken = list.scan(()) { _, e in e.popup.index > last ? .take : (e.popup.index % 2 == 1 ? .erase : .pass) }
                    let erased = list.erased
                    var expectedErased: [PopupID] = []
                    var expectedTaken: PopupID?
                    var i = 0
                    while i < model.count {
                        if model[i].popup.index > last {
                            expectedTaken = model[i].popup
                            // The element taken is shown: its request settles.
                            if let taken { list.settle(taken.id) }
                            model[i].settled = true
                            break
                        }
                        if model[i].popup.index % 2 == 1 { expectedErased.append(model.remove(at: i).popup) } else { i += 1 }
                    }
                    #expect(taken?.popup == expectedTaken && erased == expectedErased)
                default:
                    if draw.next(20) == 0 {
                        var all: [FGPopupList.Element] = [FGPopupList.Element(id: -1, popup: PopupID(0), priority: 0)]
                        list.removeAll(into: &all)
                        #expect(all.map(\.popup) == model.map(\.popup))
                        model.removeAll()
                    }
                }
                #expect(list.count == model.count)
                if list.usesBands {
                    seen.bands = true
                    inBandsBefore = true
                } else if !list.isEmpty {
                    if inBandsBefore { seen.smallAgain = true } else { seen.small = true }
                }
            }
            #expect(list.liveInOrder().map(\.popup) == model.map(\.popup))
            #expect(list.liveInOrder().map(\.settled) == model.map(\.settled))
        }
        return seen
    }
}
