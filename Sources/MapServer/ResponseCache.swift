import Foundation
import Synchronization

/// Rendered responses by request, the least recently used dropped first, bounded in bytes: repeated
/// tiles and images are served without rendering again.
///
/// Hits are the hot path of a tile server (tens of thousands a second on every core), so lookups share a
/// read lock and mark their entry used with an atomic tick; only inserts (after a render) take the write
/// lock, and they evict the entries with the oldest ticks.
final class ResponseCache: Sendable {
    struct Entry: Sendable {
        let body: Data
        let contentType: String
        let etag: String
    }

    /// An entry and when it was last used.
    private final class Slot: Sendable {
        let entry: Entry
        let size: Int
        let lastUse: Atomic<UInt64>
        init(entry: Entry, size: Int, tick: UInt64) {
            self.entry = entry
            self.size = size
            lastUse = Atomic(tick)
        }
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var bytes = 0
    }

    private let lock = ReadWriteLock()
    nonisolated(unsafe) private var state = State()
    private let clock = Atomic<UInt64>(0)
    /// The most bytes kept.
    let capacity: Int

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// The bytes an entry is charged: its body, its key and a fixed overhead.
    private static func size(_ entry: Entry, key: String) -> Int { entry.body.count + key.utf8.count + 128 }

    /// The cached response for `key`, marking it recently used.
    func value(_ key: String) -> Entry? {
        let slot = lock.reading { state.slots[key] }
        guard let slot else { return nil }
        slot.lastUse.store(clock.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
        return slot.entry
    }

    /// Keeps `entry` under `key` unless it alone is over a quarter of the capacity; drops the least recently
    /// used entries while the cache holds more than its capacity.
    func insert(_ entry: Entry, for key: String) {
        let size = Self.size(entry, key: key)
        guard size <= capacity / 4 else { return }
        let tick = clock.add(1, ordering: .relaxed).newValue
        lock.writing {
            if let old = state.slots[key] { state.bytes -= old.size }
            state.slots[key] = Slot(entry: entry, size: size, tick: tick)
            state.bytes += size
            guard state.bytes > capacity else { return }
            // Oldest use first, in one sort however many entries must go (a large image may push out many
            // small tiles; readers wait for the write lock meanwhile).
            let byAge = state.slots.filter { $0.key != key }.map { ($0.key, $0.value.lastUse.load(ordering: .relaxed)) }
                .sorted { $0.1 < $1.1 }
            for (victim, _) in byAge {
                guard state.bytes > capacity else { break }
                if let gone = state.slots.removeValue(forKey: victim) { state.bytes -= gone.size }
            }
        }
    }

    /// Entries and bytes held.
    var usage: (entries: Int, bytes: Int) { lock.reading { (state.slots.count, state.bytes) } }
}

/// A POSIX read-write lock that prefers writers (so that a stream of readers cannot starve an insert).
private final class ReadWriteLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func reading<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func writing<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}

/// At most `workers` renders at a time; at most `queueLimit` requests waiting for one, none past its
/// deadline. Whoever cannot get in gets `503` with `Retry-After` instead of an unbounded backlog.
final class RenderGate: Sendable {
    private let slots: DispatchSemaphore
    private let waitingCount = Atomic<Int>(0)
    private let runningCount = Atomic<Int>(0)
    let queueLimit: Int

    init(workers: Int, queueLimit: Int) {
        slots = DispatchSemaphore(value: max(1, workers))
        self.queueLimit = queueLimit
    }

    /// Requests waiting for a worker now.
    var waiting: Int { waitingCount.load(ordering: .relaxed) }
    /// Renders running now.
    var running: Int { runningCount.load(ordering: .relaxed) }

    /// Runs `body` on a worker slot, or returns nil when the queue is full or no slot freed before `deadline`.
    func run<T>(until deadline: DispatchTime, _ body: () throws -> T) rethrows -> T? {
        if slots.wait(timeout: .now()) != .success {
            let queued = waitingCount.add(1, ordering: .relaxed).newValue
            defer { waitingCount.subtract(1, ordering: .relaxed) }
            guard queued <= queueLimit, slots.wait(timeout: deadline) == .success else { return nil }
        }
        runningCount.add(1, ordering: .relaxed)
        defer {
            runningCount.subtract(1, ordering: .relaxed)
            slots.signal()
        }
        return try body()
    }
}
