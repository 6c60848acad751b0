import CMicroHTTPD
import Foundation

/// libmicrohttpd, the HTTP/1.1 server: the only file that calls it.
///
/// Connections are served by `ioThreads` epoll loops (keep-alive, HEAD, `Date` and `Content-Length` are the
/// library's). Each request is answered on its loop when that needs no render (a cached tile, JSON, metrics);
/// otherwise the connection is suspended, holding no thread, and the request goes to the ``WorkerPool``, whose
/// answer resumes it. The raw target is decoded by ``RequestTarget`` (strictly), the framing headers are
/// checked before any body is read, and ``ConnectionWatch`` enforces the head timeout and the connection limit.
final class HTTPDaemon: @unchecked Sendable {
    /// Answers a request; on an I/O thread it may return ``HTTPResponse/needsWorker``.
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The limits the HTTP layer enforces.
    struct Limits {
        var ioThreads: Int
        var connectionLimit: Int
        var connectionsPerClient: Int
        var headTimeout: Int
        var keepAliveTimeout: Int
        var bodyLimit: Int
        var queryLimit: Int
        var parameterLimit: Int
        var renderTimeout: Double

        /// libmicrohttpd's memory pool per connection: the request head is read into it, so it holds the
        /// longest query allowed and 24 KiB of request line and headers (40 KiB by default). The library
        /// zeroes the whole pool before every request of a kept-alive connection, so it is no larger than
        /// that (at 64 KiB the zeroing was an eighth of the server's time for cached tiles); above 32 KiB the
        /// library maps it (mmap), so an idle connection's pool stays untouched memory.
        var connectionPoolBytes: Int { min(max(40 * 1024, queryLimit + 24 * 1024), 1 << 20) }
    }

    private var daemon: OpaquePointer?
    private let context: Unmanaged<Context>
    private let hook: UnsafeMutablePointer<mapraster_target_hook>

    /// What the C callbacks need: the handler, the workers, the watch and the limits.
    final class Context: @unchecked Sendable {
        let handler: Handler
        let pool: WorkerPool
        let watch: ConnectionWatch
        let limits: Limits
        /// Answers `503` for a request the workers cannot take.
        let busy: Handler
        init(
            handler: @escaping Handler, busy: @escaping Handler, pool: WorkerPool, watch: ConnectionWatch,
            limits: Limits
        ) {
            self.handler = handler
            self.busy = busy
            self.pool = pool
            self.watch = watch
            self.limits = limits
        }
    }

    /// One request being read and answered (a body may arrive in several calls; a render answers later).
    final class Pending: @unchecked Sendable {
        enum Stage { case head, body, waiting }
        let rawTarget: [UInt8]
        var stage = Stage.head
        var request = HTTPRequest(path: "/")
        var body = Data()
        var tooLarge = false
        /// The worker's answer, sent when the connection resumes.
        var answer: HTTPResponse?
        init(rawTarget: [UInt8]) { self.rawTarget = rawTarget }
    }

    /// The port the daemon listens on (the one the system chose when asked for port 0).
    let port: Int

    /// Starts listening on `address`:`port` (IPv4 dotted quad).
    ///
    /// - Throws: ``ServerError/cannotListen(_:)`` when the address is not IPv4 or the port cannot be bound.
    init(
        address: String, port: Int, limits: Limits, pool: WorkerPool, watch: ConnectionWatch,
        busy: @escaping Handler, handler: @escaping Handler
    ) throws {
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        guard let port16 = UInt16(exactly: port) else {
            throw ServerError.cannotListen("port \(port) is not in 0...65535")
        }
        sin.sin_port = port16.bigEndian
        guard inet_pton(AF_INET, address, &sin.sin_addr) == 1 else {
            throw ServerError.cannotListen("'\(address)' is not an IPv4 address such as 127.0.0.1 or 0.0.0.0")
        }
        let context = Unmanaged.passRetained(
            Context(handler: handler, busy: busy, pool: pool, watch: watch, limits: limits))
        self.context = context
        let hook = UnsafeMutablePointer<mapraster_target_hook>.allocate(capacity: 1)
        hook.initialize(to: mapraster_target_hook(callback: targetHook, context: context.toOpaque()))
        self.hook = hook
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        // The library's own limit sits above the watch's, which answers the connections in between with 503:
        // at its limit the library stops accepting, and clients would hang in the backlog.
        let hardLimit = limits.connectionLimit + max(64, limits.connectionLimit / 10)
        let started = withUnsafePointer(to: &sin) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                mapraster_mhd_start(
                    flags, port16, address, accessHandler, context.toOpaque(), requestCompleted, connectionNotified,
                    hook, UInt32(clamping: limits.ioThreads), UInt32(clamping: hardLimit),
                    UInt32(clamping: limits.connectionsPerClient), UInt32(clamping: limits.keepAliveTimeout),
                    limits.connectionPoolBytes, 1024)
            }
        }
        guard let started else {
            context.release()
            hook.deallocate()
            throw ServerError.cannotListen(
                "cannot listen on \(address):\(port) (in use, or not an address of this machine)")
        }
        daemon = started
        self.port = port == 0 ? Int(mapraster_mhd_port(started)) : port
    }

    /// Stops accepting new connections; requests in flight go on.
    func quiesce() {
        guard let daemon else { return }
        _ = MHD_quiesce_daemon(daemon)
    }

    /// Stops the daemon: closes the listening socket and every connection. Call after the worker pool has
    /// stopped, so that no worker resumes a connection the library has freed.
    func stop() {
        guard let daemon else { return }
        MHD_stop_daemon(daemon)
        self.daemon = nil
        context.release()
        hook.deallocate()
    }

    deinit { stop() }
}

