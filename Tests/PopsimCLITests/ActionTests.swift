import Foundation
import Testing
import PopsimTestSupport

/// Issue 42, "in GitHub Actions": the workflow docs/ci.md and docs/exploring.md show is the file
/// `Examples/ci/github-workflow.yml`, every `with:` of it is an input of `action.yml`, and the
/// action's steps (`.ci/action`) install a checked release, check, explore in shards and merge —
/// run here, with the popsim these tests built.
@Suite("the GitHub Action and the CI docs")
struct ActionTests: FolderFixture {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theDocsShowTheWorkflowFilesWordForWord() throws {
        let github = try Self.text("Examples/ci/github-workflow.yml"), gitlab = try Self.text("Examples/ci/gitlab-ci.yml")
        #expect(try Self.text("docs/ci.md").contains("```yaml\n" + github + "```\n"))
        #expect(try Self.text("docs/exploring.md").contains("```yaml\n" + github + "```\n"))
        #expect(try Self.text("docs/ci.md").contains("```yaml\n" + gitlab + "```\n"))
        // The GitLab pipeline unpacks the tarball the release script makes.
        #expect(gitlab.contains(#"name="popsim-$POPSIM_VERSION-linux-$(uname -m)""#))
        #expect(try Self.text(".ci/release").contains(#"name="popsim-$version-$os-$arch""#))
    }

    /// `action.yml`'s inputs: the keys indented two spaces under `inputs:`.
    static func inputs() throws -> [String] {
        var inside = false, out: [String] = []
        for line in try text("action.yml").components(separatedBy: "\n") {
            if line == "inputs:" { inside = true; continue }
            if inside, !line.hasPrefix(" ") { break }
            if inside, line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") { out.append(String(line.dropFirst(2).dropLast())) }
        }
        return out
    }

    /// Each step of the workflow that uses popsim's action: its `with:` keys and values.
    static func actionSteps(_ workflow: String) -> [[String: String]] {
        var steps: [[String: String]] = [], current: [String: String]?, withIndent: Int?
        for line in workflow.components(separatedBy: "\n") {
            let indent = line.prefix { $0 == " " }.count, body = line.trimmingCharacters(in: .whitespaces)
            if body.hasPrefix("- uses: ") {
                if let c = current { steps.append(c) }
                current = body.contains("/popsim@") ? [:] : nil
                withIndent = nil
            } else if current != nil, body == "with:" {
                withIndent = indent
            } else if current != nil, let w = withIndent, indent > w, let colon = body.firstIndex(of: ":") {
                current?[String(body[..<colon])] = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            } else if indent <= (withIndent ?? Int.max) {
                withIndent = nil
            }
        }
        if let c = current { steps.append(c) }
        return steps
    }

