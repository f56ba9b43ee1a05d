import PopsimCore
import PopsimReports
import PopsimSystem

/// An output never replaces one of the command's own inputs (issue 41): `replay T --output T`,
/// `run s.json --output s.json` or a link to either would write the report over what it was made
/// from. Files are the same when their device and inode are (any name, a link, a hard link);
/// devices, FIFOs and descriptors (`/dev/stdout`) are never a clash.
enum OutputGuard {
    /// Throws when `output` (an option's value, named `option` in the message) is an existing
    /// regular file that one of `inputs` also is.
    static func refuse(output: String?, option: String = "--output", inputs: [String], command: String,
                       what: String = "the report") throws(PopsimError) {
        guard let output, let out = System.fileInfo(output), out.kind == .regular else { return }
        for input in inputs where input != "-" {
            guard let info = System.fileInfo(input), info.kind == .regular, info.device == out.device, info.inode == out.inode else { continue }
            let same = input == output ? "one of its inputs" : "\(TerminalText.safe(input)), one of its inputs"
            throw PopsimError.usage("\(command): \(option) \(TerminalText.safe(output)) is \(same): writing \(what) there would replace it; "
                                    + "name another file")
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
}
