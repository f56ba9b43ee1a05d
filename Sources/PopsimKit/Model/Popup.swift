/// One popup the scenario may enqueue, with every field of design.md §2.
///
/// Fields a strategy does not model are kept anyway: `popsim lint` reports them, and a later
/// strategy may use them. `nil` means "not set in the file" so that strategy defaults apply.
public struct Popup: Sendable {
    public var name: String
    public var priority: Int?
    public var when: Condition?
    /// The `when` text as written, for messages.
    public var whenText: String?
    public var untriggered: UntriggeredBehavior
    public var switchBehavior: SwitchBehavior
    public var duration: Int?
    public var respond: Response?
    public var then: [ButtonActions]
    public var key: String?
    public var level: Level?
    public var showMs: Int?
    public var hideMs: Int?
    /// The fields the file sets, in file order, for `lint`.
    public var fieldsSet: [PopupField]
    /// Where the value of each field of `fieldsSet` stands in the file.
    public var fieldLocations: [SourceLocation]

    public init(name: String) {
        self.name = name
        untriggered = .await
        switchBehavior = .await
        then = []
        fieldsSet = []
        fieldLocations = []
    }

    /// Where `field` is set in the file, if it is.
    public func location(of field: PopupField) -> SourceLocation? {
        fieldsSet.firstIndex(of: field).map { fieldLocations[$0] }
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
}

/// What a strategy with conditions does with a popup whose condition fails when its turn comes.
public enum UntriggeredBehavior: String, Sendable, CaseIterable {
    case await, discard
}

/// What happens to a shown popup when a more important one arrives.
public enum SwitchBehavior: String, Sendable, CaseIterable {
    case await, discard, latent
}

/// The two levels of two-level strategies (SSPPopupCenter).
public enum Level: String, Sendable, CaseIterable {
    case normal, high
}

/// The optional fields of a popup, in the order design.md lists them.
public enum PopupField: String, Sendable, CaseIterable {
    case priority, when, untriggered
    case switchBehavior = "switch"
    case duration, respond, then, key, level, showMs, hideMs
}
