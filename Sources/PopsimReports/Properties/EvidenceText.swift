import PopsimCore

/// The words for what the core finds as data: what broke a property (`Evidence`), why one holds
/// only in part (`PartialHold`), and what a counterexample changes (`VariantChange`). The one
/// place these sentences are written; every report reads them here.
public enum EvidenceText {
    public static func text(_ e: Evidence) -> String {
        switch e {
        case .warning(let subject, let reason, let at): return "warning \(subject) \(reason.rawValue) at \(at) ms"
        case .stillQueued(let names, let end): return list(names) + " still queued at the end (\(end) ms)"
        case .neverShown(let name, let enqueued): return "\(name) never shown" + (enqueued ? "" : " (never enqueued)")
        case .shown(let name, let at): return "\(name) shown at \(at) ms"
        case .shownFirst(let name, let at, let other, let otherAt):
            return "\(name) shown at \(at) ms, " + (otherAt.map { "\(other) at \($0) ms" } ?? "\(other) never")
        case .waited(let name, let requested, let shown):
            return "\(name) waited \(shown - requested) ms (requested at \(requested) ms, shown at \(shown) ms)"
        case .stillWaiting(let name, let requested, let end):
            return "\(name) requested at \(requested) ms, still not shown at the end (\(end) ms)"
        case .onScreen(let count, let at, let names): return "\(count) on screen at \(at) ms: " + list(names)
        case .shows(let count, let of, let from, let to, let window):
            let whose = of.map { " of \($0)" } ?? ""
            return "\(count) show\(count == 1 ? "" : "s")\(whose) from \(from) to \(to) ms, within \(window) ms"
        }
    }

    public static func text(_ note: PartialHold) -> String {
        let first = note.dropped.first ?? 0
        let when = note.dropped.count == 1 ? "at \(first) ms" : "\(note.dropped.count) times from \(first) ms"
        return note.shown ? "\(note.name) was also dropped \(when); a dropped request's wait is not judged"
            : "\(note.name) was dropped \(when) and never shown; a dropped request's wait is not judged"
    }

    public static func text(_ change: VariantChange) -> String {
        let what: String, verb: String
        switch change.subject {
        case .popup(let name): (what, verb) = (name, "arrives")
        case .batch(let names): (what, verb) = ("[" + shortList(names) + "]", "arrive")
        case .event(let index, let keyword): (what, verb) = ("events[\(index)] (\(keyword))", "happens")
        }
        switch change.kind {
        case .absent: return "\(what) never \(verb)"
        case .moved(let to, let from): return "\(what) \(verb) at \(to) instead of \(from)"
        case .reordered(let names): return "\(what) arrive as " + shortList(names)
        }
    }

    /// `a, b, c` — or the first eight and `… (2000 popups)` for a large batch.
    static func shortList(_ names: [String]) -> String {
        names.count <= 8 ? names.joined(separator: ", ") : names.prefix(8).joined(separator: ", ") + ", … (\(names.count) popups)"
    }

    /// "a, b and 3 more".
    static func list(_ names: [String]) -> String {
        names.count <= 3 ? names.joined(separator: ", ") : names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more"
    }
}

extension PropertyVerdict.Failure {
    /// Its evidence in words.
    public var text: String { EvidenceText.text(evidence) }
}

extension PropertyVerdict {
    /// Its note in words, if it holds only in part.
    public var noteText: String? { note.map(EvidenceText.text) }
}
