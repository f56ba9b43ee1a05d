/// A loaded, validated scenario: everything a run needs, with popups and state interned.
///
/// What a run reads (the name, state, popups, script and end) is stored in the value; the rest,
/// read only around a run (the file, description, strategy, policy, options, locations,
/// properties, uncertainties), sits in one shared box (`Details`) copied on write. A copy is made
/// per run and kept in its result: a replay makes two a user, and each retained and released 13
/// references (~60 atomic operations a user), now 6.
public struct Scenario: Sendable {
    /// The path the scenario was read from, as the user wrote it (used in every message).
    public var file: String {
        get { details.file }
        _modify {
            uniqueDetails()
            yield &details.file
        }
    }
    public var name: String
    public var description: String? {
        get { details.description }
        _modify {
            uniqueDetails()
            yield &details.description
        }
    }
    /// The strategy the file names, if any; the caller may override it.
    public var strategy: String? {
        get { details.strategy }
        _modify {
            uniqueDetails()
            yield &details.strategy
        }
    }
    /// A policy file the scenario names (`"policy"`), as written: relative to the scenario's
    /// folder. Its rules stand in for the `policy` strategy's defaults (reading it is the
    /// caller's: loading does no I/O).
    public var policyFile: String? {
        get { details.policyFile }
        _modify {
            uniqueDetails()
            yield &details.policyFile
        }
    }
    /// The file's `options`, validated against `strategy`, in file order.
    public var options: [OptionSetting] {
        get { details.options }
        _modify {
            uniqueDetails()
            yield &details.options
        }
    }
    public var state: StateSchema
    public var popups: [Popup]
    /// Where each popup's fields stand in the file (`Popup.locationStart`), for messages.
    public var fieldLocations: FieldLocations {
        get { details.fieldLocations }
        _modify {
            uniqueDetails()
            yield &details.fieldLocations
        }
    }
    /// The script, stably sorted by `at` (equal times keep file order).
    public var events: [ScenarioEvent]
    public var until: Int?
    /// The properties every run must keep (`expect`), in file order.
    public var expectations: [Expectation] {
        get { details.expectations }
        _modify {
            uniqueDetails()
            yield &details.expectations
        }
    }
    /// What the script leaves open (`"at": [lo, hi]`, `"order": "any"`, `"maybe": true`), in
    /// file order; events hold the nominal variant.
    public var uncertainties: [Uncertainty] {
        get { details.uncertainties }
        _modify {
            uniqueDetails()
            yield &details.uncertainties
        }
    }

    private var details: Details

    init(file: String, name: String, description: String?, strategy: String?, policyFile: String? = nil,
                options: [OptionSetting], state: StateSchema, popups: [Popup], fieldLocations: FieldLocations = FieldLocations(),
                events: [ScenarioEvent], until: Int?, expectations: [Expectation] = [], uncertainties: [Uncertainty] = []) {
        self.name = name
        self.state = state
        self.popups = popups
        self.events = events
        self.until = until
        details = Details(file: file, description: description, strategy: strategy, policyFile: policyFile, options: options,
                          fieldLocations: fieldLocations, expectations: expectations, uncertainties: uncertainties)
    }

    /// The fields read only around a run. `@unchecked Sendable`, audited: a box is changed only
    /// through `uniqueDetails`, when no other value holds it; shared, it is only read.
    private final class Details: @unchecked Sendable {
        var file: String
        var description: String?
        var strategy: String?
        var policyFile: String?
        var options: [OptionSetting]
        var fieldLocations: FieldLocations
        var expectations: [Expectation]
        var uncertainties: [Uncertainty]

        init(file: String, description: String?, strategy: String?, policyFile: String?, options: [OptionSetting],
             fieldLocations: FieldLocations, expectations: [Expectation], uncertainties: [Uncertainty]) {
            self.file = file
            self.description = description
            self.strategy = strategy
            self.policyFile = policyFile
            self.options = options
            self.fieldLocations = fieldLocations
            self.expectations = expectations
            self.uncertainties = uncertainties
        }

        func copy() -> Details {
            Details(file: file, description: description, strategy: strategy, policyFile: policyFile, options: options,
                    fieldLocations: fieldLocations, expectations: expectations, uncertainties: uncertainties)
        }
    }

    /// Makes the box this value's own before a change (copy on write).
    private mutating func uniqueDetails() {
        if !isKnownUniquelyReferenced(&details) { details = details.copy() }
    }

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
