import Dispatch
import PopsimCore
import PopsimReports
import PopsimSystem

/// Finds and reads the project file (`.popsim.json`) that governs a scenario: the nearest one in
/// its folder or a folder above it. Each file is read once per command, whatever the number of
/// jobs asking.
final class ProjectFiles: Sendable {
    private let cache = System.Locked([String: Result<(ProjectFile, folder: String)?, PopsimError>]())
    private let maxBytes: Int
    private let workingFolder: String?

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
        workingFolder = System.currentDirectory()
    }

    /// The project file for `scenarioPath` and its folder as a path from the working folder
    /// (`.` for the working folder itself), nil when there is none.
    func project(for scenarioPath: String) -> Result<(ProjectFile, folder: String)?, PopsimError> {
        guard let start = absoluteFolder(of: scenarioPath) else { return .success(nil) }
        var folder = start
        while true {
            let candidate = (folder == "/" ? "" : folder) + "/" + ProjectFile.fileName
            if FileIO.kind(of: candidate) == .regular { return read(candidate, folder: display(folder)) }
            // Something is there but cannot be read as a file (a folder, a FIFO, a link to nothing
            // or a loop): that is the project file, unreadable — not "no project file".
            if System.fileInfo(candidate, followLinks: false) != nil { return unreadable(candidate, folder: display(folder)) }
            guard folder != "/", let slash = folder.lastIndex(of: "/") else { return .success(nil) }
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
        }
    }

    private func read(_ path: String, folder: String) -> Result<(ProjectFile, folder: String)?, PopsimError> {
        cache.withLock { cache in
            if let known = cache[path] { return known }
            let shown = folder == "." ? ProjectFile.fileName : folder + "/" + ProjectFile.fileName
            let result: Result<(ProjectFile, folder: String)?, PopsimError>
            do throws(FileIO.Failure) {
                let bytes = try FileIO.read(path, maxBytes: maxBytes)
                switch ScenarioLoader.loadProject(bytes, file: shown) {
                case .success(let project): result = .success((project, folder))
                case .failure(let errors): result = .failure(.input(errors))
                }
            } catch {
                result = .failure(.input(LoadErrors([LoadError(file: shown, location: nil, path: .root, problem: .unreadable(error.reason))])))
            }
            cache[path] = result
            return result
        }
    }

    private func unreadable(_ path: String, folder: String) -> Result<(ProjectFile, folder: String)?, PopsimError> {
        let shown = folder == "." ? ProjectFile.fileName : folder + "/" + ProjectFile.fileName
        let what: String
        switch FileIO.kind(of: path) {
        case .directory, .linkToDirectory: what = "it is a folder"
        case .missing: what = "it is a link to nothing (or a loop of links)"
        default: what = "it is not a regular file (a FIFO, a socket or a device)"
        }
        return .failure(.input(LoadErrors([LoadError(file: shown, location: nil, path: .root, problem: .unreadable("cannot read it: " + what))])))
    }

    private func absoluteFolder(of path: String) -> String? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let absolute: String
        if folder.hasPrefix("/") {
            absolute = folder
        } else {
            guard let cwd = workingFolder else { return nil }
            absolute = cwd + "/" + folder
        }
        return Self.normalised(absolute)
    }

    /// An absolute path without `.`, `..` or empty components.
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// An absolute folder as a path from the working folder when it is inside it.
    private func display(_ folder: String) -> String {
        guard let cwd = workingFolder.map(Self.normalised) else { return folder }
        if folder == cwd { return "." }
        if folder.hasPrefix(cwd == "/" ? "/" : cwd + "/") { return String(folder.dropFirst(cwd == "/" ? 1 : cwd.count + 1)) }
        return folder
    }
}
