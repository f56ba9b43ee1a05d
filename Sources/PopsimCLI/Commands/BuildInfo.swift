/// What `popsim --version` says of the build besides the version: the commit it was built from.
/// A build from source does not know it (SwiftPM runs no step that could ask git); the release
/// script (`.ci/release`) writes the commit here before it builds and puts the file back after,
/// so a released binary names its commit.
enum BuildInfo {
    /// The commit of a release build; nil from source.
    static let commit: String? = nil

    /// `--version`'s line.
    static var versionLine: String {
        "popsim \(Popsim.version) (" + (commit.map { "commit \($0)" } ?? "built from source, commit not recorded") + ")"
    }
}
