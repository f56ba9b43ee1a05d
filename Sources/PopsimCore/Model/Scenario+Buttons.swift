/// Which buttons of each popup the scenario ever presses, and the `then` keys nothing presses.
extension Scenario {
    /// Per popup, whether anything in the script (events or `then` lists) can take it off screen:
    /// a `dismiss`, `press` or `remove` of it, or any `clear`, `clearScreen` or `clearUpTo`.
    public func somethingTakesOff() -> [Bool] {
        var out = [Bool](repeating: false, count: popups.count)
        var clears = false
        func note(_ action: Action) {
            switch action {
            case .dismiss(let p), .press(let p, _), .remove(let p): out[Int(p.index)] = true
            case .clear, .clearScreen, .clearUpTo: clears = true
            case .navigate(_, let then): for a in then { note(a) }
            default: break
            }
        }
        for event in events { note(event.action) }
        for popup in popups { for buttons in popup.then { for a in buttons.actions { note(a) } } }
        return clears ? out.map { _ in true } : out
    }

    /// Which popups anything in the scenario enqueues (a script event, a `then`, a navigation's
    /// actions), by popup index: a popup no one enqueues can never show.
    public func somethingEnqueues() -> [Bool] {
        var out = [Bool](repeating: false, count: popups.count)
        func note(_ action: Action) {
            switch action {
            case .enqueue(let p): out[Int(p.index)] = true
            case .enqueueMany(let list): for p in list { out[Int(p.index)] = true }
            case .navigate(_, let then): for a in then { note(a) }
            default: break
            }
        }
        for event in events { note(event.action) }
        for popup in popups { for buttons in popup.then { for a in buttons.actions { note(a) } } }
        return out
    }

    /// A `then` entry of a popup that nothing in the scenario presses.
    public struct UnpressedButton: Sendable {
        public var popup: PopupID
        public var button: String
        public var location: SourceLocation?
        /// The buttons of that popup that something does press.
        public var pressed: [String]
    }

    /// Buttons pressed are `close` (every dismissal), the buttons of the popup's answers
    /// (`respond`, show by show or for every show), and every `press` of it in the script or in a
    /// `then` list.
    /// - Complexity: O(events) only when some `then` key is neither `close` nor the popup's
    ///   `respond.button` (otherwise nothing can be unpressed and the script is not read).
    public func unpressedButtons() -> [UnpressedButton] {
        let doubtful = popups.contains { popup in
            popup.then.contains { $0.button != "close" && $0.button != popup.respond?.button }
        }
        guard doubtful else { return [] }
        var pressed = popups.map { popup in ["close"] + popup.answeredButtons.filter { $0 != "close" } }
        func note(_ action: Action) {
            switch action {
            case .press(let p, let button) where !pressed[Int(p.index)].contains(button):
                pressed[Int(p.index)].append(button)
            case .navigate(_, let then): for a in then { note(a) }
            default: break
            }
        }
        for event in events { note(event.action) }
        for popup in popups { for buttons in popup.then { for a in buttons.actions { note(a) } } }
        var out: [UnpressedButton] = []
        for (i, popup) in popups.enumerated() {
            for buttons in popup.then where !pressed[i].contains(buttons.button) {
                out.append(UnpressedButton(popup: PopupID(i), button: buttons.button, location: buttons.location, pressed: pressed[i]))
            }
        }
        return out
    }
}