/// The raw target of a new request: the request's state (``HTTPDaemon/Pending``), retained until
/// `requestCompleted`.
private let targetHook: mapraster_target_callback = { _, target, length, _ in
    guard let target else { return nil }
    let bytes = [UInt8](UnsafeRawBufferPointer(start: target, count: length))
    return Unmanaged.passRetained(HTTPDaemon.Pending(rawTarget: bytes)).toOpaque()
}

/// Connection opened or closed: tracked by the watch (for the head timeout and the connection limit).
private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let connection, let socketContext else { return }
    let context = Unmanaged<HTTPDaemon.Context>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED:
        let tracked = context.watch.opened(socket: mapraster_mhd_socket(connection))
        socketContext.pointee = Unmanaged.passRetained(tracked).toOpaque()
    case MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_CLOSED:
        guard let pointer = socketContext.pointee else { return }
        let tracked = Unmanaged<TrackedConnection>.fromOpaque(pointer)
        context.watch.closed(tracked.takeUnretainedValue())
        tracked.release()
        socketContext.pointee = nil
    default: break
    }
}

private func trackedConnection(_ connection: OpaquePointer) -> TrackedConnection? {
    mapraster_mhd_socket_context(connection).map { Unmanaged<TrackedConnection>.fromOpaque($0).takeUnretainedValue() }
}

/// Called by libmicrohttpd for each request, several times: first with the head (the request is checked and
/// answered, or its body awaited), then with body chunks, then with no more data (answered, or handed to a
/// worker), and once more after a worker's answer resumed the connection.
private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, _, method, version, uploadData, uploadDataSize, connectionContext in
    guard let cls, let connection, let connectionContext, let uploadDataSize, let pointer = connectionContext.pointee
    else { return MHD_Result.NO }
    let context = Unmanaged<HTTPDaemon.Context>.fromOpaque(cls).takeUnretainedValue()
    let pending = Unmanaged<HTTPDaemon.Pending>.fromOpaque(pointer).takeUnretainedValue()
    switch pending.stage {
    case .head:
        let tracked = trackedConnection(connection)
        if tracked?.refused == true { return MHD_Result.NO }
        tracked?.awaitingSince.store(0, ordering: .relaxed)
        pending.request = readHead(connection, method: method, version: version, pending: pending, context: context)
        let hasBody =
            pending.request.headers["content-length"].map { $0 != "0" } ?? false
            || pending.request.headers["transfer-encoding"] != nil
        // A refused request with a body is answered now, before the body is read (no `100 Continue`); the
        // library then closes the connection. Every other request is answered on the next call: an answer
        // queued on the first call would close a kept-alive connection too.
        if pending.request.refusal != nil, hasBody { return answer(pending, on: connection, context: context) }
        pending.stage = .body
        return MHD_Result.YES
    case .body:
        if uploadDataSize.pointee > 0 {
            if let uploadData, !pending.tooLarge {
                if pending.body.count + uploadDataSize.pointee > context.limits.bodyLimit {
                    pending.tooLarge = true
                    pending.body = Data()
                } else {
                    pending.body.append(
                        UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self),
                        count: uploadDataSize.pointee)
                }
            }
            uploadDataSize.pointee = 0
            return MHD_Result.YES
        }
        if pending.tooLarge {
            pending.request.refusal = .error(
                413, "the request body is larger than \(context.limits.bodyLimit) bytes", parameter: "body")
        } else {
            pending.request.body = pending.body
        }
        pending.body = Data()
        return answer(pending, on: connection, context: context)
    case .waiting:
        guard let response = pending.answer else { return MHD_Result.NO }
        pending.answer = nil
        return send(response, on: connection)
    }
}

/// The request of a head: method, strictly decoded target, headers and client; with a refusal when the target
/// or the framing headers are wrong, or an announced body is over the limit (answered before any body is read,
/// so `Expect: 100-continue` gets no `100 Continue`).
private func readHead(
    _ connection: OpaquePointer, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
    pending: HTTPDaemon.Pending, context: HTTPDaemon.Context
) -> HTTPRequest {
    var collected = Collected()
    withUnsafeMutablePointer(to: &collected) { pointer in
        _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectValue, pointer)
    }
    var request = HTTPRequest(
        rawTarget: pending.rawTarget, queryLimit: context.limits.queryLimit,
        parameterLimit: context.limits.parameterLimit)
    var refusal = request.refusal
    request.method = method.map { String(cString: $0) } ?? "GET"
    request.headers = collected.headers
    if let version { request.httpVersion = String(cString: version) }
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        guard let base = buffer.baseAddress else { return }
        mapraster_mhd_client_address(connection, base, buffer.count)
        request.clientAddress = String(cString: base)
    }
    if refusal == nil { refusal = framingRefusal(collected, bodyLimit: context.limits.bodyLimit) }
    if refusal == nil, collected.hosts != 1, collected.hosts > 1 || request.httpVersion == "HTTP/1.1" {
        refusal = .error(400, "an HTTP/1.1 request needs exactly one Host header", parameter: "host")
    }
    request.refusal = refusal
    return request
}

