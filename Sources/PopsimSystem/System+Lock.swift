#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension System {
    /// A value only one thread reads or writes at a time, behind a pthread mutex (every platform
    /// popsim builds on has one): popsim's own `Mutex`, for the macOS releases
    /// `Synchronization.Mutex` and `Atomic` are too new for (macOS 15; popsim declares 13 in
    /// Package.swift).
    ///
    /// The one audited `@unchecked Sendable` of popsim's shared state: `value` is read and written
    /// only inside `withLock`, holding the mutex, so no two threads touch it at once; the mutex's
    /// memory is allocated once, never moves, and is freed with the last reference. Every class
    /// threads share holds its mutable state in one of these (the others are then checked
    /// `Sendable`: `let`s of `Sendable` types).
    ///
    /// As the standard library's `Mutex`, the value need not be `Sendable`: it is handed in
    /// (`sending`) and only ever reached through `withLock`, whose result is handed out the same
    /// way, so nothing of it is left shared outside the lock.
    public final class Locked<Value>: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private var value: Value

        public init(_ value: sending Value) {
            self.value = value
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Runs `body` on the value, holding the lock.
        public func withLock<T, E: Error>(_ body: (inout sending Value) throws(E) -> sending T) throws(E) -> sending T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value)
        }
    }
}
