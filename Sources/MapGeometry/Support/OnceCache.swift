import Synchronization

/// Values made once per key per process and shared across threads: loaded fonts, decoded sources,
/// shipped styles, raster images, encoded single-color tiles. A failure is remembered too, so a missing
/// file is reported the same way every time without being read again. `make` runs under the lock, so
/// each value is made exactly once.
///
/// The one cache type of the package; nothing else pairs a lock with a dictionary. With a `capacity` it
/// keeps only the most recently made values (first in, first out), so that caches keyed by data (vector
/// tiles) stay bounded however many keys a long run asks for.
package final class OnceCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Storage {
        var values: [Key: Result<Value, any Error>] = [:]
        var order: [Key] = []
        var first = 0
    }
    private let storage = Mutex(Storage())
    private let capacity: Int

    /// An empty cache holding at most `capacity` values (unbounded by default).
    package init(capacity: Int = .max) {
        precondition(capacity > 0, "OnceCache capacity must be positive")
        self.capacity = capacity
    }

    /// The value for `key`, made by `make` the first time (again after it was evicted).
    package func value(_ key: Key, make: () throws -> Value) throws -> Value {
        try storage.withLock { storage in
            if let result = storage.values[key] { return try result.get() }
            let result = Result { try make() }
            storage.values[key] = result
            if capacity != .max {
                storage.order.append(key)
                if storage.values.count > capacity {
                    storage.values[storage.order[storage.first]] = nil
                    storage.first += 1
                    if storage.first > capacity {  // compact the queue now and then
                        storage.order.removeFirst(storage.first)
                        storage.first = 0
                    }
                }
            }
            return try result.get()
        }
    }
}
