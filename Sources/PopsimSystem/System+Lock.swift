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

extension System {
    /// A value only one thread reads or writes at a time: popsim's own mutex, over `Lock`, for
    /// the macOS releases `Synchronization.Mutex` and `Atomic` are too new for (macOS 15; popsim
    /// declares 13 in Package.swift). The one place a value shared between threads is guarded.
    public final class Locked<Value: Sendable>: @unchecked Sendable {
        private let lock = Lock()
        private var value: Value

        public init(_ value: Value) { self.value = value }

        /// Runs `body` on the value, holding the lock.
        public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
            try lock.locked { try body(&value) }
        }
    }
}
