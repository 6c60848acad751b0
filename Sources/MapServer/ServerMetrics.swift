import Foundation
import MapRaster
import Synchronization

/// Counters and histograms for `/metrics`, in Prometheus' text format: requests by endpoint and status,
/// request latency and render time histograms, cache hits and misses, bytes sent, queue depth.
final class ServerMetrics: Sendable {
    /// Why a request got `503`.
    enum Refusal: String, CaseIterable {
        /// The render queue was full, or no worker freed up before the deadline.
        case busy
        /// The render started but ran past the deadline.
        case deadline
    }

    static let buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var counts = [UInt64](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var count: UInt64 = 0
        mutating func add(_ other: Histogram) {
            for i in counts.indices { counts[i] += other.counts[i] }
            sum += other.sum
            count += other.count
        }
        mutating func observe(_ seconds: Double) {
            for (i, bound) in ServerMetrics.buckets.enumerated() where seconds <= bound { counts[i] += 1 }
            sum += seconds
            count += 1
        }
    }

    private struct State {
        var requests: [RequestKey: UInt64] = [:]
        var latency: [String: Histogram] = [:]
        var render = Histogram()
        var bytesSent: UInt64 = 0
        var rejected: [Refusal: UInt64] = [:]

        mutating func add(_ other: State) {
            requests.merge(other.requests, uniquingKeysWith: +)
            for (endpoint, h) in other.latency { latency[endpoint, default: Histogram()].add(h) }
            render.add(other.render)
            bytesSent &+= other.bytesSent
            rejected.merge(other.rejected, uniquingKeysWith: +)
        }
    }

    private struct RequestKey: Hashable, Comparable {
        let endpoint: String
        let status: Int
        static func < (a: Self, b: Self) -> Bool { (a.endpoint, a.status) < (b.endpoint, b.status) }
    }

    /// The counters are split in shards, each thread counting into the shard of its id, so that requests
    /// answered at the same time on different cores do not wait for one lock; `/metrics` adds them up.
    private let shards = (0..<16).map { _ in Locked(State()) }
    private let cacheHits = Atomic<UInt64>(0)
    private let serverErrors = Atomic<UInt64>(0)
    private let cacheMisses = Atomic<UInt64>(0)

