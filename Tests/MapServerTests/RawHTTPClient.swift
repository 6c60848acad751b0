import Foundation

/// A client that writes exactly the bytes it is given on a loopback socket and reads one response: for requests
/// no HTTP library would send. Every read is bounded (`timeout` seconds without data ends it), so a server that
/// hangs fails a test instead of stopping it.
struct RawHTTPClient {
    /// One response as read.
    struct Reply {
        /// The status code, or nil when no status line came.
        var status: Int?
        /// Header values by lowercased name.
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        /// The server closed the connection (before or after a response).
        var closed = false
        /// No byte came for the timeout: a hang.
        var timedOut = false
        /// Every byte read.
        var raw: [UInt8] = []
    }

    let port: Int
    var timeout = 10

    /// A connected socket (from `source`, a loopback address), or -1.
    func connect(source: String = "127.0.0.1") -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        _ = inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = UInt16(port).bigEndian
        _ = inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            return -1
        }
        return fd
    }

    /// Writes `bytes` (all of them, or until the server stops reading); false when the server closed first.
    @discardableResult
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads one response from `fd`: until its body is complete (by `Content-Length`), the server closes, or
    /// nothing comes for the timeout. `head`: a response to HEAD (no body).
    static func read(_ fd: Int32, head: Bool = false) -> Reply {
        var reply = Reply()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var headerEnd: Int?
        var length: Int?
        while true {
            if let end = headerEnd, reply.raw.count >= end + (length ?? Int.max) { break }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 {
                reply.closed = true
                break
            }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { reply.timedOut = true } else { reply.closed = true }
                break
            }
            reply.raw += buffer[0..<count]
            guard headerEnd == nil, let range = find([13, 10, 13, 10], in: reply.raw) else { continue }
            headerEnd = range
            let head0 = String(decoding: reply.raw[0..<range], as: UTF8.self)
            let lines = head0.components(separatedBy: "\r\n")
            let statusParts = lines[0].split(separator: " ")
            if statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/") { reply.status = Int(statusParts[1]) }
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                reply.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            length = head ? 0 : reply.headers["content-length"].flatMap { Int($0) }
            headerEnd = range + 4
        }
        if let end = headerEnd { reply.body = Array(reply.raw[min(end, reply.raw.count)...]) }
        return reply
    }

    /// Sends `bytes` on a new connection and reads the response.
    func exchange(_ bytes: [UInt8], head: Bool = false) -> Reply {
        let fd = connect()
        guard fd >= 0 else { return Reply(closed: true) }
        defer { close(fd) }
        Self.write(fd, bytes)
        return Self.read(fd, head: head)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if Array(haystack[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}
