import Foundation
import MapCompression
import MapData
import MapRaster
import MapStorage
import Synchronization

/// The HTTP server behind `mapraster serve`: raster tiles and static maps of the configured styles,
/// passthrough of the configured tile files, scene rendering, metrics and a viewer page.
///
/// ```swift
/// var config = ServerConfiguration()
/// config.styles = try ServerConfiguration.shippedStyles()
/// let server = try MapServer(configuration: config)
/// try server.start()          // listens on 127.0.0.1:8080
/// ```
///
/// ``handle(_:)`` answers one request without a socket, which is what the HTTP layer calls and what tests use.
public final class MapServer: Sendable {
    /// The configuration served.
    public let configuration: ServerConfiguration
    let cache: ResponseCache
    /// Raster tiles cut from metatiles (a quarter of ``ServerConfiguration/cacheBytes`` for their tiles).
    let metatiles: MetatileRenderer
    let gate: RenderGate
    let metrics = ServerMetrics()
    /// The glyphs served at `/fonts/`.
    let fonts: ServedFonts
    /// The HTTP layer while listening.
    private struct Running {
        let daemon: HTTPDaemon
        let pool: WorkerPool
        let watch: ConnectionWatch
    }
    private let daemon = Locked<Running?>(nil)
    private let inFlight = Atomic<Int>(0)
    /// Called after each request with one access-log line (``ServerConfiguration/accessLog``).
    private let log: (@Sendable (String) -> Void)?

    /// Creates a server (not yet listening) that hands each access-log line to `log`.
    public init(configuration: ServerConfiguration, log: (@Sendable (String) -> Void)? = nil) throws {
        guard !configuration.styles.isEmpty || !configuration.data.isEmpty else {
            throw ServerError.invalidConfiguration("nothing to serve: give at least one style or data file")
        }
        self.configuration = configuration
        cache = ResponseCache(capacity: configuration.cacheBytes)
        metatiles = MetatileRenderer(cacheBytes: configuration.cacheBytes / 4)
        gate = RenderGate(workers: configuration.workers, queueLimit: configuration.queueLimit)
        fonts = ServedFonts(configuration: configuration)
        self.log = log
    }

    /// The port listened on, once started.
    public var port: Int? { daemon.withLock { $0?.daemon.port } }

    /// Renders waiting for a worker and running now.
    var renderLoad: (waiting: Int, running: Int) {
        daemon.withLock { $0.map { ($0.pool.waiting, $0.pool.running) } } ?? (gate.waiting, gate.running)
    }

    /// Starts listening on the configured address and port: `ioThreads` epoll loops for the connections,
    /// `workers` render threads, and the connection watch (head timeout, connection limit, returning memory
    /// after bursts). The file-descriptor limit is raised to its hard limit; the connection limit is lowered to
    /// what it allows.
    ///
    /// - Throws: ``ServerError/cannotListen(_:)``.
    public func start() throws {
        let limits = HTTPDaemon.Limits(
            ioThreads: configuration.ioThreads, connectionLimit: effectiveConnectionLimit(),
            connectionsPerClient: configuration.connectionsPerClient, headTimeout: configuration.headTimeout,
            keepAliveTimeout: configuration.keepAliveTimeout, bodyLimit: configuration.bodyLimit,
            queryLimit: configuration.queryLimit, parameterLimit: configuration.parameterLimit,
            renderTimeout: configuration.renderTimeout)
        // One malloc arena per thread that allocates much (renders and I/O), not eight per core: glibc keeps
        // what each arena's threads freed.
        GraphicsMemory.limitArenas(to: configuration.workers + configuration.ioThreads + 1)
        let pool = WorkerPool(threads: configuration.workers, queueLimit: configuration.queueLimit)
        let watch = ConnectionWatch(limit: limits.connectionLimit, headTimeout: limits.headTimeout) {
            pool.returnMemoryIfIdle()
        }
        let started: HTTPDaemon
        do {
            started = try HTTPDaemon(
                address: configuration.address, port: configuration.port, limits: limits, pool: pool, watch: watch,
                busy: { [self] request in
                    metrics.refused(.busy)
                    var refused = request
                    refused.refusal = .busy()
                    return handle(refused)
                },
                handler: { [self] request in handle(request) })
        } catch {
            pool.stop()
            watch.stop()
            throw error
        }
        daemon.withLock { $0 = Running(daemon: started, pool: pool, watch: watch) }
    }

