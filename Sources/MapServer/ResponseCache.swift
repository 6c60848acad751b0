import Foundation
import Synchronization

/// Rendered responses by request, the least recently used dropped first, bounded in bytes: repeated
/// tiles and images are served without rendering again.
final class ResponseCache: Sendable {
    struct Entry: Sendable {
        let body: Data
        let contentType: String
        let etag: String
    }

    private struct State {
        var entries: [String: (entry: Entry, tick: UInt64)] = [:]
        /// Keys by last use, oldest first (ticks are unique).
        var order: [UInt64: String] = [:]
        var oldest: UInt64 = 0
        var tick: UInt64 = 0
        var bytes = 0
    }

    private let state = Mutex(State())
    /// The most bytes kept.
    let capacity: Int

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// The cached response for `key`, marking it recently used.
    func value(_ key: String) -> Entry? {
        state.withLock { state in
            guard let found = state.entries[key] else { return nil }
            state.order[found.tick] = nil
            state.tick &+= 1
            state.order[state.tick] = key
            state.entries[key] = (found.entry, state.tick)
            return found.entry
        }
    }

    /// Keeps `entry` under `key` unless it alone is over a quarter of the capacity.
    func insert(_ entry: Entry, for key: String) {
        let size = entry.body.count + key.utf8.count + 128
        guard size <= capacity / 4 else { return }
        state.withLock { state in
            if let old = state.entries[key] {
                state.order[old.tick] = nil
                state.bytes -= old.entry.body.count + key.utf8.count + 128
            }
            state.tick &+= 1
            state.entries[key] = (entry, state.tick)
            state.order[state.tick] = key
            state.bytes += size
            while state.bytes > capacity, state.oldest < state.tick {
                if let victim = state.order.removeValue(forKey: state.oldest),
                    let gone = state.entries.removeValue(forKey: victim)
                {
                    state.bytes -= gone.entry.body.count + victim.utf8.count + 128
                }
                state.oldest &+= 1
            }
        }
    }

    /// Entries and bytes held.
    var usage: (entries: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }
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
