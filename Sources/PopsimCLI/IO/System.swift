#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PopsimCore
import PopsimReports

/// Facts about the machine that commands need (and nothing that changes output).
enum System {
    /// Online processors, for `check`'s default number of jobs.
    static var processorCount: Int {
        Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
