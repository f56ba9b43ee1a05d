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
for name in ["NO_COLOR", "TERM", "CI", "COLUMNS"] {
    if let value = getenv(name) { environment[name] = String(cString: value) }
}
var console = Console(stdoutIsTerminal: isatty(1) == 1, environment: environment)
let code = Popsim.main(Array(CommandLine.arguments.dropFirst()), console: &console)

/// Writes all of `text` to `fd`, retrying short writes; gives up quietly on a closed pipe.
func emit(_ text: String, to fd: Int32) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            return write(fd, base + offset, buffer.count - offset)
        }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
    }
}

signal(SIGPIPE, SIG_IGN)
emit(console.stdout, to: 1)
emit(console.stderr, to: 2)
exit(code.rawValue)
