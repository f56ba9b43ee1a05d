#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension System {
    /// A mutual-exclusion lock for what threads share (a replay's workers saving users): a
    /// pthread mutex, which every platform popsim builds on has.
    public final class Lock: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        public init() {
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Runs `body` holding the lock.
        public func locked<T>(_ body: () throws -> T) rethrows -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }
    }
}
