/// A loaded, validated scenario: everything a run needs, with popups and state interned.
public struct Scenario: Sendable {
    /// The path the scenario was read from, as the user wrote it (used in every message).
    public var file: String
    public var name: String
    public var description: String?
    /// The strategy the file names, if any; the caller may override it.
    public var strategy: String?
    /// A policy file the scenario names (`"policy"`), as written: relative to the scenario's
    /// folder. Its rules stand in for the `policy` strategy's defaults (reading it is the
    /// caller's: loading does no I/O).
    public var policyFile: String?
    /// The file's `options`, validated against `strategy`, in file order.
    public var options: [OptionSetting]
    public var state: StateSchema
    public var popups: [Popup]
    /// Where each popup's fields stand in the file (`Popup.locationStart`), for messages.
    public var fieldLocations = FieldLocations()
    /// The script, stably sorted by `at` (equal times keep file order).
    public var events: [ScenarioEvent]
    public var until: Int?
    /// The properties every run must keep (`expect`), in file order.
    public var expectations: [Expectation] = []
    /// What the script leaves open (`"at": [lo, hi]`, `"order": "any"`, `"maybe": true`), in
    /// file order; events hold the nominal variant.
    public var uncertainties: [Uncertainty] = []

    public func popupID(named name: String) -> PopupID? {
        popups.firstIndex { $0.name == name }.map(PopupID.init)
    }

    public func name(of id: PopupID) -> String { popups[Int(id.index)].name }

    public subscript(id: PopupID) -> Popup { popups[Int(id.index)] }
}

/// One timed entry of the script: 32 bytes, because a generated script may hold millions.
public struct ScenarioEvent: Sendable {
    public var at: Int
    public var action: Action
    private var index32: Int32
    private var line32: Int32
    private var column32: Int32

    public init(at: Int, action: Action, index: Int, location: SourceLocation) {
        self.at = at
        self.action = action
        index32 = Int32(clamping: index)
        line32 = Int32(clamping: location.line)
        column32 = Int32(clamping: location.column)
    }

    /// The same event read from a piece of the file: its index and line counted from the
    /// piece's start, made absolute (ScenarioLoader+ReadAhead.swift).
    func shifted(index offset: Int, lines: Int) -> ScenarioEvent {
        var event = self
        event.index32 = Int32(clamping: Int(index32) + offset)
        event.line32 = Int32(clamping: Int(line32) + lines)
        return event
    }

    /// Its index in the file's `events` array, for messages.
    public var index: Int { Int(index32) }

    /// Where it starts in the file, for messages.
    public var location: SourceLocation { SourceLocation(line: Int(line32), column: Int(column32)) }
}

/// An option value as set in a file or by the caller.
public struct OptionSetting: Sendable, Equatable {
    public var name: String
    public var value: OptionValue

    public init(name: String, value: OptionValue) {
        self.name = name
        self.value = value
    }
}

/// The value of a strategy option.
public enum OptionValue: Sendable, Equatable, CustomStringConvertible {
    case integer(Int)
    case text(String)

    public var description: String {
        switch self {
        case .integer(let n): return String(n)
        case .text(let s): return s
        }
    }
}
