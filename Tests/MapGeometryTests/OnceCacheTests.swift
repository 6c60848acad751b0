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
    }
}