    @Test func everyWithOfTheWorkflowIsAnInputOfTheAction() throws {
        let inputs = try Self.inputs()
        #expect(inputs == ["version", "mode", "paths", "scenario", "shard", "args", "junit", "report-name"])
        let action = try Self.text("action.yml")
        for input in inputs { #expect(action.contains("inputs.\(input)"), "action.yml never reads its input \(input)") }
        let steps = Self.actionSteps(try Self.text("Examples/ci/github-workflow.yml"))
        #expect(steps.count == 3)
        #expect(steps.map { $0["mode"] ?? "check" } == ["check", "explore", "merge"])
        for step in steps {
            for key in step.keys { #expect(inputs.contains(key), "the workflow gives the action \(key), which it does not take") }
        }
        // Each mode is a step of `.ci/action`.
        let script = try Self.text(".ci/action")
        for mode in ["install", "check", "explore", "merge"] { #expect(script.contains("\n\(mode))\n")) }
    }

    /// Runs `.ci/action STEP` in `dir` with `env` (and the built popsim as `POPSIM_BIN`).
    func action(_ step: String, in dir: URL, _ env: [String: String]) throws -> ProcessOutput {
        try runProcess(packageRoot.appendingPathComponent(".ci/action"), [step], in: dir, environment:
            ["PATH": "/usr/bin:/bin", "POPSIM_BIN": popsimExecutable().path, "LC_ALL": "C.UTF-8", "NO_COLOR": "1"].merging(env) { $1 })
    }

    @Test func checkExploreInShardsAndMergeAsTheActionRunsThem() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try copy("Scenarios/jc-burst-of-three.json", to: "s/burst.json", in: dir)
        try copy("Scenarios/jc-burst-of-three.jc-fifo.timeline", to: "s/burst.jc-fifo.timeline", in: dir)
        let passes = try action("check", in: dir, ["POPSIM_PATHS": "s/", "POPSIM_JUNIT": "report.xml"])
        #expect(passes.status == 0 && passes.stdout == "PASS: s/burst.json [jc-fifo]\n1 passed, 0 failed\n")
        // Paths one a line, spaces kept, nothing globbed (issue 66, cause 24).
        try copy("Scenarios/jc-burst-of-three.json", to: "UI Tests/b*.json", in: dir)
        try copy("Scenarios/jc-burst-of-three.jc-fifo.timeline", to: "UI Tests/b*.jc-fifo.timeline", in: dir)
        let spaced = try action("check", in: dir, ["POPSIM_PATHS": "UI Tests/b*.json\ns/\n", "POPSIM_JUNIT": "spaced.xml"])
        #expect(spaced.status == 0 && spaced.stdout == "PASS: UI Tests/b*.json [jc-fifo]\nPASS: s/burst.json [jc-fifo]\n2 passed, 0 failed\n",
                "\(spaced.stdout)\(spaced.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("report.xml").path))
        try Data("   0  enqueue  upgrade\n".utf8).write(to: dir.appendingPathComponent("s/burst.jc-fifo.timeline"))
        let fails = try action("check", in: dir, ["POPSIM_PATHS": "s/", "POPSIM_JUNIT": "report.xml"])
        #expect(fails.status == 1)
        #expect(fails.stdout.contains("\n::error file=s/burst.jc-fifo.timeline,line=2,title=s/burst.json [jc-fifo]::timeline differs"))
        #expect(try String(contentsOf: dir.appendingPathComponent("report.xml"), encoding: .utf8).contains(#"failures="1""#))

        // Two shards, each kept where the merge job's download puts it, then merged: the report
        // and exit code of the unsharded run.
        try copy("Scenarios/flow-wish-uncertain.json", to: "u.json", in: dir)
        let args = "--strategy fg --strategy jc-fifo --budget 300"
        for shard in 0..<2 {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("popsim-explore-\(shard)"), withIntermediateDirectories: true)
            let run = try action("explore", in: dir, ["POPSIM_SCENARIO": "u.json", "POPSIM_SHARD": "\(shard)/2", "POPSIM_ARGS": args,
                                                      "POPSIM_REPORT": "popsim-explore-\(shard)/popsim-explore.json"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let merged = try action("merge", in: dir, [:])
        let whole = try runPopsim(["explore", "u.json"] + args.split(separator: " ").map(String.init), in: dir)
        #expect(merged.status == whole.status && merged.status == 1)
        #expect(merged.stdout == whole.stdout && !merged.stdout.isEmpty)
    }

    @Test func installUnpacksAReleaseCheckedAgainstItsSum() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The runner's system and architecture, named as `.ci/release` names them.
        let system = try shell(#"[ "$(uname -s)" = Darwin ] && echo macos-universal || echo "linux-$(uname -m)""#, in: dir)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!system.isEmpty)
        let name = "popsim-9.9.9-\(system)"
        let release = "releases/download/v9.9.9"
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("pack/\(name)"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(release), withIntermediateDirectories: true)
        try Data("#!/bin/sh\necho popsim 9.9.9\n".utf8).write(to: dir.appendingPathComponent("pack/\(name)/popsim"))
        _ = try shell("chmod 755 pack/\(name)/popsim && tar czf \(release)/\(name).tar.gz -C pack \(name) && cd \(release) && { sha256sum \(name).tar.gz || shasum -a 256 \(name).tar.gz; } > \(name).tar.gz.sha256", in: dir)
        let env = ["POPSIM_VERSION": "9.9.9", "POPSIM_RELEASES": "file://\(dir.path)/releases", "RUNNER_TEMP": dir.appendingPathComponent("temp").path,
                   "GITHUB_PATH": dir.appendingPathComponent("github-path").path]
        let installed = try action("install", in: dir, env)
        #expect(installed.status == 0, "\(installed.stderr)")
        let folder = dir.appendingPathComponent("temp/popsim-action/\(name)").path
        #expect(installed.stdout == folder + "\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("github-path"), encoding: .utf8) == folder + "\n")
        #expect(try shell("'\(folder)/popsim'", in: dir) == "popsim 9.9.9\n")
        // No version: the action's own tag's release (issue 66, cause 25).
        let pinned = try action("install", in: dir, env.merging(["POPSIM_VERSION": "", "POPSIM_ACTION_REF": "v9.9.9"]) { $1 })
        #expect(pinned.status == 0 && pinned.stdout == folder + "\n", "\(pinned.stderr)")

        // A tarball that does not match its sum, a version that is not one, a release not there.
        try Data("not a tarball".utf8).write(to: dir.appendingPathComponent("\(release)/\(name).tar.gz"))
        let tampered = try action("install", in: dir, env)
        #expect(tampered.status == 2 && tampered.stderr == "popsim action: \(name).tar.gz does not match its .sha256\n")
        // A list that names another file (`sha256sum -c` checked what it named): refused.
        let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        try Data("\(empty)  /dev/null\n".utf8).write(to: dir.appendingPathComponent("\(release)/\(name).tar.gz.sha256"))
        let forged = try action("install", in: dir, env)
        #expect(forged.status == 2 && forged.stderr == "popsim action: \(name).tar.gz does not match its .sha256\n")
        let odd = try action("install", in: dir, env.merging(["POPSIM_VERSION": "1.0;rm"]) { $1 })
        #expect(odd.status == 2 && odd.stderr == "popsim action: version: expected a release such as 0.1.0, latest or source, got \"1.0;rm\"\n")
        let absent = try action("install", in: dir, env.merging(["POPSIM_VERSION": "0.0.1"]) { $1 })
        #expect(absent.status == 2 && absent.stderr.hasPrefix("popsim action: cannot download file://"))
    }

    /// The Homebrew formula for a release's tarballs names each one's url and SHA-256, and
    /// refuses a folder with none.
    @Test func theFormulaNamesEachTarballAndItsSum() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let formula = packageRoot.appendingPathComponent(".ci/formula").path
        #expect(try shell("'\(formula)' 0.2.0 acme/popsim . ; echo \"exit $?\"", in: dir) == "exit 2\n")
        let aa = String(repeating: "a1", count: 32), bb = String(repeating: "b2", count: 32), cc = String(repeating: "c3", count: 32)
        for (platform, sum) in [("macos-universal", aa), ("linux-aarch64", bb), ("linux-x86_64", cc)] {
            try Data("\(sum)  popsim-0.2.0-\(platform).tar.gz\n".utf8).write(to: dir.appendingPathComponent("popsim-0.2.0-\(platform).tar.gz.sha256"))
        }
        let text = try shell("'\(formula)' 0.2.0 acme/popsim .", in: dir)
        let url = "https://github.com/acme/popsim/releases/download/v0.2.0/popsim-0.2.0-"
        #expect(text.hasPrefix("class Popsim < Formula\n"))
        #expect(text.contains("  on_macos do\n    url \"\(url)macos-universal.tar.gz\"\n    sha256 \"\(aa)\"\n  end\n"))
        #expect(text.contains("    on_arm do\n      url \"\(url)linux-aarch64.tar.gz\"\n      sha256 \"\(bb)\"\n    end\n"))
        #expect(text.contains("    on_intel do\n      url \"\(url)linux-x86_64.tar.gz\"\n      sha256 \"\(cc)\"\n    end\n"))
        // Forged inputs never reach the Ruby it prints (issue 66, cause 9): a version, a
        // repository or a sum that would end a string or run code is refused, exit 2.
        for bad in ["'1.0#{system(\"touch pwned\")}' acme/popsim", "0.2.0 'acme/pop\"sim'", "0.2.0 acme", "0.2.0 a/b/c"] {
            #expect(try shell("'\(formula)' \(bad) . >/dev/null 2>&1; echo \"exit $?\"", in: dir) == "exit 2\n", "\(bad)")
        }
        try Data("\(aa)\" + `touch pwned` + \"  popsim-0.2.0-linux-x86_64.tar.gz\n".utf8)
            .write(to: dir.appendingPathComponent("popsim-0.2.0-linux-x86_64.tar.gz.sha256"))
        #expect(try shell("'\(formula)' 0.2.0 acme/popsim . 2>&1; echo \"exit $?\"", in: dir)
                == "formula: ./popsim-0.2.0-linux-x86_64.tar.gz.sha256: expected a SHA-256 (64 hex digits) first\nexit 2\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("pwned").path))
        // What it installs is what the release script packs.
        let release = try Self.text(".ci/release")
        for packed in ["completions/popsim.$shell", "examples/", "\"dist/$name/popsim\"", "\"dist/$name/NEEDS\""] { #expect(release.contains(packed)) }
        // What the Linux binary may need is a list the release checks (issue 66, cause 26).
        let install = try Self.text("docs/install.md")
        for lib in ["libstdc++.so.6", "libgcc_s.so.1"] { #expect(release.contains(lib) && install.contains(lib)) }
        #expect(text.contains(#"bin.install "popsim""#) && text.contains(#"pkgshare.install "examples/first-launch.json""#))
        #expect(release.contains("scenario=Scenarios/first-launch.json"))
    }

    func shell(_ command: String, in dir: URL) throws -> String {
        try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: dir).stdout
    }
}