    private func withShard(_ body: (inout State) -> Void) {
        let thread = UInt64(pthread_self())
        let shard = shards[Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> 60)]
        shard.withLock { body(&$0) }
    }

    func request(endpoint: String, status: Int, seconds: Double, bytes: Int) {
        if status >= 500, status != 503 { serverErrors.add(1, ordering: .relaxed) }
        withShard { state in
            state.requests[RequestKey(endpoint: endpoint, status: status), default: 0] += 1
            state.latency[endpoint, default: Histogram()].observe(seconds)
            state.bytesSent &+= UInt64(max(0, bytes))
        }
    }

    func refused(_ reason: Refusal) { withShard { $0.rejected[reason, default: 0] += 1 } }
    func rendered(seconds: Double) { withShard { $0.render.observe(seconds) } }
    func cache(hit: Bool) {
        if hit { cacheHits.add(1, ordering: .relaxed) } else { cacheMisses.add(1, ordering: .relaxed) }
    }

    /// The metrics as Prometheus text (version 0.0.4).
    /// The process's resident memory in bytes (`/proc/self/statm`), or nil where it cannot be read.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The metrics as Prometheus text (version 0.0.4); `connections` (open, refused over the limit, closed for
    /// a late head) when listening.
    func text(
        cache: (entries: Int, bytes: Int), metatileBytes: Int = 0, waiting: Int, running: Int,
        connections: (open: Int, refused: UInt64, timedOut: UInt64)? = nil
    ) -> String {
        var state = State()
        for shard in shards {
            shard.withLock { state.add($0) }
        }
        let cacheHits = cacheHits.load(ordering: .relaxed)
        let cacheMisses = cacheMisses.load(ordering: .relaxed)
        do {
            var out = ""
            func histogram(_ name: String, _ label: String, _ h: Histogram) {
                for (i, bound) in Self.buckets.enumerated() {
                    out += "\(name)_bucket{\(label)le=\"\(bound)\"} \(h.counts[i])\n"
                }
                out += "\(name)_bucket{\(label)le=\"+Inf\"} \(h.count)\n"
                out += "\(name)_sum{\(label.dropLast())} \(h.sum)\n".replacingOccurrences(of: "{}", with: "")
                out += "\(name)_count{\(label.dropLast())} \(h.count)\n".replacingOccurrences(of: "{}", with: "")
            }
            out += "# HELP mapraster_http_requests_total Requests by endpoint and status.\n"
            out += "# TYPE mapraster_http_requests_total counter\n"
            for key in state.requests.keys.sorted() {
                out +=
                    "mapraster_http_requests_total{endpoint=\"\(key.endpoint)\",status=\"\(key.status)\"} "
                    + "\(state.requests[key]!)\n"
            }
            out += "# HELP mapraster_http_request_seconds Time from request to response, by endpoint.\n"
            out += "# TYPE mapraster_http_request_seconds histogram\n"
            for endpoint in state.latency.keys.sorted() {
                histogram("mapraster_http_request_seconds", "endpoint=\"\(endpoint)\",", state.latency[endpoint]!)
            }
            out += "# HELP mapraster_render_seconds Time spent rendering one image or tile.\n"
            out += "# TYPE mapraster_render_seconds histogram\n"
            histogram("mapraster_render_seconds", "", state.render)
            out += "# HELP mapraster_cache_hits_total Responses served from the in-memory cache.\n"
            out += "# TYPE mapraster_cache_hits_total counter\nmapraster_cache_hits_total \(cacheHits)\n"
            out += "# HELP mapraster_cache_misses_total Cacheable responses that had to be rendered.\n"
            out += "# TYPE mapraster_cache_misses_total counter\nmapraster_cache_misses_total \(cacheMisses)\n"
            out += "# HELP mapraster_cache_bytes Bytes held by the response cache.\n"
            out += "# TYPE mapraster_cache_bytes gauge\nmapraster_cache_bytes \(cache.bytes)\n"
            out += "# HELP mapraster_metatile_cache_bytes Bytes of tiles held from drawn metatiles.\n"
            out += "# TYPE mapraster_metatile_cache_bytes gauge\nmapraster_metatile_cache_bytes \(metatileBytes)\n"
            out += "# HELP mapraster_decoded_tile_bytes Estimated bytes of decoded vector tiles kept for reuse.\n"
            out +=
                "# TYPE mapraster_decoded_tile_bytes gauge\nmapraster_decoded_tile_bytes \(VectorTileCache.bytesInUse)\n"
            out += "# HELP mapraster_cache_entries Responses held by the response cache.\n"
            out += "# TYPE mapraster_cache_entries gauge\nmapraster_cache_entries \(cache.entries)\n"
            out += "# HELP mapraster_sent_bytes_total Response body bytes sent.\n"
            out += "# TYPE mapraster_sent_bytes_total counter\nmapraster_sent_bytes_total \(state.bytesSent)\n"
            out += "# HELP mapraster_render_queue_depth Requests waiting for a render worker.\n"
            out += "# TYPE mapraster_render_queue_depth gauge\nmapraster_render_queue_depth \(waiting)\n"
            out += "# HELP mapraster_renders_in_flight Renders running now.\n"
            out += "# TYPE mapraster_renders_in_flight gauge\nmapraster_renders_in_flight \(running)\n"
            out += "# HELP mapraster_rejected_total Requests refused with 503: busy (queue full, or no worker before "
            out += "the deadline), deadline (the render ran past it).\n"
            out += "# TYPE mapraster_rejected_total counter\n"
            for reason in Refusal.allCases {
                out += "mapraster_rejected_total{reason=\"\(reason.rawValue)\"} \(state.rejected[reason] ?? 0)\n"
            }
            out += "# HELP mapraster_server_errors_total Responses 500 and over but 503: faults of the server.\n"
            out += "# TYPE mapraster_server_errors_total counter\n"
            out += "mapraster_server_errors_total \(serverErrors.load(ordering: .relaxed))\n"
            if let resident = Self.residentBytes() {
                out += "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
                out += "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes \(resident)\n"
            }
            if let connections {
                out += "# HELP mapraster_connections_open Connections open now.\n"
                out += "# TYPE mapraster_connections_open gauge\nmapraster_connections_open \(connections.open)\n"
                out +=
                    "# HELP mapraster_connections_refused_total Connections answered 503 over the connection limit.\n"
                out += "# TYPE mapraster_connections_refused_total counter\n"
                out += "mapraster_connections_refused_total \(connections.refused)\n"
                out +=
                    "# HELP mapraster_head_timeouts_total Connections closed for not sending a request head in time.\n"
                out += "# TYPE mapraster_head_timeouts_total counter\n"
                out += "mapraster_head_timeouts_total \(connections.timedOut)\n"
            }
            return out
        }
    }
}
