import Foundation
import Synchronization
import Testing

@testable import MapServer

@Suite("The render queue and the response cache stay bounded")
struct RenderGateTests {
    @Test("with every worker busy and the queue full, a request is refused at once instead of waiting")
    func queueFull() throws {
        let gate = RenderGate(workers: 1, queueLimit: 1)
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = gate.run(until: .distantFuture) {
                busy.signal()
                release.wait()
            }
            finished.signal()
        }
        busy.wait()
        // One request may wait: it queues, and runs once the worker is free.
        let queuedRan = Atomic<Bool>(false)
        DispatchQueue.global().async {
            _ = gate.run(until: .distantFuture) { queuedRan.store(true, ordering: .relaxed) }
            finished.signal()
        }
        while gate.waiting < 1 { usleep(1_000) }
        // The queue is full: the next is refused without waiting. With no deadline at all, an answer proves it:
        // had it queued, it would wait for the worker, which is released only below.
        let refused = gate.run(until: .distantFuture) { 1 }
        #expect(refused == nil)
        #expect(gate.running == 1 && gate.waiting == 1, "the worker is still busy, one request still queued")
        release.signal()
        finished.wait()
        finished.wait()
        let ran = queuedRan.load(ordering: .relaxed)
        #expect(ran)
        #expect(gate.run(until: .distantFuture) { 2 } == 2)
    }

    @Test("a request still waiting at its deadline is refused")
    func timeout() {
        let gate = RenderGate(workers: 1, queueLimit: 5)
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = gate.run(until: .distantFuture) {
                busy.signal(); release.wait()
            }
        }
        busy.wait()
        // The queue has room (limit 5): nil can only be the deadline passing while the worker is busy.
        #expect(gate.run(until: .now() + 0.2) { 1 } == nil)
        #expect(gate.running == 1 && gate.waiting == 0, "still busy; the refused request left the queue")
        release.signal()
    }

    @Test("the cache keeps at most its capacity in bytes, dropping the least recently used first")
    func cacheBound() {
        let cache = ResponseCache(capacity: 10_000)
        func entry(_ n: Int) -> ResponseCache.Entry {
            ResponseCache.Entry(body: Data(count: n), contentType: "image/png", etag: "\"x\"")
        }
        for i in 0..<50 { cache.insert(entry(1_000), for: "k\(i)") }
        #expect(cache.usage.bytes <= 10_000)
        #expect(cache.value("k49") != nil && cache.value("k0") == nil)
        _ = cache.value("k45")  // recently used: survives the next inserts
        for i in 50..<54 { cache.insert(entry(1_000), for: "k\(i)") }
        #expect(cache.value("k45") != nil)
        // A large entry pushes out as many of the oldest as it needs, not the recently used.
        _ = cache.value("k53")
        cache.insert(entry(2_000), for: "large")
        #expect(cache.usage.bytes <= 10_000)
        #expect(cache.value("large") != nil && cache.value("k53") != nil && cache.value("k46") == nil)
        // An entry over a quarter of the capacity is not kept at all.
        cache.insert(entry(5_000), for: "huge")
        #expect(cache.value("huge") == nil)
    }
}
