import PopsimCore

/// One figure's row of a replay's table: its label and a cell per column, each cell its text and
/// the number it stands for (`value`, in `unit`) — what a range over several models is read from
/// (`FitWhatIf`), where the text alone is what the tables print.
public struct ReplayRow: Sendable, Equatable {
    public var label: String
    public var cells: [ReplayCell]
}

/// A cell: its text, and the number behind it, if it has one.
public struct ReplayCell: Sendable, Equatable {
    public enum Unit: Sendable, Equatable {
        /// A count (of requests, users, popups).
        case count
        /// Milliseconds.
        case ms
        /// Tenths of a percent.
        case tenths
    }

    public var text: String
    public var value: Int?
    public var unit: Unit

    static let none = ReplayCell(text: "-", value: nil, unit: .count)
}

extension ReplayReport {
    /// A row per figure of `figures` (`ReplayFigure.all`, or a group's), a cell per column
    /// (production first when there is one): "-" where a figure does not apply. Drop reasons get a
    /// row when some column of the whole dropped for them (a group's rows have the whole's, 0
    /// where it has none); `shown`: the properties a group's rows show (nil: all, each `wait`
    /// per request as well).
    ///
    /// `every`: a row for every figure whatever the data (each reason a request may be dropped
    /// for, settling, agreement with production): the CSV's columns do not depend on the trace.
    public func rows(production: ReplayTally, columns tallies: [ReplayTally], figures: [ReplayFigure],
                     properties shown: [Int]? = nil, every: Bool = false) -> [ReplayRow] {
        let whole = self.tallies.columns
        let columns = (hasProduction ? [production] : []) + tallies
        let isProduction = (hasProduction ? [true] : []) + tallies.map { _ in false }
        var rows: [ReplayRow] = []
        func row(_ label: String, simulationOnly: Bool, _ cell: (ReplayTally) -> ReplayCell) {
            rows.append(ReplayRow(label: label, cells: zip(columns, isProduction).map { simulationOnly && $1 ? .none : cell($0) }))
        }
        func count(_ n: Int) -> ReplayCell { ReplayCell(text: String(n), value: n, unit: .count) }
        func ms(_ n: Int?) -> ReplayCell { n.map { ReplayCell(text: String($0), value: $0, unit: .ms) } ?? .none }
        func share(_ n: Int, of d: Int, _ text: String) -> ReplayCell {
            d > 0 ? ReplayCell(text: text, value: Self.tenths(n, of: d), unit: .tenths) : ReplayCell(text: text, value: nil, unit: .tenths)
        }
        for f in figures {
            let only = f.simulationOnly
            switch f.kind {
            case .count(let get, _, _): row(f.label, simulationOnly: only) { count(get($0)) }
            case .shown:
                row(f.label, simulationOnly: only) { ReplayCell(text: "\($0.shown) (\(Self.percent($0.shown, of: $0.requests)))", value: $0.shown, unit: .count) }
            case .drops:
                for (i, reason) in Reason.allCases.enumerated() where (every && reason.dropsRequest) || whole.contains(where: { $0.drops[i] > 0 }) {
                    row("\(f.label): \(reason.rawValue)", simulationOnly: only) { count($0.drops[i]) }
                }
            case .waits:
                for q in ReplayFigure.quantiles {
                    row("\(f.label) p\(q) (ms)", simulationOnly: only) { ms($0.waits.quantile(q)) }
                }
                row("\(f.label) max (ms)", simulationOnly: only) { ms($0.waits.max) }
            case .waitDistance:
                if hasProduction || every { row(f.label, simulationOnly: only) { hasProduction ? ms(WaitHistogram.distance($0.waits, production.waits)) : .none } }
            case .failures:
                for (i, text) in properties.enumerated() where shown?.contains(i) ?? true {
                    row("\(f.label): \(text)", simulationOnly: only) {
                        share($0.failures[i], of: $0.users, "\(Self.percent($0.failures[i], of: $0.users)) (\($0.failures[i]))")
                    }
                    // A wait, per request as well (the whole's table): a dropped request fails.
                    if shown == nil, Self.isWait(text) {
                        row("\(f.label) \(Self.perRequest): \(text)", simulationOnly: only) {
                            $0.judgedRequests[i] == 0 ? .none
                                : share($0.lateRequests[i], of: $0.judgedRequests[i],
                                        "\(Self.percent($0.lateRequests[i], of: $0.judgedRequests[i])) (\($0.lateRequests[i]))")
                        }
                    }
                }
            case .agreeing:
                if hasProduction || every {
                    row(f.label, simulationOnly: only) {
                        hasProduction ? share($0.agreeing, of: $0.users, "\(Self.percent($0.agreeing, of: $0.users)) (\($0.agreeing))") : .none
                    }
                    row(ReplayFigure.timingLabel, simulationOnly: only) {
                        hasProduction ? share($0.timed, of: $0.users, "\(Self.percent($0.timed, of: $0.users)) (\($0.timed))") : .none
                    }
                }
            case .unsettled:
                if every || whole.contains(where: { $0.unsettled > 0 }) { row(f.label, simulationOnly: only) { count($0.unsettled) } }
            }
        }
        return rows
    }
}