/// `400` for framing that a proxy in front could read differently (request smuggling): `Content-Length`
/// given twice with different values or not a number, `Transfer-Encoding` other than `chunked` or together
/// with `Content-Length`; `413` for an announced body over the limit.
private func framingRefusal(_ collected: Collected, bodyLimit: Int) -> HTTPResponse? {
    let lengths = Set(collected.contentLengths.map { $0.trimmingCharacters(in: .whitespaces) })
    if !collected.transferEncodings.isEmpty {
        guard lengths.isEmpty else {
            return .error(400, "Transfer-Encoding and Content-Length together", parameter: "content-length")
        }
        guard collected.transferEncodings.count == 1,
            collected.transferEncodings[0].trimmingCharacters(in: .whitespaces).lowercased() == "chunked"
        else { return .error(400, "Transfer-Encoding must be chunked", parameter: "transfer-encoding") }
        return nil
    }
    guard lengths.count <= 1 else {
        return .error(400, "Content-Length given with different values", parameter: "content-length")
    }
    guard let text = lengths.first else { return nil }
    guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(text)
    else { return .error(400, "Content-Length must be a whole number of bytes", parameter: "content-length") }
    guard length <= bodyLimit else {
        return .error(413, "the request body is larger than \(bodyLimit) bytes", parameter: "body")
    }
    return nil
}

/// Answers on this I/O thread, or suspends the connection and hands the request to a worker (or, when no
/// worker can take it, answers `503`).
private func answer(_ pending: HTTPDaemon.Pending, on connection: OpaquePointer, context: HTTPDaemon.Context)
    -> MHD_Result
{
    let request = pending.request
    let quick = RequestContext.$onIOThread.withValue(true) { context.handler(request) }
    guard quick.status == HTTPResponse.needsWorker.status else { return send(quick, on: connection) }
    pending.stage = .waiting
    MHD_suspend_connection(connection)
    let handle = ConnectionHandle(connection: connection)
    let handler = context.handler
    let timeout = context.limits.renderTimeout
    let submitted = context.pool.submit { queued in
        pending.answer = RequestContext.$deadline.withValue(queued + timeout) { handler(request) }
        MHD_resume_connection(handle.connection)
    }
    if !submitted {
        pending.answer = context.busy(request)
        MHD_resume_connection(connection)
    }
    return MHD_Result.YES
}

/// A suspended connection, handed to the worker that resumes it (libmicrohttpd allows resuming from any
/// thread; the connection stays valid while suspended, and the pool stops before the daemon).
private struct ConnectionHandle: @unchecked Sendable {
    let connection: OpaquePointer
}

/// Headers read from a connection (names lowercased, repeated ones joined with ", "), and the framing headers
/// as given.
private struct Collected {
    var headers: [String: String] = [:]
    var contentLengths: [String] = []
    var transferEncodings: [String] = []
    var hosts = 0
}

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_Result.YES }
    let collected = cls.assumingMemoryBound(to: Collected.self)
    let lower = String(cString: key).lowercased()
    let text = value.map { String(cString: $0) } ?? ""
    if lower == "content-length" { collected.pointee.contentLengths.append(text) }
    if lower == "transfer-encoding" { collected.pointee.transferEncodings.append(text) }
    if lower == "host" { collected.pointee.hosts += 1 }
    if let existing = collected.pointee.headers[lower] {
        collected.pointee.headers[lower] = existing + ", " + text
    } else {
        collected.pointee.headers[lower] = text
    }
    return MHD_Result.YES
}

/// Queues `response` on the connection (the library copies the body).
private func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let made else { return MHD_Result.NO }
    defer { MHD_destroy_response(made) }
    for (name, value) in response.headers {
        // Header values come from the server's own code, never raw input; a line break would split the header.
        guard !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
        _ = MHD_add_response_header(made, name, value)
    }
    return MHD_queue_response(connection, UInt32(clamping: response.status), made)
}

/// Frees a request's state when libmicrohttpd is done with it; the connection now waits for its next head.
private let requestCompleted: MHD_RequestCompletedCallback = { _, connection, connectionContext, _ in
    if let connection {
        trackedConnection(connection)?.awaitingSince.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }
    guard let connectionContext, let pointer = connectionContext.pointee else { return }
    Unmanaged<HTTPDaemon.Pending>.fromOpaque(pointer).release()
    connectionContext.pointee = nil
}
