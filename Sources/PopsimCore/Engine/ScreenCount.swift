/// Which popups are on screen as a timeline is read line by line: from `show` to `gone`, or to a
/// hide without animation (no `gone` follows it). Read one way by the `visible` property and by
/// replay's "most on screen".
struct ScreenCount {
    private(set) var onScreen: [Bool]
    private(set) var visible = 0

    init(subjects: Int) {
        onScreen = Array(repeating: false, count: subjects)
    }

    /// Nothing on screen, for as many subjects, in this count's storage.
    mutating func reset(subjects: Int) {
        onScreen.refill(false, count: subjects)
        visible = 0
    }

    /// Takes in `entry`; `animated`: whether it is a `show` or `hide` its `shown`/`gone` follows
    /// (`Timeline.animatedTransitions`).
    mutating func read(_ entry: Timeline.Entry, animated: Bool) {
        let s = Int(entry.subject)
        guard s >= 0 else { return }
        switch entry.event {
        case .show where !onScreen[s]:
            onScreen[s] = true
            visible += 1
        case .gone where onScreen[s], .hide where onScreen[s] && !animated:
            onScreen[s] = false
            visible -= 1
        default: break
        }
    }
}
