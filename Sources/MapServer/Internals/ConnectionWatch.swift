import Foundation
import Synchronization

/// One open connection as the server tracks it (libmicrohttpd's socket context for the connection).
final class TrackedConnection: Sendable {
    /// The socket (owned by libmicrohttpd, which closes it after telling ``ConnectionWatch/closed(_:)``).
    let socket: Int32
    /// Since when (uptime nanoseconds) the connection has been waiting for a complete request head; 0 while a
    /// request is being read or answered.
    let awaitingSince: Atomic<UInt64>
    /// Over the connection limit: answered `503` at once and closed.
    let refused: Bool

    init(socket: Int32, refused: Bool) {
        self.socket = socket
        self.refused = refused
        awaitingSince = Atomic(DispatchTime.now().uptimeNanoseconds)
    }
}

/// Every open connection, and a thread that once a second closes those that have not sent a complete request
/// head within the head timeout (slow or silent clients), and those refused over the connection limit.
///
/// libmicrohttpd's own timeout restarts with every byte, so a client sending a byte a second (slow loris) would
/// keep its connection for ever; libmicrohttpd also stops accepting at its connection limit, which leaves new
/// clients hanging in the listen backlog. So the library's limit is set above ``limit`` and this watch answers
/// connections over ``limit`` with `503` + `Retry-After` itself, writing the response on the socket and closing it.
final class ConnectionWatch: @unchecked Sendable {
    /// Connections served at once; more are refused.
    let limit: Int
    private let headTimeout: UInt64
    private let connections = Mutex<[ObjectIdentifier: TrackedConnection]>([:])
    private let openCount = Atomic<Int>(0)
    private let headTimeouts = Atomic<UInt64>(0)
    private let refusals = Atomic<UInt64>(0)
    private let condition = NSCondition()
    private var stopping = false
    private var sweeperDone = false
    private let tick: @Sendable () -> Void

    /// Starts watching: `limit` connections, `headTimeout` seconds for a request head; `tick` runs once a
    /// second on the watch's thread.
    init(limit: Int, headTimeout: Int, tick: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.headTimeout = UInt64(max(1, headTimeout)) * 1_000_000_000
        self.tick = tick
        let thread = Thread { [self] in sweepLoop() }
        thread.name = "mapraster-connections"
        thread.start()
    }

    /// Connections open now (refused ones included until they close).
    var open: Int { openCount.load(ordering: .relaxed) }
    /// Connections closed for not sending a request head in time.
    var timedOut: UInt64 { headTimeouts.load(ordering: .relaxed) }
    /// Connections refused over the limit.
    var refused: UInt64 { refusals.load(ordering: .relaxed) }

    /// The response written to a connection over the limit.
    private static let busyResponse: [UInt8] = {
        let body = #"{"error":"the server has too many connections open; retry shortly"}"#
        return Array(
            ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\n"
                + "Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
    }()

    /// A new connection on `socket`: tracked, and over the limit answered `503` and half-closed.
    func opened(socket: Int32) -> TrackedConnection {
        let count = openCount.add(1, ordering: .relaxed).newValue
        let refuse = count > limit
        let tracked = TrackedConnection(socket: socket, refused: refuse)
        if refuse {
            refusals.add(1, ordering: .relaxed)
            Self.busyResponse.withUnsafeBytes { bytes in
                _ = send(socket, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            _ = shutdown(socket, Int32(SHUT_WR))
        }
        connections.withLock { $0[ObjectIdentifier(tracked)] = tracked }
        return tracked
    }

    /// The connection is closing (libmicrohttpd closes its socket after this returns).
    func closed(_ tracked: TrackedConnection) {
        connections.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(tracked)) }
        openCount.subtract(1, ordering: .relaxed)
    }

    /// Stops the watch's thread.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !sweeperDone { condition.wait() }
        condition.unlock()
    }

    private func sweepLoop() {
        condition.lock()
        while !stopping {
            _ = condition.wait(until: Date().addingTimeInterval(1))
            guard !stopping else { break }
            condition.unlock()
            sweep()
            tick()
            condition.lock()
        }
        sweeperDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Shuts down (both ways) the sockets of refused connections and of those past the head timeout:
    /// libmicrohttpd then reads the end of the stream and closes them. The lock is held meanwhile, so no
    /// socket is closed (and its number reused) under the shutdown.
    private func sweep() {
        let now = DispatchTime.now().uptimeNanoseconds
        connections.withLock { all in
            for tracked in all.values {
                let since = tracked.awaitingSince.load(ordering: .relaxed)
                if tracked.refused {
                    _ = shutdown(tracked.socket, Int32(SHUT_RDWR))
                } else if since != 0, now > since, now - since > headTimeout {
                    tracked.awaitingSince.store(0, ordering: .relaxed)
                    headTimeouts.add(1, ordering: .relaxed)
                    _ = shutdown(tracked.socket, Int32(SHUT_RDWR))
                }
            }
        }
    }
}
