import Foundation
import MapGeometry

/// Buckets made on a second thread while the layers before them are drawn, as MapLibre's workers build
/// a tile's buckets while its render thread draws: ``make`` runs on a helper thread for each index in turn,
/// ahead of the drawing thread, which takes each result in order (``take(_:)``). Each bucket is made by the
/// same code from the same inputs as when it is made inline, so the image is byte-identical to the one-thread
/// image; the helper never touches the drawing thread's context.
///
/// The helper reads what the drawing thread also reads (the style, the view, the sources: immutable or
/// locked, ``FeatureSource``) and the frame's filter memo (locked, ``FilterMemo``); what it makes it hands
/// over whole through the condition, and never touches again. It runs ahead by at most ``lookahead``
/// buckets and ``bytesAhead`` bytes (as `weigh` counts them, at least one bucket), so the memory held
/// beyond the layer being drawn stays bounded.
package final class BucketPipeline<Bucket>: @unchecked Sendable {
    /// Buckets made but not yet taken, at most.
    package static var lookahead: Int { 64 }
    /// Bytes of buckets made but not yet taken, at most (beyond the first).
    package static var bytesAhead: Int { 64 << 20 }

    private let condition = NSCondition()
    private var made: [Int: (result: Result<Bucket, any Error>, bytes: Int)] = [:]
    private var heldBytes = 0
    private var stopped = false
    private var finished = false
    private let indices: [Int]
    private let make: (Int) throws -> Bucket
    private let weigh: (Bucket) -> Int

    /// Starts making the buckets of `indices` (ascending) with `make` on a helper thread; `weigh` gives a
    /// bucket's size in bytes.
    package init(indices: [Int], make: @escaping (Int) throws -> Bucket, weigh: @escaping (Bucket) -> Int) {
        self.indices = indices
        self.make = make
        self.weigh = weigh
        let thread = Thread { [self] in run() }
        // Buckets recurse as deep as they do on a render thread (expressions, triangulation).
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func run() {
        for index in indices {
            condition.lock()
            while !made.isEmpty && (made.count >= Self.lookahead || heldBytes >= Self.bytesAhead) && !stopped {
                condition.wait()
            }
            let stop = stopped
            condition.unlock()
            if stop { break }
            let result = Result { try make(index) }
            let bytes = (try? result.get()).map(weigh) ?? 0
            condition.lock()
            made[index] = (result, bytes)
            heldBytes += bytes
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The bucket of `index` (one of the indices given, each taken once, in order), waiting until it is made;
    /// rethrows what making it threw.
    package func take(_ index: Int) throws -> Bucket {
        condition.lock()
        while made[index] == nil { condition.wait() }
        let taken = made.removeValue(forKey: index)!
        heldBytes -= taken.bytes
        condition.broadcast()
        condition.unlock()
        return try taken.result.get()
    }

    /// Stops the helper after the bucket it is making and waits for it: nothing it made is used after this.
    package func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
        made.removeAll()
        condition.unlock()
    }
}

/// The threads drawing layers in this process (``StyledBaseMap``'s renders and their bucket helpers): a
/// render takes a helper (``BucketPipeline``) only while a core is free, so that a busy server or pyramid,
/// whose renders already fill the cores, does not pay the helper's overhead. The image does not depend on it.
package enum DrawingThreads {
    private static let count = Locked(0)
    /// The cores this process may run on (its affinity mask as `taskset` sets it, the hexadecimal
    /// `Cpus_allowed` of `/proc/self/status`), at most the machine's.
    private static let cores: Int = {
        let machine = ProcessInfo.processInfo.activeProcessorCount
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        else { return machine }
        let allowed = line.dropFirst("Cpus_allowed:".count).reduce(0) { count, c in
            count + (c.hexDigitValue.map { $0.nonzeroBitCount } ?? 0)
        }
        return allowed > 0 ? min(allowed, machine) : machine
    }()

    /// At most this many threads draw at once (0: the cores), as `mapraster tiles --threads N` asks.
    private static let limit = Locked(0)

    /// When set, every render in the task takes a helper (true) or none (false), whatever the cores: for
    /// tests that compare the two.
    @TaskLocal package static var forced: Bool?

    /// Lets at most `threads` threads draw at once, helpers included (0 or less: one per core), so that a
    /// process asked to render on N threads does not take helpers beyond them.
    package static func limit(to threads: Int) {
        limit.withLock { $0 = max(0, threads) }
    }

    /// Counts the calling render's thread, and its helper when a core is free for one: whether it has one.
    /// Each call is paired with a ``leave(helper:)``.
    static func enter() -> Bool {
        let forced = self.forced
        let limit = self.limit.withLock { $0 }
        let allowed = limit > 0 ? min(limit, cores) : cores
        return count.withLock { count in
            count += 1
            guard forced ?? (count < allowed) else { return false }
            count += 1
            return true
        }
    }

    /// Uncounts what ``enter()`` counted (`helper`: what it returned).
    static func leave(helper: Bool) {
        count.withLock { $0 -= helper ? 2 : 1 }
    }
}
