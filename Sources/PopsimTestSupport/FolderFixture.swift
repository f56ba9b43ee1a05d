import Foundation

/// Files of a test's own folder, by name: written (folders made as needed), read, copied from the
/// package, edited. Suites that build scenarios in a temporary folder conform and share these.
public protocol FolderFixture {}

extension FolderFixture {
    public func write(_ name: String, _ text: String, in dir: URL) throws {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    public func read(_ name: String, in dir: URL) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    /// A file of the package (`bundled`, from its root) copied into the folder as `name`.
    public func copy(_ bundled: String, to name: String, in dir: URL) throws {
        try write(name, try String(contentsOf: packageRoot.appendingPathComponent(bundled), encoding: .utf8), in: dir)
    }

    public func edit(_ name: String, in dir: URL, _ change: (String) -> String) throws {
        try write(name, change(try read(name, in: dir)), in: dir)
    }
}
