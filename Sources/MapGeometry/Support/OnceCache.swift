import Foundation

/// Values made once per key per process and shared across threads: loaded fonts, decoded sources,
/// shipped styles, raster images, encoded single-color tiles, decoded vector tiles. A failure is
/// remembered too, so a missing file is reported the same way every time without being read again.
///
/// Each key has its own once-cell: `make` runs under that cell's lock only, so threads asking for
/// different keys make their values at the same time, and threads asking for the same key wait for the
/// one that makes it (each value is made exactly once while it is cached).
///
/// The one cache type of the package; nothing else pairs a lock with a dictionary. With a `capacity`
/// (a count) or a `costLimit` (a sum of the values' `cost`, e.g. estimated bytes) it keeps only the most
/// recently made values (first in, first out), so that caches keyed by data (vector tiles) stay bounded
/// however many keys a long run asks for.
///
/// The locks are ``Locked`` values (pthread mutexes, which the thread sanitizer understands).
package final class OnceCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private final class Cell: Sendable {
        /// Held while the value is made, so that other threads asking for the key wait for it.
        let result = Locked<Result<Value, any Error>?>(nil)
    }
    private struct Storage {
        var cells: [Key: Cell] = [:]
        /// Made cells in the order they were made, with their costs; `first` is the oldest still queued.
        var order: [(key: Key, cell: Cell, cost: Int)] = []
        var first = 0
        var totalCost = 0
        var costLimit: Int
    }
    private let state: Locked<Storage>
    private let capacity: Int

    /// Runs `body` with the storage, under the lock.
    private func withStorage<T>(_ body: (inout Storage) -> T) -> T { state.withLock(body) }
    private let cost: @Sendable (Value) -> Int

    /// An empty cache holding at most `capacity` values (unbounded by default).
    package init(capacity: Int = .max) {
        precondition(capacity > 0, "OnceCache capacity must be positive")
        self.capacity = capacity
        self.cost = { _ in 0 }
        self.state = Locked(Storage(costLimit: .max))
    }

    /// An empty cache whose values' `cost` adds up to at most `costLimit` (the newest value is kept even
    /// when it alone costs more).
    package init(costLimit: Int, cost: @escaping @Sendable (Value) -> Int) {
        precondition(costLimit >= 0, "OnceCache cost limit must not be negative")
        self.capacity = .max
        self.cost = cost
        self.state = Locked(Storage(costLimit: costLimit))
    }

    /// The current cost limit (`Int.max` for a cache bounded by count).
    package var costLimit: Int { withStorage { $0.costLimit } }

    /// The sum of the costs of the values held now.
    package var totalCost: Int { withStorage { $0.totalCost } }

    /// The number of keys held now (made or being made).
    package var count: Int { withStorage { $0.cells.count } }

    /// Changes the cost limit, evicting the oldest values until the cache fits.
    package func setCostLimit(_ limit: Int) {
        precondition(limit >= 0, "OnceCache cost limit must not be negative")
        withStorage { storage in
            storage.costLimit = limit
            Self.evict(&storage, capacity: capacity, keepingLast: false)
        }
    }

    /// The value for `key`, made by `make` the first time (again after it was evicted). With
    /// `remembersFailure` false a failure is handed to the threads waiting for it and then forgotten, so the
    /// next call makes the value again (for failures of the moment, such as a request's deadline).
    package func value(_ key: Key, remembersFailure: Bool = true, make: () throws -> Value) throws -> Value {
        let cell = withStorage { storage in
            if let cell = storage.cells[key] { return cell }
            let cell = Cell()
            storage.cells[key] = cell
            return cell
        }
        var madeCost: Int?
        let result: Result<Value, any Error> = cell.result.withLock { stored in
            if let done = stored { return done }
            let made = Result { try make() }
            stored = made
            madeCost = (try? made.get()).map(cost) ?? 0
            return made
        }
        if let madeCost {
            withStorage { storage in
                // Still the key's cell (a bounded cache may have let it go meanwhile): queue it and evict.
                guard storage.cells[key] === cell else { return }
                storage.order.append((key, cell, max(0, madeCost)))
                storage.totalCost = storage.totalCost &+ max(0, madeCost)
                Self.evict(&storage, capacity: capacity, keepingLast: true)
            }
        }
        if !remembersFailure, case .failure = result {
            withStorage { storage in
                if storage.cells[key] === cell { storage.cells[key] = nil }
            }
        }
        return try result.get()
    }

    /// Drops the oldest made values while the cache holds more than `capacity` keys or costs more than
    /// its limit; with `keepingLast` the newest made value stays whatever it costs.
    private static func evict(_ storage: inout Storage, capacity: Int, keepingLast: Bool) {
        let keep = keepingLast ? 1 : 0
        while storage.order.count - storage.first > keep
            && (storage.cells.count > capacity || storage.totalCost > storage.costLimit)
        {
            let oldest = storage.order[storage.first]
            storage.first += 1
            if storage.cells[oldest.key] === oldest.cell { storage.cells[oldest.key] = nil }
            storage.totalCost -= oldest.cost
        }
        if storage.first > 64 && storage.first * 2 > storage.order.count {  // compact the queue now and then
            storage.order.removeFirst(storage.first)
            storage.first = 0
        }
    }
}
