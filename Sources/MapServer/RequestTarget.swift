import Foundation

/// The request target as the client sent it (`/path?query`), decoded strictly: the HTTP library hands it over
/// raw, so that a malformed or dangerous target is refused here with a JSON error naming what is wrong
/// instead of being decoded leniently (a `%00` once cut the path short and served another file).
struct RequestTarget {
    /// The percent-decoded path.
    var path: String
    /// The query parameters, decoded (`+` is a space), in order.
    var query: [(name: String, value: String)]

    /// A refusal: the status and the message of the JSON error.
    struct Refusal: Error {
        let status: Int
        let message: String
    }

    /// Decodes `raw`: the target must be an origin-form path (starting with `/`), hold no control bytes or
    /// spaces (raw or percent-encoded) and no malformed `%` escapes, decode to UTF-8, and keep its query
    /// within `queryLimit` bytes and `parameterLimit` parameters.
    ///
    /// - Throws: ``Refusal``: `400` for a malformed target, `414` for a query over the limits.
    init(raw: [UInt8], queryLimit: Int, parameterLimit: Int) throws(Refusal) {
        guard raw.first == UInt8(ascii: "/") else {
            throw Refusal(status: 400, message: "the request target must be a path starting with '/'")
        }
        let question = raw.firstIndex(of: UInt8(ascii: "?")) ?? raw.endIndex
        path = try Self.decode(raw[..<question], plusIsSpace: false, part: "path")
        query = []
        guard question < raw.endIndex else { return }
        let rawQuery = raw[raw.index(after: question)...]
        guard rawQuery.count <= queryLimit else {
            throw Refusal(status: 414, message: "the query is longer than \(queryLimit) bytes")
        }
        var count = 0
        for item in rawQuery.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            count += 1
            guard count <= parameterLimit else {
                throw Refusal(status: 414, message: "the query has more than \(parameterLimit) parameters")
            }
            let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
            let name = try Self.decode(item[..<equals], plusIsSpace: true, part: "query")
            let value =
                equals < item.endIndex
                ? try Self.decode(item[item.index(after: equals)...], plusIsSpace: true, part: "query") : ""
            query.append((name, value))
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Percent-decodes one part, refusing control bytes, `#`, malformed escapes and bytes that are not UTF-8.
    private static func decode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool, part: String) throws(Refusal) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte > 0x20, byte != 0x7f, byte != UInt8(ascii: "#") else {
                throw Refusal(status: 400, message: "the \(part) holds a space, '#' or a control byte: encode it")
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else {
                    throw Refusal(status: 400, message: "the \(part) holds a '%' not followed by two hex digits")
                }
                let decoded = high << 4 | low
                guard decoded >= 0x20, decoded != 0x7f else {
                    throw Refusal(
                        status: 400, message: "the \(part) holds an encoded control byte (%\(hex(decoded)))")
                }
                out.append(decoded)
                index += 3
                continue
            }
            out.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
            index += 1
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw Refusal(status: 400, message: "the \(part) does not decode to UTF-8 text")
        }
        return text
    }
}

extension HTTPRequest {
    /// A request for the target exactly as a client sent it (`/path?query`, raw bytes), decoded as the HTTP layer
    /// decodes every request: strictly (``RequestTarget``). A target that does not decode gives a request that
    /// ``MapServer/handle(_:)`` answers with its `400` or `414` JSON error.
    public init(method: String = "GET", rawTarget: [UInt8], queryLimit: Int = 16_384, parameterLimit: Int = 256) {
        do {
            let target = try RequestTarget(raw: rawTarget, queryLimit: queryLimit, parameterLimit: parameterLimit)
            self.init(method: method, path: target.path, query: target.query)
        } catch {
            self.init(method: method, path: "/")
            refusal = .error(error.status, error.message, parameter: error.status == 414 ? "query" : "target")
        }
    }
}
