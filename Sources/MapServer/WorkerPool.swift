import Foundation
import MapRaster
import Synchronization

/// A fixed set of render threads and a bounded queue in front of them: the HTTP layer hands each request that
/// must render to ``submit(_:)``, and the connection waits (suspended, holding no thread) until a worker has
/// answered it.
///
/// The threads live as long as the server, so the memory the allocator keeps per thread stays bounded by their
/// number; once a burst is over, the freed memory is handed back to the system (``returnMemoryIfIdle()``).
final class WorkerPool: @unchecked Sendable {
    /// A job and the time it was queued (for the render deadline, which counts waiting too).
    private struct Job {
        let queued: DispatchTime
        let run: @Sendable (DispatchTime) -> Void
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var head = 0
    private var stopping = false
    private var busy = 0
    private var live = 0
    private let queueLimit: Int
    /// Jobs finished since memory was last returned to the system.
    private var finishedSinceTrim = 0
    private let waitingCount = Atomic<Int>(0)
    private let runningCount = Atomic<Int>(0)

    /// Starts `threads` render threads (8 MiB stacks, as a process's main thread) with room for `queueLimit`
    /// waiting jobs.
    init(threads: Int, queueLimit: Int) {
        self.queueLimit = max(0, queueLimit)
        for index in 0..<max(1, threads) {
            let thread = Thread { [self] in work() }
            thread.stackSize = 8 << 20
            thread.name = "mapraster-render-\(index)"
            live += 1
            thread.start()
        }
    }

    /// Jobs waiting for a worker now.
    var waiting: Int { waitingCount.load(ordering: .relaxed) }
    /// Jobs running now.
    var running: Int { runningCount.load(ordering: .relaxed) }

    /// Queues `job`, which a worker calls with the time it was queued; false when every worker is busy and the
    /// queue is full, or the pool is stopping (the caller answers `503`).
    func submit(_ job: @escaping @Sendable (DispatchTime) -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, queue.count - head < queueLimit + max(0, live - busy) else { return false }
        queue.append(Job(queued: .now(), run: job))
        waitingCount.add(1, ordering: .relaxed)
        condition.signal()
        return true
    }

    /// Refuses new jobs, lets the queued and running ones finish, and ends the threads.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while live > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            while head == queue.count && !stopping { condition.wait() }
            if head == queue.count {
                live -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = queue[head]
            head += 1
            if head > 1024, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            busy += 1
            waitingCount.subtract(1, ordering: .relaxed)
            runningCount.add(1, ordering: .relaxed)
            condition.unlock()
            job.run(job.queued)
            condition.lock()
            runningCount.subtract(1, ordering: .relaxed)
            busy -= 1
            finishedSinceTrim += 1
        }
    }

    /// When no job runs or waits and some finished since the last call, gives the pages their renders freed
    /// back to the system (glibc keeps them per arena otherwise). Called once a second by the connection
    /// watch, off the render path.
    func returnMemoryIfIdle() {
        condition.lock()
        let idle = busy == 0 && head == queue.count && finishedSinceTrim > 0
        if idle { finishedSinceTrim = 0 }
        condition.unlock()
        if idle { GraphicsMemory.returnFreedMemory() }
    }
}

/// What a request's thread knows while `MapServer.handle(_:)` runs: whether it may render (a worker may;
/// an I/O thread may not, and answers ``HTTPResponse/needsWorker`` instead) and the render deadline.
enum RequestContext {
    /// True on the HTTP layer's I/O threads: a cache miss or a render hands the request to a worker.
    @TaskLocal static var onIOThread = false
    /// The render deadline (waiting counts), when a worker runs the request.
    @TaskLocal static var deadline: DispatchTime?
}
