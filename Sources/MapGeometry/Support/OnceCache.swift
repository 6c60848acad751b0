import Synchronization

/// Values made once per key per process and shared across threads: loaded fonts, decoded sources,
/// shipped styles, raster images, encoded single-color tiles. A failure is remembered too, so a missing
/// file is reported the same way every time without being read again. `make` runs under the lock, so
/// each value is made exactly once.
///
/// The one cache type of the package; nothing else pairs a lock with a dictionary.
package final class OnceCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Mutex<[Key: Result<Value, any Error>]>([:])

    /// An empty cache.
    package init() {}

    /// The value for `key`, made by `make` the first time.
    package func value(_ key: Key, make: () throws -> Value) throws -> Value {
        try values.withLock { values in
            if let result = values[key] { return try result.get() }
            let result = Result { try make() }
            values[key] = result
            return try result.get()
        }
    }
}
