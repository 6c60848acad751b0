import CMicroHTTPD
import Foundation

/// libmicrohttpd, the HTTP/1.1 server: the only file that calls it. One thread per connection (keep-alive,
/// HEAD, `Date` and `Content-Length` are the library's); each request is read whole (a POST body up to
/// `bodyLimit` bytes) and handed to `handler` on its connection's thread.
final class HTTPDaemon: @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private var daemon: OpaquePointer?
    private let context: Unmanaged<Context>

    /// What the C callbacks need: the handler and the limits.
    final class Context: @unchecked Sendable {
        let handler: Handler
        let bodyLimit: Int
        let queryLimit: Int
        init(handler: @escaping Handler, bodyLimit: Int, queryLimit: Int) {
            self.handler = handler
            self.bodyLimit = bodyLimit
            self.queryLimit = queryLimit
        }
    }

    /// One request being read (a POST body may arrive in several calls).
    final class Pending {
        var body = Data()
        var tooLarge = false
    }

    /// The port the daemon listens on (the one the system chose when asked for port 0).
    let port: Int

    /// Starts listening on `address`:`port` (IPv4 dotted quad).
    ///
    /// - Throws: ``ServerError/cannotListen(_:)`` when the address is not IPv4 or the port cannot be bound.
    init(
        address: String, port: Int, connectionLimit: Int, timeoutSeconds: Int, bodyLimit: Int, queryLimit: Int,
        handler: @escaping Handler
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
        let context = Unmanaged.passRetained(Context(handler: handler, bodyLimit: bodyLimit, queryLimit: queryLimit))
        self.context = context
        let flags =
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_ITC.rawValue
        let started = withUnsafePointer(to: &sin) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                mapraster_mhd_start(
                    flags, port16, address, accessHandler, context.toOpaque(), requestCompleted,
                    UInt32(clamping: connectionLimit), UInt32(clamping: timeoutSeconds), 64 * 1024)
            }
        }
        guard let started else {
            context.release()
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

    /// Stops the daemon: closes the listening socket and every connection, waiting for their threads.
    func stop() {
        guard let daemon else { return }
        MHD_stop_daemon(daemon)
        self.daemon = nil
        context.release()
    }

    deinit { stop() }
}

/// Called by libmicrohttpd for each request, several times for a request with a body: the first call makes
/// the request's state, the next ones add body chunks, the last one (no more data) answers.
private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, version, uploadData, uploadDataSize, connectionContext in
    guard let cls, let connection, let connectionContext, let uploadDataSize else { return MHD_Result.NO }
    let context = Unmanaged<HTTPDaemon.Context>.fromOpaque(cls).takeUnretainedValue()
    guard let pendingPointer = connectionContext.pointee else {
        connectionContext.pointee = Unmanaged.passRetained(HTTPDaemon.Pending()).toOpaque()
        return MHD_Result.YES
    }
    let pending = Unmanaged<HTTPDaemon.Pending>.fromOpaque(pendingPointer).takeUnretainedValue()
    if uploadDataSize.pointee > 0 {
        if let uploadData, !pending.tooLarge {
            if pending.body.count + uploadDataSize.pointee > context.bodyLimit {
                pending.tooLarge = true
                pending.body = Data()
            } else {
                pending.body.append(
                    UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: uploadDataSize.pointee)
            }
        }
        uploadDataSize.pointee = 0
        return MHD_Result.YES
    }
    var request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/")
    var collected = Collected()
    withUnsafeMutablePointer(to: &collected) { pointer in
        _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectValue, pointer)
        pointer.pointee.isQuery = true
        _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, collectValue, pointer)
    }
    request.headers = collected.headers
    request.query = collected.query
    request.body = pending.body
    if let version { request.httpVersion = String(cString: version) }
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        mapraster_mhd_client_address(connection, buffer.baseAddress, buffer.count)
        request.clientAddress = String(cString: buffer.baseAddress!)
    }
    if pending.tooLarge {
        request.body = Data()
        request.refusal = .error(413, "the request body is larger than \(context.bodyLimit) bytes", parameter: "body")
    } else if collected.queryBytes > context.queryLimit {
        request.query = []
        request.refusal = .error(414, "the query is longer than \(context.queryLimit) bytes", parameter: "query")
    }
    return send(context.handler(request), on: connection)
}

/// Headers and query parameters read from a connection.
private struct Collected {
    var headers: [String: String] = [:]
    var query: [(name: String, value: String)] = []
    var queryBytes = 0
    var isQuery = false
}

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_Result.YES }
    let collected = cls.assumingMemoryBound(to: Collected.self)
    let name = String(cString: key)
    let text = value.map { String(cString: $0) } ?? ""
    if collected.pointee.isQuery {
        collected.pointee.query.append((name, text))
        collected.pointee.queryBytes += name.utf8.count + text.utf8.count + 2
    } else {
        let lower = name.lowercased()
        if let existing = collected.pointee.headers[lower] {
            collected.pointee.headers[lower] = existing + ", " + text
        } else {
            collected.pointee.headers[lower] = text
        }
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

/// Frees a request's state when libmicrohttpd is done with it.
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, connectionContext, _ in
    guard let connectionContext, let pointer = connectionContext.pointee else { return }
    Unmanaged<HTTPDaemon.Pending>.fromOpaque(pointer).release()
    connectionContext.pointee = nil
}
