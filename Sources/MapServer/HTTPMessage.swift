import Foundation
import MapData

/// One HTTP request as the server's routes see it: the method, the path (percent-decoded by the HTTP
/// library), the query parameters in order (repeated names kept, as Google's `markers=` are), the
/// headers (names lowercased) and the body.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `POST`...
    public var method: String
    /// The path, without the query.
    public var path: String
    /// Query parameters in the order given, decoded.
    public var query: [(name: String, value: String)]
    /// Header values by lowercased name.
    public var headers: [String: String]
    /// The request body (POST).
    public var body: Data
    /// The client's IP address, for the access log ("-" when unknown, as in tests without a socket).
    public var clientAddress = "-"
    /// The protocol of the request line, for the access log.
    public var httpVersion = "HTTP/1.1"
    /// An answer the HTTP layer decided before any route ran (`413` for a body, `414` for a query over the
    /// limits); ``MapServer/handle(_:)`` sends it, counting and logging it as any other response.
    var refusal: HTTPResponse?

    /// Creates a request.
    public init(
        method: String = "GET", path: String, query: [(name: String, value: String)] = [],
        headers: [String: String] = [:], body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first value of query parameter `name`.
    public func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// Every value of query parameter `name`, in order.
    public func parameters(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }

    /// The characters a path keeps unencoded in ``target`` (a query part keeps the same but `/`).
    private static let pathAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~,:/@!$'()*;")
    private static let queryAllowed = pathAllowed.subtracting(CharacterSet(charactersIn: "/"))

    /// The request target as a client would have sent it: the path and the query, percent-encoded again
    /// (for the access log; the HTTP library hands over the decoded parts), so that it never holds a space,
    /// a quote or a line break.
    public var target: String {
        let encodedPath = path.addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? ""
        guard !query.isEmpty else { return encodedPath }
        func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: Self.queryAllowed) ?? ""
        }
        return encodedPath + "?" + query.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// Creates a request from a path with a query string (`/static?x=1&y=2`), percent-decoding the query
    /// (and `+` as a space) as an HTTP server does: for tests and for the access log.
    public init(method: String = "GET", target: String, headers: [String: String] = [:], body: Data = Data()) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        var query: [(name: String, value: String)] = []
        if parts.count == 2 {
            for item in parts[1].split(separator: "&") where !item.isEmpty {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                func decode(_ s: Substring) -> String {
                    String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
                }
                query.append((decode(pair[0]), pair.count == 2 ? decode(pair[1]) : ""))
            }
        }
        self.init(
            method: method, path: path.removingPercentEncoding ?? path, query: query, headers: headers, body: body)
    }
}

/// One HTTP response.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Headers in the order they are sent (`Content-Length` and `Date` are added by the HTTP library).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// A response with `body` of `contentType`.
    public static func data(_ body: Data, contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: body)
    }

    /// What ``MapServer/handle(_:)`` answers on an HTTP I/O thread for a request that must render (or miss the
    /// cache): the HTTP layer then hands the request to a render worker. Never sent.
    static let needsWorker = HTTPResponse(status: 0)

    /// `503` with `Retry-After: 1`.
    static func busy(_ message: String = "the server is busy; retry shortly") -> HTTPResponse {
        var response = HTTPResponse.error(503, message, parameter: nil)
        response.headers.append(("Retry-After", "1"))
        return response
    }

    /// A JSON error `{"error": message, "parameter": parameter}`: what is wrong and which part of the
    /// request it is in.
    public static func error(_ status: Int, _ message: String, parameter: String? = nil) -> HTTPResponse {
        var members: [(String, JSONValue)] = [("error", .string(message))]
        if let parameter { members.append(("parameter", .string(parameter))) }
        return data(
            Data(JSONValue.object(members).serialized(pretty: false).utf8),
            contentType: "application/json; charset=utf-8", status: status)
    }
}
