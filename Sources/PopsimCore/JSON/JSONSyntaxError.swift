/// Why a file is not JSON, and where: the reader stops at the first such error.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var location: SourceLocation
    public var message: String
}
