import Foundation
import Testing
import PopsimCore
import PopsimReports
import PopsimCLI
import PopsimTestSupport

@Suite("popsim run, end to end", .serialized)
struct RunEndToEndTests {
    let demo = "Scenarios/jc-article-demo.json"

    @Test func printsTheTimelineOfABundledScenario() throws {
        let output = try runPopsim(["run", demo])
        #expect(output.status == 0)
        #expect(output.stderr == "")
        let golden = String(decoding: try FileIO.read(packageRoot.path + "/Scenarios/jc-article-demo.jc-fifo.timeline"), as: UTF8.self)
        #expect(output.stdout.hasPrefix("JCPresentQueue article demo · jc-fifo · showMs=400 hideMs=200 navMs=0\n" + golden + "\nsummary: 4 shown"))
    }

    @Test func sameInputSameBytesInTextAndJSON() throws {
        for format in ["text", "json"] {
            let a = try runPopsim(["run", demo, "--strategy", "jc-lifo", "--format", format])
            let b = try runPopsim(["run", demo, "--strategy", "jc-lifo", "--format", format])
            #expect(a.status == 0 && b.status == 0)
            #expect(a.stdout == b.stdout)
            #expect(!a.stdout.isEmpty)
        }
    }

    @Test func jsonOutputIsValidJSONInTheDesignsOrder() throws {
        let output = try runPopsim(["run", demo, "--format", "json"])
        #expect(output.status == 0)
        let value = try JSONReader.parse(Array(output.stdout.utf8))
        guard case .object(let members) = value.kind else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["popsim", "scenario", "strategy", "options", "timeline", "summary"])
        #expect(output.stdout.contains(#"{"t": 2810, "event": "show", "popup": "alert2"}"#) == false)
        #expect(output.stdout.contains(#"{"t": 1600, "event": "show", "popup": "alert2"}"#))
    }

    @Test func optionsAndStrategyFromTheCommandLine() throws {
        let output = try runPopsim(["run", demo, "--strategy", "jc-lifo", "--option", "showMs=0", "--option=hideMs=0"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("JCPresentQueue article demo · jc-lifo · showMs=0 hideMs=0 navMs=0\n"))
        #expect(output.stdout.contains("   0  hide     alert1  temporary\n"))
    }

    /// A strategy that ignores what the file uses says so on stderr, one line per kind; `--quiet`
    /// silences it.
    @Test func ignoredFieldsAreNotedOnStderr() throws {
        let output = try runPopsim(["run", "Scenarios/first-launch.json", "--strategy", "jc-fifo"])
        // Exit 1: under jc-fifo the upgrade prompt waits longer than the file's `expect` allows.
        #expect(output.status == 1)
        #expect(output.stderr == """
            Scenarios/first-launch.json: jc-fifo ignores the popup field 'priority' (set on 2 popups; see 'popsim lint')
            Scenarios/first-launch.json: jc-fifo ignores the popup field 'when' (set on 1 popup; see 'popsim lint')
            Scenarios/first-launch.json: jc-fifo ignores the popup field 'untriggered' (set on 1 popup; see 'popsim lint')
            Scenarios/first-launch.json: jc-fifo ignores the popup field 'switch' (set on 2 popups; see 'popsim lint')

            """)
        let quiet = try runPopsim(["run", "Scenarios/first-launch.json", "--strategy", "jc-fifo", "--quiet"])
        #expect(quiet.status == 1 && quiet.stderr == "" && quiet.stdout == output.stdout)
    }

    /// Several files as JSON are one document: an array of reports.
    @Test func severalFilesAsJSONAreOneArray() throws {
        let output = try runPopsim(["run", "Scenarios/jc-article-demo.json", "Scenarios/fg-clear.json", "--format", "json"])
        #expect(output.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]
        #expect(parsed?.map { $0["strategy"] as? String } == ["jc-fifo", "fg"])
    }

    /// The summary says what the end left behind: popups still up, script events never run.
    @Test func theSummarySaysWhatTheEndLeft() throws {
        let text = """
            {"popsim": 1, "strategy": "fg", "popups": {"a": {}, "b": {}},
             "events": [{"at": 0, "enqueue": ["a", "b"]}, {"at": 500, "dismiss": "a"}, {"at": 600, "dismiss": "b"}], "until": 100}
            """
        let output = try runPopsim(["run", "-"], stdin: text)
        #expect(output.stdout.contains("""
            summary: 1 shown, 0 dropped, 1 pending, 0 warnings, end 100 ms
            pending: b
            on screen at the end: a
            not run: 2 script events after until (100 ms)

            """))
    }

    /// What the bash completion `script` offers for `words`, asked as bash asks, in `directory`,
    /// written by the shell command `printing`.
    func offeredByBash(_ words: [String], script: URL, in directory: URL, printing: String) throws -> String {
        let call = "source '\(script.path)'; COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); "
            + "COMP_CWORD=\(words.count - 1); _popsim; " + printing
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", call]
        shell.currentDirectoryURL = directory
        let out = Pipe()
        shell.standardOutput = out
        try shell.run()
        let got = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        return got
    }

    /// `popsim completion bash` is valid bash naming every command and strategy; zsh and fish too.
    @Test func completionScripts() throws {
        let bash = try runPopsim(["completion", "bash"])
        #expect(bash.status == 0)
        for name in ["run", "check", "compare", "lint", "gen", "strategies", "schema", "completion"] + StrategyRegistry.names {
            #expect(bash.stdout.contains(name), "\(name)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-n"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(bash.stdout.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "bash -n rejects the script")
        // What bash offers, asked as bash asks (issue 25: subcommands, `all`, option names, .json only).
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("popsim.bash")
        try Data(bash.stdout.utf8).write(to: script)
        for (words, offered) in [
            (["popsim", "ex"], "explore"),
            (["popsim", "compare", "--strategy", "a"], "all adw-toast android-toast"),
            (["popsim", "run", "--strategy", "a"], "adw-toast android-toast"),
            (["popsim", "run", "Scenarios/jc-a"], "Scenarios/jc-arrival-during-present.json Scenarios/jc-article-demo.json"),
            (["popsim", "check", "--format", ""], "text json github"),
            (["popsim", "explore", "--format", ""], "text json"),
            (["popsim", "run", "--option", "slo"], "slots="),
            (["popsim", "explore", "--bud"], "--budget"),
            (["popsim", "help", "c"], "check compare completion"),
            (["popsim", "help", "o"], "options"),
            (["popsim", "completion", ""], "bash zsh fish"),
        ] {
            #expect(try offeredByBash(words, script: script, in: packageRoot, printing: "echo \"${COMPREPLY[*]}\"") == offered + "\n", "\(words)")
        }
        // Issue 30, item 13: a file name with spaces is one word, for a file and for a folder.
        try Data().write(to: dir.appendingPathComponent("my report.txt"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("saved cases"), withIntermediateDirectories: false)
        for (words, offered) in [(["popsim", "run", "--output", "my"], "my report.txt|"),
                                 (["popsim", "explore", "--save", "sa"], "saved cases|")] {
            #expect(try offeredByBash(words, script: script, in: dir, printing: "printf '%s|' \"${COMPREPLY[@]}\"") == offered, "\(words)")
        }
        // zsh and fish describe commands, options and strategies.
        let zsh = try runPopsim(["completion", "zsh"]).stdout
        #expect(zsh.hasPrefix("#compdef popsim\n"))
        #expect(zsh.contains("    'explore:Run every arrival order and timing a scenario leaves open; judge its properties.'\n"))
        #expect(zsh.contains("        '--budget[Variants at most per scenario]:budget: ' \\\n"))
        #expect(zsh.contains("'*--strategy[") && zsh.contains(#"all\:"every built-in strategy" adw-toast\:"libadwaita toast overlay  high priority"#))
        #expect(zsh.contains("        '*:scenario:_files -g \"*.json\"'\n"))
        let fish = try runPopsim(["completion", "fish"]).stdout
        #expect(fish.contains("complete -c popsim -n __fish_use_subcommand -a explore -d \"Run every arrival order and timing a scenario leaves open; judge its properties.\"\n"))
        #expect(fish.contains("complete -c popsim -n \"__fish_seen_subcommand_from compare\" -l strategy -d \"A strategy, optionally with options: name or name:option=value,option=value\" -x -a \"(__popsim_strategies all)\"\n"))
        #expect(fish.contains("    printf '%s\\t%s\\n' fg 'FGPopupScheduler 0.6.0: priority list with conditions, switch behaviours and suspend'\n"))
        let bad = try runPopsim(["completion", "tcsh"])
        #expect(bad.status == 2 && bad.stderr == "popsim: completion: expected one of bash, zsh, fish; got \"tcsh\"\n")
    }

    @Test func readsStandardInput() throws {
        let text = #"{"popsim": 1, "strategy": "jc-fifo", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#
        let output = try runPopsim(["run", "-"], stdin: text)
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("- · jc-fifo · showMs=400 hideMs=200 navMs=0\n  0  enqueue  a\n  0  show     a\n400  shown    a\n"))
    }

    @Test func outputFileIsWrittenWhole() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.json").path
        let output = try runPopsim(["run", demo, "--format", "json", "--output", target])
        #expect(output.status == 0 && output.stdout == "" && output.stderr == "")
        let printed = try runPopsim(["run", demo, "--format", "json"])
        #expect(String(decoding: try FileIO.read(target), as: UTF8.self) == printed.stdout)
    }

    @Test func aFailedRunLeavesNoOutputFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.json")
        try Data(#"{"popsim": 1, "until": "soon"}"#.utf8).write(to: bad)
        let target = dir.appendingPathComponent("out.txt").path
        let output = try runPopsim(["run", demo, bad.path, "--output", target])
        #expect(output.status == 2)
        #expect(output.stdout == "")
        #expect(output.stderr == "\(bad.path):1:24: until: expected an integer >= 0, got \"soon\"\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["bad.json"])
    }

    @Test func anUnwritableOutputIsAClearError() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("missing-folder/out.txt").path
        let output = try runPopsim(["run", demo, "--output", target])
        #expect(output.status == 2)
        #expect(output.stderr == "\(target): cannot write: No such file or directory\n")
        #expect(output.stdout == "")
    }

    @Test func colourOnlyWhenAskedOrOnATerminal() throws {
        let plain = try runPopsim(["run", demo])
        #expect(!plain.stdout.contains("\u{1B}["))
        let forced = try runPopsim(["run", demo, "--color", "always"])
        #expect(forced.stdout.contains("\u{1B}[32mshow\u{1B}[0m"))
        var console = Console(stdoutIsTerminal: true, environment: ["NO_COLOR": "1"])
        #expect(console.style(for: .auto) == .plain)
        console.environment = ["TERM": "dumb"]
        #expect(console.style(for: .auto) == .plain)
        console.environment = [:]
        #expect(console.style(for: .auto) == .color)
        #expect(console.style(for: .never) == .plain)
        #expect(Console(stdoutIsTerminal: false, environment: ["NO_COLOR": "1"]).style(for: .always) == .color)
    }

    @Test func updateIsRefusedOnCI() throws {
        let output = try runPopsim(["run", demo, "--update"], environment: ["CI": "true"])
        #expect(output.status == 2)
        #expect(output.stderr == "popsim: run: --update is refused when CI is set: expected timelines change only by hand\n")
    }

    @Test func updateWritesTheGoldenBesideTheScenario() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("s.json")
        try Data(#"{"popsim": 1, "strategy": "jc-fifo", "popups": {"a": {}}, "events": [{"at": 0, "enqueue": "a"}]}"#.utf8)
            .write(to: scenario)
        let first = try runPopsim(["run", "s.json", "--update"], in: dir)
        #expect(first.stdout == "updated s.jc-fifo.timeline\n" && first.status == 0)
        #expect(String(decoding: try FileIO.read(dir.path + "/s.jc-fifo.timeline"), as: UTF8.self)
                == "  0  enqueue  a\n  0  show     a\n400  shown    a\n")
        let second = try runPopsim(["run", "s.json", "--update"], in: dir)
        #expect(second.stdout == "unchanged s.jc-fifo.timeline\n")
    }
}

@Suite("usage errors and help, end to end")
struct UsageEndToEndTests {
    @Test(arguments: [
        (["rnu"], #"popsim: unknown command "rnu"; did you mean 'run'?; see 'popsim --help'"#),
        (["--verbose"], #"popsim: unknown option "--verbose"; see 'popsim --help'"#),
        (["run"], "popsim: run: expected at least one scenario file; see 'popsim help run'"),
        (["run", "x.json", "--formt", "json"], #"popsim: run: unknown option "--formt"; did you mean '--format'?"#),
        (["run", "x.json", "--format", "yaml"], #"popsim: run: --format: expected one of text, json, gantt, svg, html, trace; got "yaml""#),
        (["run", "x.json", "--strategy"], "popsim: run: --strategy needs a value"),
        (["run", "Scenarios/jc-article-demo.json", "--strategy", "fifo"],
         #"popsim: run: --strategy: unknown strategy "fifo" (known: \#(knownStrategies))"#),
        (["run", "Scenarios/jc-article-demo.json", "--option", "order=fifo"],
         #"popsim: run: --option: jc-fifo has no option "order" (its options: showMs, hideMs, navMs)"#),
        (["run", "Scenarios/jc-article-demo.json", "--option", "showMs=fast"],
         #"popsim: run: --option showMs: expected an integer >= 0, got "fast""#),
        (["run", "Scenarios/jc-article-demo.json", "--max-steps", "0"],
         #"popsim: run: --max-steps: expected an integer from 1 to 4398046511103, got "0""#),
        (["run", "a.json", "b.json", "--format", "svg"], "popsim: run: --format svg draws one scenario; run it once per file"),
        (["help", "chek"], #"popsim: help: unknown command "chek"; did you mean 'check'?"#),
        (["strategies", "extra"], #"popsim: strategies: unexpected argument "extra""#),
    ])
    func badUsageIsOneLineAndExitCode2(_ arguments: [String], _ message: String) throws {
        let output = try runPopsim(arguments)
        #expect(output.status == 2)
        #expect(output.stderr == message + "\n")
        #expect(output.stdout == "")
    }

    @Test func versionAndHelp() throws {
        let version = try runPopsim(["--version"])
        #expect(version.stdout == "popsim \(Popsim.version) (built from source, commit not recorded)\n" && version.status == 0 && version.stderr == "")
        let main = try runPopsim(["--help"])
        #expect(main.status == 0 && main.stderr == "")
        #expect(main.stdout.hasPrefix("OVERVIEW: popsim simulates how an app schedules its popups, on a virtual clock.\n"))
        for variant in [["-h"], ["help"], []] {
            #expect(try runPopsim(variant).stdout == main.stdout)
        }
        let run = try runPopsim(["help", "run"])
        for variant in [["run", "--help"], ["run", "-h"]] {
            #expect(try runPopsim(variant).stdout == run.stdout)
        }
        #expect(try runPopsim(["strategies", "--help"]).stdout == runPopsim(["help", "strategies"]).stdout)
    }

    @Test func runHelpIsVerbatim() throws {
        let run = try runPopsim(["help", "run"])
        #expect(run.stdout == """
            OVERVIEW: Run scenarios and print their timelines.

            EXAMPLES:
              popsim run Scenarios/jc-article-demo.json
              popsim run Scenarios/jc-article-demo.json --strategy jc-lifo --option hideMs=0
              popsim run Scenarios/jc-article-demo.json --format json --output out.json
              popsim run Scenarios/jc-article-demo.json --update

            USAGE: popsim run <file>... [options]

            ARGUMENTS:
              <file>                  A scenario file (JSON, format 1); '-' reads standard
                                      input.

            OPTIONS:
              --strategy <name>       The strategy to run (default: the file's "strategy");
                                      exec:PATH runs a plug-in (docs/plugin-protocol.md).
              --policy <file>         The rules of the strategy 'policy', from a file
                                      (docs/policy.md); without --strategy, runs 'policy'.
              --plugin-timeout <s>    Seconds a plug-in (--strategy exec:PATH,
                                      docs/plugin-protocol.md) may take to answer.
                                      (default: 5)
              --plugin-per-run        A new plug-in process for every run, even when the
                                      plug-in offers to serve many ("persistent").
              --option <name=value>   Set a strategy option; repeatable (see 'popsim
                                      strategies').
              --format <format>       Output format; several files as json: one array;
                                      trace is Trace Event JSON for Perfetto. (values: text,
                                      json, gantt, svg, html, trace; default: text)
              --output <file>         Write the report to a file, atomically, instead of
                                      stdout.
              --quiet                 Do not note on stderr what the strategy ignores.
              --force                 Draw an svg or html chart of more than 100000 marks.
              --color <when>          Colour the timeline and the gantt chart. (values:
                                      auto, always, never; default: auto: only on a
                                      terminal and without NO_COLOR)
              --ascii                 Draw the gantt chart in plain ASCII (also when the
                                      locale is not UTF-8). It is as wide as the terminal,
                                      else COLUMNS, else 80 (kept within 40...1000).
              --update                Rewrite each scenario's expected timeline
                                      (<scenario>.<strategy>.timeline) instead of printing.
                                      Refused when CI is set, and with --option (set
                                      options in the file). Review 'git diff' afterwards.
              --max-steps <n>         Stop a run that takes more than n steps. (default:
                                      50000000)
              --max-lines <n>         Stop a run whose timeline passes n lines; bounds its
                                      memory. (default: 5000000)
              --max-input-mb <n>      Refuse input files larger than n MiB. (default: 256)
              --timeout <seconds>     Stop after this long; 0 disables. (default: 600)
              -h, --help              Show help information.

            """)
    }

    /// Derived from the registry (adding a strategy needs no edit here); one block verbatim.
    @Test func strategiesListsEveryStrategyWithItsOptions() throws {
        let output = try runPopsim(["strategies"], environment: ["COLUMNS": "80"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let heads = lines.filter { !$0.hasPrefix(" ") }.map { String($0.prefix { $0 != " " }) }
        #expect(heads == StrategyRegistry.names)
        #expect(lines.filter { $0.hasPrefix("               --option ") }.count == StrategyRegistry.all.reduce(0) { $0 + $1.options.count })
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(output.stdout.contains("""
            fg             FGPopupScheduler 0.6.0: priority list with conditions, switch
                           behaviours and suspend
                           --option order=…  list order and tie rule (values: one of fifo,
                               lifo, priority, priority+fifo, priority+lifo; default:
                               priority+fifo)
                           --option showMs=…  present animation, ms (a popup's own showMs
                               wins) (values: an integer >= 0; default: 0)
                           --option hideMs=…  dismiss animation, ms (a popup's own hideMs
                               wins) (values: an integer >= 0; default: 0)
                           --option navMs=…  push/pop transition, ms (values: an integer >=
                               0; default: 0)

            """))
    }
}

@Suite("popsim check, end to end")
struct CheckEndToEndTests {
    /// The bundled scenarios pass `popsim check Scenarios/` (CI runs this through `swift test`).
    @Test func bundledScenariosPass() throws {
        let output = try runPopsim(["check", "Scenarios/"])
        #expect(output.status == 0)
        #expect(output.stderr == "")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("PASS: ") || $0.hasSuffix(" passed, 0 failed") })
        #expect(lines.last == "\(lines.count - 1) passed, 0 failed")
        #expect(lines.count > 50)
    }
}
