/// One popup the scenario may enqueue, with every field of design.md §2.
///
/// Fields a strategy does not model are kept anyway: `popsim lint` reports them, and a later
/// strategy may use them. `nil` means "not set in the file" so that strategy defaults apply.
public struct Popup: Sendable {
    public var name: String
    public var when: Condition?
    /// The `when` text as written, for messages.
    public var whenText: String?
    public var untriggered: UntriggeredBehavior
    public var switchBehavior: SwitchBehavior
    /// The answer to every show past `respondByShow` (all of them when that list is empty).
    public var respond: Response?
    /// The answer to each show in turn, the first show first (`nil`: nobody answers that show);
    /// past the list, `respond` answers. A file's list sets `respond` to its last answer; replay
    /// sets production's answers show by show (docs/replay.md, "What a user does").
    public var respondByShow: [Response?] = []
    public var then: [ButtonActions]
    public var key: String?
    public var level: Level?
    /// What its arrival does when the slot is busy (strategies with a per-popup choice: entrykit).
    public var arrival: Arrival?
    /// Its arrival empties the queue first (SwiftEntryKit's `dropEnqueuedEntries`).
    public var dropQueued = false
    /// Popups with the same key are duplicates for strategies that dedupe (default: the name).
    public var dedupeKey: String?
    /// The fields the file sets, for `lint`.
    public var fieldsSet = PopupFieldSet()
    /// Where its fields' places start in its scenario's `fieldLocations` (-1: none recorded).
    public var locationStart: Int32 = -1
    /// The integer fields, packed (eight `Int?` took 128 bytes a popup; a file may declare a million).
    private var numbers = PopupNumbers()

    public var priority: Int? {
        get { numbers[.priority] }
        set { numbers[.priority] = newValue }
    }

    /// What an unset `priority` is (`normal`): the strategies that rank by priority and
    /// `clearUpTo` read it so.
    public static let normalPriority = 100

    /// How long it stays once shown before hiding itself; `nil` means the strategy's default.
    public var duration: DisplayTime? {
        get { numbers.duration }
        set { numbers.duration = newValue }
    }

    public var showMs: Int? {
        get { numbers[.showMs] }
        set { numbers[.showMs] = newValue }
    }

    public var hideMs: Int? {
        get { numbers[.hideMs] }
        set { numbers[.hideMs] = newValue }
    }

    /// It joins the queue only this long after its enqueue; a `remove` meanwhile cancels it.
    public var delayMs: Int? {
        get { numbers[.delayMs] }
        set { numbers[.delayMs] = newValue }
    }

    /// Once shown, a hide asked by the app waits until it has been visible this long.
    public var minMs: Int? {
        get { numbers[.minMs] }
        set { numbers[.minMs] = newValue }
    }

    /// Time to live from its enqueue: not shown after that (`drop … expired`).
    public var ttlMs: Int? {
        get { numbers[.ttlMs] }
        set { numbers[.ttlMs] = newValue }
    }

    /// Lifetime cap: it is shown at most this many times (`drop … quota` after).
    public var maxShows: Int? {
        get { numbers[.maxShows] }
        set { numbers[.maxShows] = newValue }
    }

    public init(name: String) {
        self.name = name
        untriggered = .await
        switchBehavior = .await
        then = []
    }

    /// Records that the file sets `field` (once), its value at `location`, in `locations`: a
    /// popup records its fields one after another, with no other popup's in between.
    mutating func record(_ field: PopupField, at location: SourceLocation, in locations: inout FieldLocations) {
        guard !fieldsSet.contains(field) else { return }
        if fieldsSet.isEmpty { locationStart = Int32(clamping: locations.count) }
        locations.append(field, location)
        fieldsSet.insert(field)
    }

    /// What dedupe compares: its `dedupeKey`, else its name.
    public var dedupeID: String { dedupeKey ?? name }

    /// The answer to its show number `k` (0: the first), if anyone answers it.
    @inline(__always)
    public func answer(toShow k: Int) -> Response? {
        k < respondByShow.count ? respondByShow[k] : respond
    }

    /// Every button some answer presses, each once, in the order they first answer.
    public var answeredButtons: [String] {
        var out: [String] = []
        for r in respondByShow + [respond] {
            if let b = r?.button, !out.contains(b) { out.append(b) }
        }
        return out
    }

    /// The actions of `button`, or none.
    public func actions(for button: String) -> [Action] {
        then.first { $0.button == button }?.actions ?? []
    }
}

/// The simulated user's answer to a popup: press `button` `after` ms once it is fully shown.
public struct Response: Sendable, Equatable {
    public var after: Int
    public var button: String
}

/// The actions that one button of a popup sets off.
public struct ButtonActions: Sendable {
    public var button: String
    public var actions: [Action]
    /// Where the button's key stands in the file.
    public var location: SourceLocation?
}

/// What a strategy with conditions does with a popup whose condition fails when its turn comes.
public enum UntriggeredBehavior: String, Sendable, CaseIterable {
    case await, discard
}

/// What happens to a shown popup when a more important one arrives.
public enum SwitchBehavior: String, Sendable, CaseIterable {
    case await, discard, latent
}

/// A popup's display time: milliseconds, or until something else hides it.
public enum DisplayTime: Sendable, Equatable {
    case ms(Int)
    case forever
}

/// What a popup's arrival does when another is on screen.
public enum Arrival: String, Sendable, CaseIterable {
    /// It waits its turn.
    case queue
    /// It takes the screen from the shown one (unless the strategy's gate stops it).
    case replace
}

/// The two levels of two-level strategies (SSPPopupCenter).
public enum Level: String, Sendable, CaseIterable {
    case normal, high
}
