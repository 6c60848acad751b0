import Foundation
import Synchronization
import Testing

@testable import MapGeometry

@Suite("OnceCache: each value made once; a bounded cache keeps the most recent")
struct OnceCacheTests {
    @Test("made once per key, failures remembered; with capacity 2 the oldest is evicted and made again")
    func bounded() throws {
        let made = Mutex<[Int]>([])
        let cache = OnceCache<Int, Int>(capacity: 2)
        func value(_ k: Int) throws -> Int {
            try cache.value(k) {
                made.withLock { $0.append(k) }; return k * 10
            }
        }
        #expect(try value(1) == 10 && value(1) == 10 && value(2) == 20)
        #expect(made.withLock { $0 } == [1, 2])
        _ = try value(3)  // evicts 1
        #expect(try value(2) == 20 && value(1) == 10)
        #expect(made.withLock { $0 } == [1, 2, 3, 1])
        for k in 4..<100 { _ = try value(k) }  // the queue compacts; the cache stays at 2
        #expect(try value(99) == 990 && value(98) == 980)
        #expect(made.withLock { $0.count } == 100)
        struct Boom: Error {}
        let failing = OnceCache<String, Int>()
        var calls = 0
        for _ in 0..<3 {
            #expect(throws: Boom.self) {
                try failing.value("x") {
                    calls += 1; throw Boom()
                }
            }
        }
        #expect(calls == 1)
        // A failure of the moment is forgotten: the next call makes the value again, and a success is kept.
        var attempts = 0
        for _ in 0..<2 {
            #expect(throws: Boom.self) {
                try failing.value("y", remembersFailure: false) {
                    attempts += 1; throw Boom()
                }
            }
        }
        #expect(
            try failing.value("y", remembersFailure: false) {
                attempts += 1; return 7
            } == 7)
        #expect(
            try failing.value("y", remembersFailure: false) {
                attempts += 1; return 8
            } == 7)
        #expect(attempts == 3)
    }

    @Test("bounded by cost: the oldest values go until the sum fits; the newest stays even when it alone is over")
    func costBounded() throws {
        let made = Mutex<[Int]>([])
        let cache = OnceCache<Int, [UInt8]>(costLimit: 100, cost: { $0.count })
        func value(_ k: Int, size: Int) throws -> [UInt8] {
            try cache.value(k) {
                made.withLock { $0.append(k) }; return [UInt8](repeating: 0, count: size)
            }
        }
        _ = try value(1, size: 40)
        _ = try value(2, size: 40)
        #expect(cache.totalCost == 80 && cache.count == 2)
        _ = try value(3, size: 40)  // 120 > 100: 1 goes
        #expect(cache.totalCost == 80 && cache.count == 2)
        _ = try value(2, size: 40)  // still cached
        #expect(made.withLock { $0 } == [1, 2, 3])
        _ = try value(4, size: 500)  // over the limit alone: everything older goes, it stays
        #expect(cache.totalCost == 500 && cache.count == 1)
        _ = try value(4, size: 500)
        #expect(made.withLock { $0 } == [1, 2, 3, 4])
        cache.setCostLimit(0)  // lowering the limit evicts at once
        #expect(cache.totalCost == 0 && cache.count == 0)
        for k in 0..<1000 { _ = try value(k, size: 1) }  // the queue compacts; only the newest stays
        #expect(cache.count == 1 && cache.totalCost == 1)
    }

    @Test("values of different keys are made at the same time, each key once")
    func concurrentKeys() throws {
        final class Counts: Sendable {
            let inside = Mutex(0)
            let most = Mutex(0)
            let calls = Mutex(0)
        }
        let cache = OnceCache<Int, Int>()
        let counts = Counts()
        let done = DispatchSemaphore(value: 0)
        // Synchronised, not timed: a maker that finds itself alone waits for another key's maker to enter, which
        // under one global lock never happens (the wait's bound only turns that deadlock into a failure).
        let overlap = DispatchSemaphore(value: 0)
        // Plain threads (not the test's task pool, which other suites share): 16 threads ask for 4 keys.
        for i in 0..<16 {
            Thread {
                let value = try? cache.value(i % 4) {
                    counts.calls.withLock { $0 += 1 }
                    let now = counts.inside.withLock {
                        $0 += 1; return $0
                    }
                    counts.most.withLock { $0 = max($0, now) }
                    if now >= 2 {
                        for _ in 0..<4 { overlap.signal() }
                    } else {
                        _ = overlap.wait(timeout: .now() + 300)
                    }
                    counts.inside.withLock { $0 -= 1 }
                    return i % 4
                }
                #expect(value == i % 4)
                done.signal()
            }.start()
        }
        for _ in 0..<16 { done.wait() }
        #expect(counts.calls.withLock { $0 } == 4)
        #expect(counts.most.withLock { $0 } >= 2)
    }
}
