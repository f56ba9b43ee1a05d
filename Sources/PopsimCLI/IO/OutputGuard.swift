import PopsimCore
import PopsimReports
import PopsimSystem

/// An output never replaces one of the command's own inputs (issue 41): `replay T --output T`,
/// `run s.json --output s.json` or a link to either would write the report over what it was made
/// from. Files are the same when their device and inode are (any name, a link, a hard link);
/// devices, FIFOs and descriptors (`/dev/stdout`) are never a clash.
enum OutputGuard {
    /// Throws when `output` (an option's value, named `option` in the message) is an existing
    /// regular file that one of `inputs` also is (by device and inode; `-`: standard input).
    static func refuse(output: String?, option: String = "--output", inputs: [String], command: String,
                       what: String = "the report") throws(PopsimError) {
        guard let output, let input = input(among: inputs, beingFile: output) else { return }
        let same = input == "-" ? "standard input, one of its inputs" : input == output ? "one of its inputs" : "\(TerminalText.safe(input)), one of its inputs"
        throw PopsimError.usage("\(command): \(option) \(TerminalText.safe(output)) is \(same): writing \(what) there would replace it; "
                                + "name another file")
    }

    /// The one of `inputs` that `path`, an existing regular file, is (by device and inode: any
    /// name, link or hard link; `-` is standard input, a file redirected to it an input too).
    static func input(among inputs: [String], beingFile path: String) -> String? {
        guard let out = System.fileInfo(path), out.kind == .regular else { return nil }
        return inputs.first { input in
            let info = input == "-" ? System.fileInfo(descriptor: 0) : System.fileInfo(input)
            return info.map { $0.kind == .regular && $0.device == out.device && $0.inode == out.inode } ?? false
        }
    }

    /// The files a command reads by the options every command shares: its positionals (scenarios,
    /// a trace, shard reports), `--catalog`, `--policy`, `--mapping`, and plug-ins' files.
    static func inputs(_ args: Arguments, catalogIsInput: Bool = true) -> [String] {
        var out = args.positionals
        for name in ["policy", "mapping"] + (catalogIsInput ? ["catalog"] : []) { out += args.all(name) }
        out += args.all("strategy").compactMap { spec in
            spec.hasPrefix(StrategySet.execPrefix) ? String(spec.dropFirst(StrategySet.execPrefix.count).prefix { $0 != " " }) : nil
        }
        return out
    }

    /// Throws when two outputs of one command (`first` and `second`, options named so in the
    /// message) would be one file: by device and inode when both exist, else by the path a
    /// write goes to (symlinks followed, made absolute, `.` and `..` taken out), so two files
    /// not made yet are told apart too (`gen --trace --catalog X --output X`).
    static func refuseOneFile(_ first: (option: String, path: String?), _ second: (option: String, path: String?), command: String) throws(PopsimError) {
        guard let a = first.path, let b = second.path else { return }
        let same: Bool
        if let x = System.fileInfo(a), let y = System.fileInfo(b) {
            same = x.device == y.device && x.inode == y.inode
        } else {
            same = absolute(FileIO.resolved(a)) == absolute(FileIO.resolved(b))
        }
        guard same else { return }
        throw PopsimError.usage("\(command): \(first.option) and \(second.option) name one file (\(TerminalText.safe(b))): "
                                + "the second write would replace the first; name two files")
    }

    /// `path` from the root, without `.`, `..` or empty components (its folder's own symlinks
    /// are not followed: two names of one folder through a link stay two).
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : (System.currentDirectory() ?? "") + "/" + path
        return ProjectFiles.normalised(full)
    }

    /// Throws when `check`'s JUnit report (`--junit`) would be written to a golden's name (a
    /// `.timeline` file) or a project file's (`.popsim.json`): check reads both, and a golden it
    /// just passed replaced by XML fails every later check. By name, so that a golden `--update`
    /// is about to write is refused as well as one that exists.
    static func refuseJUnit(_ path: String?) throws(PopsimError) {
        guard let path else { return }
        let target = FileIO.resolved(path)
        let name = target.split(separator: "/").last.map(String.init) ?? target
        guard name.hasSuffix(".timeline") || name == ".popsim.json" else { return }
        let what = name == ".popsim.json" ? "a project file's" : "a golden's"
        throw PopsimError.usage("check: --junit \(TerminalText.safe(path)) is \(what) name: check reads it, and the report would replace it; name another file")
    }
}
