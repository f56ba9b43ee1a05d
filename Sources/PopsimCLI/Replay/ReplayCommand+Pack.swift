import PopsimCore
import PopsimReports

extension ReplayCommand {
    /// The options that say how a trace is read: a pack was read when it was packed.
    static let readingOptions = ["columns", "time-unit", "time-zone", "event", "mapping", "trace-format", "grouped", "max-errors",
                                 "multiline-fields", "shard"]

    /// `--max-errors N` (0 when absent), a count past `TracePack.maxCount` read as that many: no
    /// trace has more rows, and `N + 1` (the errors kept) must not overflow.
    static func maxErrorsOption(_ args: Arguments, command: String = "replay") throws(PopsimError) -> Int {
        min(try nonNegative(args, "max-errors", command: command) ?? 0, TracePack.maxCount)
    }

    /// A pack given as the trace: opened, and checked against the catalog and the options.
    static func packedTrace(_ path: String, args: Arguments, catalogDigest: String) throws(PopsimError) -> TracePackFile {
        if let option = readingOptions.first(where: { args.flag($0) }) {
            throw PopsimError.usage("replay: --\(option): \(TerminalText.safe(path)) is a pack, read as it was packed; "
                                    + "to read the trace otherwise, pack it again with --\(option)")
        }
        let pack = try TracePackFile(path)
        guard pack.manifest.catalogDigest == catalogDigest else {
            throw PopsimError.io(path: path, reason: "packed against another catalog (\(pack.manifest.catalogDigest)): "
                                 + "replay it with the catalog it was packed with, or pack the trace again with this one")
        }
        return pack
    }

    /// What reading the trace found, as the report and a pack's manifest say it (a pack's replay
    /// takes it from the manifest; `users` and `blocks` are the pack writer's to set).
    static func reading(_ pass: ReplayPass, source: TraceSource, path: String, layout: TraceLayout, maxErrors: Int,
                        catalogDigest: String) -> TracePack.Manifest {
        let unmapped = pass.unmapped
        var manifest = TracePack.Manifest(trace: path, traceBytes: source.bytes, traceDigest: source.digest.text, catalogDigest: catalogDigest,
                                          reading: readingLines(layout), maxErrors: maxErrors, rows: pass.rows,
                                          badRows: pass.errors.count - pass.userErrors, userErrors: pass.userErrors, skippedUsers: pass.skippedUsers,
                                          hasProduction: pass.sawShown, hasTriggers: pass.sawTrigger,
                                          unmapped: unmapped.counts.map { ($0.key, $0.value) }, users: 0, blocks: [])
        manifest.unmappedUnlisted = unmapped.unlisted
        return manifest
    }

    /// `--pack FILE`: where to write the pack, checked before anything is read.
    static func packOption(_ args: Arguments, packed: Bool) throws(PopsimError) -> String? {
        guard let path = args.value("pack") else { return nil }
        if packed { throw PopsimError.usage("replay: --pack: the trace is a pack already") }
        if args.value("shard") != nil {
            throw PopsimError.usage("replay: --pack: a pack holds the whole trace; replay the pack with --jobs instead of --shard")
        }
        try OutputGuard.refuse(output: path, option: "--pack", inputs: OutputGuard.inputs(args) + args.all("output"), command: "replay",
                               what: "the pack")
        if let output = args.value("output"), output == path {
            throw PopsimError.usage("replay: --pack \(TerminalText.safe(path)) is also --output: name another file for one of them")
        }
        return path
    }
}
