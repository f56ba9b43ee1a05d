/// What a strategy's library does with a popup's display timer while the user holds it (hover,
/// focus, a drag) and when they let go: `pauseTimers` / `resumeTimers`, not the scheduler's suspend.
///
/// Contract: `pause` stops the timer of each targeted popup on screen that has one; `resume`
/// starts it again for the popups it paused, in full (`restart`: libadwaita, Material's Snackbar)
/// or with half the duration (`half`: notistack). Popups not on screen are untouched.
struct TimerHolds {
    enum Resume { case restart, half }

    let resume: Resume
    private var held: [Bool]

    init(_ resume: Resume, popups: Int) {
        self.resume = resume
        held = Array(repeating: false, count: popups)
    }

    /// Room for a new instance (`Strategy.instanceAdded`).
    mutating func addInstance() { held.append(false) }

    /// Carries out `pauseTimers` / `resumeTimers` over the popups on `screen`; other happenings
    /// are not its business.
    mutating func handle(_ happening: Happening, on screen: [PopupID], _ world: World, _ decisions: inout Decisions) {
        switch happening {
        case .pauseTimers(let target): pause(target, on: screen, world, &decisions)
        case .resumeTimers(let target): resume(target, world, &decisions)
        default: break
        }
    }

    private mutating func pause(_ target: TimerTarget, on screen: [PopupID], _ world: World, _ decisions: inout Decisions) {
        for p in screen where target.includes(p, in: world) && world.isVisibleAndStaying(p)
            && world.traits(p).duration != nil {
            held[Int(p.index)] = true
            decisions.stopTimer(p)
        }
    }

    private mutating func resume(_ target: TimerTarget, _ world: World, _ decisions: inout Decisions) {
        for i in held.indices where held[i] && target.includes(PopupID(i), in: world) {
            held[i] = false
            let p = PopupID(i)
            guard world.isVisibleAndStaying(p), let duration = world.traits(p).duration else { continue }
            decisions.restartTimer(p, ms: resume == .half ? duration / 2 : nil)
        }
    }

    /// Forgets `p`'s hold: a library whose hold belongs to one display (Material's Snackbar: the
    /// record's `paused`) calls it when that display ends.
    mutating func release(_ p: PopupID) {
        held[Int(p.index)] = false
    }
}
