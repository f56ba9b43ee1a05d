import PopsimCore
import PopsimReports

/// Which scenarios `check` runs, and against which expected timelines.
///
/// Contract: a directory contributes every `*.json` below it (recursively, hidden folders
/// skipped), sorted bytewise by path; a file stands for itself; order is kept and repeats dropped.
/// A scenario's expectations are its goldens `<stem>.<label>.timeline` — every one beside it,
/// whatever produced it (CheckTarget.swift) — plus its own `strategy` when that golden is missing
/// (a failure that says how to record it). `--strategy`, repeatable, names the strategies instead.
public enum Expectations {
    /// A file to check, and whether a folder scan found it (rather than the command line).
    public struct Found: Sendable, Equatable {
        public var path: String
        public var inFolder: Bool
        /// A `.json` in a folder that is a FIFO, a socket or a device: reported, never opened.
        public var notRegular = false
    }

    public static func scenarios(in arguments: [String]) throws(FileIO.Failure) -> [Found] {
        var out: [Found] = []
        var seen = Set<String>()
        for argument in arguments {
            if FileIO.isDirectory(argument) {
                for (path, regular) in try jsonFiles(under: argument) where seen.insert(path).inserted {
                    out.append(Found(path: path, inFolder: true, notRegular: !regular))
                }
            } else if seen.insert(argument).inserted {
                out.append(Found(path: argument, inFolder: false))
            }
        }
        return out
    }

    /// Every `*.json` below `directory`, with whether it is a regular file. Symlinks to folders are
    /// not followed (a link loop cannot make the walk endless); symlinks to files are taken.
    static func jsonFiles(under directory: String) throws(FileIO.Failure) -> [(String, Bool)] {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var out: [(String, Bool)] = []
        for name in try FileIO.list(directory) where !name.hasPrefix(".") {
            let path = base + "/" + name
            switch FileIO.kind(of: path) {
            case .directory: out += try jsonFiles(under: path)
            case .regular where name.hasSuffix(".json"): out.append((path, true))
            case .other where name.hasSuffix(".json"): out.append((path, false))
            default: break
            }
        }
        return out.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
    }
}
