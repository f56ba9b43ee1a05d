/// Several instances of a popup (`InstancePolicy.perRequest`, docs/engine.md "Instances"): the
/// engine gives each request of a popup on screen or waiting a popup of its own, a copy of the
/// file's one named `X#2`, `X#3`, …, added to the run's scenario, world and timeline; the
/// strategy sees one more `PopupID`. Nothing here runs under `.merge`.
extension Engine {
    /// Under `InstancePolicy.perRequest` (the caller asks `countsRequests`), the popup a request
    /// of the file's popup `p` goes to: the first of `p`, `p#2`, … that is
    /// free (`isFree`), else a new instance.
    mutating func instance(for p: PopupID) -> PopupID {
        if isFree(p) { return p }
        let b = Int(p.index)
        if b < mayBeFree.count {
            while let key = mayBeFree[b].minKey {
                _ = mayBeFree[b].pop()
                let q = PopupID(Int(key))
                if isFree(q) { return q }
            }
        }
        return addInstance(of: p)
    }

    /// `q` may have become free: an instance goes on its base's `mayBeFree` (the file's popups are
    /// asked first by `instance(for:)` anyway).
    mutating func noteMaybeFree(_ q: PopupID) {
        let base = world.base(q)
        guard base != q else { return }
        let b = Int(base.index)
        if mayBeFree.count <= b { mayBeFree += Array(repeating: Heap(), count: b + 1 - mayBeFree.count) }
        mayBeFree[b].push(q.index, ())
    }

    /// Off screen, its strategy told `gone`, and no request of it open (waiting).
    func isFree(_ q: PopupID) -> Bool {
        world.phase(q) == .hidden && !awaitingGone[index(q)] && openRequests[index(q)] == 0
    }

    /// The popup a user's press of the file's popup `p` reaches: the newest of its instances
    /// fully on screen (the one the user sees), else `p` (which then warns as usual).
    func pressTarget(_ p: PopupID) -> PopupID {
        guard !world.bases.isEmpty else { return p }
        return world.instances(of: p).reversed().first { world.phase($0) == .shown } ?? p
    }

    /// A new instance of `base`: its popup (the base's definition under the first free name
    /// `X#n`), its place in every per-popup array, its timeline subject; the strategy is told.
    mutating func addInstance(of base: PopupID) -> PopupID {
        var popup = world.scenario.popups[Int(base.index)]
        popup.name = instanceName(of: base)
        let q = world.addInstance(popup, of: base)
        generation.append(0)
        timerGeneration.append(0)
        pressed.append(nil)
        showBegan.append(0)
        waitingPress.append(nil)
        everEnqueued.append(false)
        awaitingGone.append(false)
        openRequests.append(0)
        timeline.subjects.append(popup.name)  // screens are interned apart until the end (`deferredScreen`)
        strategy.instanceAdded(q, of: base, in: world)
        return q
    }

    /// Under `perRequest`, the subject of a screen during the run: -2 - k for the k-th screen
    /// named, so that instances made later still come right after the popups without moving
    /// any line; `Timeline.settle` gives the screens their places at the end.
    mutating func deferredScreen(_ screen: String) -> Int32 {
        if let k = runScreens.firstIndex(of: screen) { return Int32(-2 - k) }
        runScreens.append(screen)
        return Int32(-1 - runScreens.count)
    }

    /// `X#n`, n one more than the instances of X so far (a file's names have no `#`, so no
    /// popup of the file has it).
    func instanceName(of base: PopupID) -> String {
        "\(world.scenario.popups[Int(base.index)].name)#\(world.instances(of: base).count + 2)"
    }
}
