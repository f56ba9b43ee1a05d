// The thin executable: hands the arguments to the library, writes its output, exits.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PopsimKit

var environment: [String: String] = [:]
for name in ["NO_COLOR", "TERM", "CI", "COLUMNS", "LC_ALL", "LC_CTYPE", "LANG"] {
    if let value = getenv(name) { environment[name] = String(cString: value) }
}
signal(SIGPIPE, SIG_IGN)
var console = Console(stdoutIsTerminal: isatty(1) == 1, environment: environment, stdoutFD: 1)
let code = Popsim.main(Array(CommandLine.arguments.dropFirst()), console: &console)

console.output.flush()
FileIO.writeAll(console.stderr, to: 2)
exit(code.rawValue)