    /// The connection limit the file-descriptor limit allows: the soft limit is raised to the hard one, and
    /// 128 descriptors stay for files and the library (beyond the limit, the library keeps a tenth more for
    /// the connections it answers `503`).
    func effectiveConnectionLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return configuration.connectionLimit }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let available = Int(clamping: limit.rlim_cur) - 128
        return max(1, min(configuration.connectionLimit, available * 10 / 11))
    }

    /// Stops accepting connections, waits up to `grace` seconds for requests in flight, then closes.
    public func shutdown(grace: Double = 30) {
        guard let running = daemon.withLock({ $0 }) else { return }
        running.daemon.quiesce()
        let deadline = Date().addingTimeInterval(grace)
        while inFlight.load(ordering: .acquiring) > 0, Date() < deadline { usleep(10_000) }
        running.pool.stop()
        running.daemon.stop()
        running.watch.stop()
        daemon.withLock { $0 = nil }
    }

    /// Connections open now and the watch's counts, for `/metrics`.
    var connectionCounts: (open: Int, refused: UInt64, timedOut: UInt64)? {
        daemon.withLock { $0.map { ($0.watch.open, $0.watch.refused, $0.watch.timedOut) } }
    }

    // MARK: - Requests

    /// Answers one request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        inFlight.add(1, ordering: .relaxed)
        defer { inFlight.subtract(1, ordering: .releasing) }
        let start = DispatchTime.now().uptimeNanoseconds
        let (endpoint, routed) = request.refusal.map { ("refused", $0) } ?? route(request)
        if routed.status == HTTPResponse.needsWorker.status { return routed }
        var response = routed
        if let cors = configuration.cors { response.headers.append(("Access-Control-Allow-Origin", cors)) }
        response = conditional(request, response)
        response = compressed(request, response)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        metrics.request(endpoint: endpoint, status: response.status, seconds: seconds, bytes: response.body.count)
        if let log, configuration.accessLog != .off {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            if let line = AccessLog.line(
                configuration.accessLog, request: request, response: response, endpoint: endpoint, seconds: seconds,
                at: now)
            {
                log(line)
            }
        }
        return response
    }

    /// Picks the endpoint: its name (for metrics) and its response.
    func route(_ request: HTTPRequest) -> (String, HTTPResponse) {
        let isRead = request.method == "GET" || request.method == "HEAD"
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        // No empty segment but a trailing one: `//` anywhere (which read as the viewer once) is no path.
        guard request.path.hasPrefix("/"), !parts.contains(".."), !parts.dropLast().contains("") else {
            return ("other", .error(404, "no such path", parameter: "path"))
        }
        if request.method == "OPTIONS" {
            return (
                "options",
                HTTPResponse(
                    status: 204,
                    headers: [
                        ("Allow", "GET, HEAD, POST, OPTIONS"),
                        ("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS"),
                        ("Access-Control-Allow-Headers", "Content-Type, If-None-Match"),
                    ])
            )
        }
        if parts == ["render"] {
            guard request.method == "POST" else { return ("render", methodNotAllowed("POST")) }
            if RequestContext.onIOThread { return ("render", .needsWorker) }
            return ("render", renderScene(request))
        }
        if request.method == "POST", parts.count == 5, parts[0] == "styles", parts[2] == "static" {
            // tileserver-gl's POST static map: the parameters in a JSON body (a long path past URL limits).
            return styleRoute(Array(parts.dropFirst()), request)
        }
        guard isRead else { return ("other", methodNotAllowed("GET, HEAD")) }
        switch parts.first ?? "" {
        case "": return ("viewer", viewerPage(request))
        case "health": return ("health", .data(Data("OK\n".utf8), contentType: "text/plain; charset=utf-8"))
        case "staticmap":
            let key = cacheKey(request)
            return ("staticmap", cached(key) { googleStaticMap(request) })
        case "index.json" where parts.count == 1: return ("index", json(index(request)))
        case "styles.json" where parts.count == 1: return ("index", json(stylesList(request)))
        case "rendered.json" where parts.count == 1: return ("index", json(renderedList(request)))
        case "data.json" where parts.count == 1: return ("index", json(dataList(request)))
        case "files": return ("files", geoJSONFile(Array(parts.dropFirst())))
        case "fonts.json" where parts.count == 1: return ("fonts", fontList())
        case "fonts": return ("fonts", fontRoute(Array(parts.dropFirst()), request))
        case "metrics":
            let load = renderLoad
            let text = metrics.text(
                cache: cache.usage, metatileBytes: metatiles.cachedBytes, waiting: load.waiting, running: load.running,
                connections: connectionCounts)
            return ("metrics", .data(Data(text.utf8), contentType: "text/plain; version=0.0.4; charset=utf-8"))
        case "styles": return styleRoute(Array(parts.dropFirst()), request)
        case "data": return dataRoute(Array(parts.dropFirst()), request)
        case "leaflet": return ("viewer", leafletFile(Array(parts.dropFirst())))
        default: return ("other", .error(404, "no such path; see /index.json", parameter: "path"))
        }
    }

    func methodNotAllowed(_ allowed: String) -> HTTPResponse {
        var response = HTTPResponse.error(405, "method not allowed; use \(allowed)", parameter: "method")
        response.headers.append(("Allow", allowed))
        return response
    }

    // MARK: - Caching and compression

    /// Adds a strong `ETag` (a hash of the body) and `Cache-Control` to successful responses, and answers
    /// `304 Not Modified` when `If-None-Match` names the same entity.
    func conditional(_ request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        guard response.status == 200 else { return response }
        var response = response
        let etag = response.header("ETag") ?? Self.etag(response.body)
        if response.header("ETag") == nil { response.headers.append(("ETag", etag)) }
        if response.header("Cache-Control") == nil {
            response.headers.append(("Cache-Control", configuration.cacheControl))
        }
        if let match = request.headers["if-none-match"] {
            let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if tags.contains(etag) || tags.contains("*") {
                return HTTPResponse(
                    status: 304, headers: response.headers.filter { $0.name != "Content-Type" }, body: Data())
            }
        }
        return response
    }

    /// Gzips JSON and text bodies for clients that accept it.
    func compressed(_ request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        guard response.body.count >= 256, let type = response.header("Content-Type"),
            type.hasPrefix("application/json") || type.hasPrefix("text/") || type.hasPrefix("application/javascript"),
            (request.headers["accept-encoding"] ?? "").contains("gzip"),
            let packed = try? Deflate.gzipCompress([UInt8](response.body), level: 6)
        else { return response }
        var response = response
        response.body = Data(packed)
        response.headers.append(("Content-Encoding", "gzip"))
        response.headers.append(("Vary", "Accept-Encoding"))
        return response
    }

    /// A strong entity tag: a 64-bit hash of the body and its length. Four FNV-1a lanes over the body's
    /// little-endian 64-bit words (each lane every fourth word, so the multiplications overlap), the tail bytes
    /// into the first lane, the lanes folded together: a body of any size hashes in a few cycles per word.
    static func etag(_ body: Data) -> String {
        let prime: UInt64 = 0x100_0000_01b3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (
            0xcbf2_9ce4_8422_2325, 0x84222325_cbf29ce4, 0x9ce48422_2325cbf2, 0x23258422_cbf29ce4
        )
        body.withUnsafeBytes { raw in
            let words = raw.count / 8
            var i = 0
            func word(_ k: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self).littleEndian }
            while i + 4 <= words {
                lanes.0 = (lanes.0 ^ word(i)) &* prime
                lanes.1 = (lanes.1 ^ word(i + 1)) &* prime
                lanes.2 = (lanes.2 ^ word(i + 2)) &* prime
                lanes.3 = (lanes.3 ^ word(i + 3)) &* prime
                i += 4
            }
            while i < words {
                lanes.0 = (lanes.0 ^ word(i)) &* prime
                i += 1
            }
            for offset in (8 * words)..<raw.count { lanes.0 = (lanes.0 ^ UInt64(raw[offset])) &* prime }
        }
        var hash = lanes.0
        for lane in [lanes.1, lanes.2, lanes.3] { hash = (hash ^ lane) &* prime ^ (hash >> 29) }
        return "\"" + String(hash, radix: 16) + "-" + String(body.count, radix: 16) + "\""
    }

    /// The cache key of a request: its path and decoded query, each part prefixed by its length so that
    /// different queries cannot collide (`a=1&b=2` and `a=1%26b%3D2` decode to the same text).
    func cacheKey(_ request: HTTPRequest) -> String {
        var key = "\(request.path.utf8.count):\(request.path)"
        for (name, value) in request.query { key += "|\(name.utf8.count):\(name)=\(value.utf8.count):\(value)" }
        return key
    }

    /// A cached response for `key`, or `make`'s (kept when it succeeds).
    func cached(_ key: String, _ make: () -> HTTPResponse) -> HTTPResponse {
        if let hit = cache.value(key) {
            metrics.cache(hit: true)
            return HTTPResponse(
                status: 200, headers: [("Content-Type", hit.contentType), ("ETag", hit.etag)], body: hit.body)
        }
        if RequestContext.onIOThread { return .needsWorker }
        metrics.cache(hit: false)
        var response = make()
        guard response.status == 200, let type = response.header("Content-Type") else { return response }
        let etag = Self.etag(response.body)
        response.headers.append(("ETag", etag))
        cache.insert(ResponseCache.Entry(body: response.body, contentType: type, etag: etag), for: key)
        return response
    }

    func json(_ value: JSONValue) -> HTTPResponse {
        .data(Data(value.serialized(pretty: false).utf8), contentType: "application/json; charset=utf-8")
    }

    /// The base URL for links (TileJSON, styles, WMTS): the configured public URL, or the request's host. A
    /// relative public URL (`/maps/`) is a path on the request's host, as tileserver-gl resolves it: links are
    /// always absolute.
    func baseURL(_ request: HTTPRequest) -> String {
        if var url = configuration.publicURL {
            while url.hasSuffix("/") { url.removeLast() }
            guard url.hasPrefix("/") || url.isEmpty else { return url }
            return requestOrigin(request) + url
        }
        return requestOrigin(request)
    }

    /// `http://` and the request's `Host` when it is a plain host name (else the listening address).
    func requestOrigin(_ request: HTTPRequest) -> String {
        let host =
            request.headers["host"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "\(configuration.address):\(port ?? configuration.port)"
        let safe = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) }
        return "http://" + (safe ? host : "\(configuration.address):\(port ?? configuration.port)")
    }

    func index(_ request: HTTPRequest) -> JSONValue {
        let base = baseURL(request)
        var items: [JSONValue] = []
        for entry in configuration.styles {
            items.append(
                .object([
                    ("id", .string(entry.id)), ("name", .string(entry.style.name ?? entry.id)),
                    ("type", .string("style")),
                    ("url", .string("\(base)/styles/\(entry.id).json")),
                ]))
        }
        for entry in configuration.data {
            items.append(
                .object([
                    ("id", .string(entry.id)), ("type", .string("data")),
                    ("url", .string("\(base)/data/\(entry.id).json")),
                ]))
        }
        return .array(items)
    }
}
