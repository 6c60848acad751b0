import Foundation

/// A value guarded by a lock: the package's one mutex for state shared between threads (``OnceCache`` is
/// built on it). Reach the value only inside ``withLock(_:)``.
///
/// The lock is an `NSLock` (a pthread mutex), not `Synchronization.Mutex`: the thread sanitizer
/// (`Scripts/sanitize.sh thread`) sees a pthread mutex's hand-over but not the futex slow path of `Mutex`,
/// which is compiled into the standard library without instrumentation, and reports races under contention
/// that cannot happen.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["tiles", default: 0] += 1 }
/// ```
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock; `body` must not call back into this lock.
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
