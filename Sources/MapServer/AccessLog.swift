import Foundation
import MapData

/// One access-log line per request, in the format the configuration names.
public enum AccessLogFormat: String, Sendable, CaseIterable {
    /// The Common Log Format of Apache and nginx:
    /// `127.0.0.1 - - [30/Nov/2026:16:30:00 +0000] "GET /styles/streets/14/8529/5975.png HTTP/1.1" 200 20417`.
    case common
    /// One JSON object per line: `time` (ISO 8601, UTC, milliseconds), `client`, `method`, `target`,
    /// `protocol`, `status`, `bytes`, `ms` (time to answer), `endpoint` (as in `/metrics`), `referer`,
    /// `userAgent`.
    case json
    /// No access log.
    case off
}

/// Formats access-log lines.
enum AccessLog {
    /// The line for one answered request, or nil when the format is ``AccessLogFormat/off``.
    static func line(
        _ format: AccessLogFormat, request: HTTPRequest, response: HTTPResponse, endpoint: String, seconds: Double,
        at time: timespec
    ) -> String? {
        // A HEAD answer sends no body.
        let sent = request.method == "HEAD" ? 0 : response.body.count
        var seconds1970 = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds1970, &parts)
        switch format {
        case .off:
            return nil
        case .common:
            let month = months[Int(parts.tm_mon).clamped(to: 0...11)]
            let date =
                "\(pad(parts.tm_mday))/\(month)/\(parts.tm_year + 1900):\(pad(parts.tm_hour)):\(pad(parts.tm_min)):"
                + "\(pad(parts.tm_sec)) +0000"
            let requestLine = escaped("\(request.method) \(request.target) \(request.httpVersion)")
            let bytes = sent == 0 ? "-" : String(sent)
            return "\(escaped(request.clientAddress)) - - [\(date)] \"\(requestLine)\" \(response.status) \(bytes)"
        case .json:
            let millis = Int(time.tv_nsec / 1_000_000).clamped(to: 0...999)
            let stamp =
                "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):"
                + "\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(String(millis + 1000).dropFirst())Z"
            var members: [(String, JSONValue)] = [
                ("time", .string(stamp)), ("client", .string(request.clientAddress)),
                ("method", .string(request.method)), ("target", .string(request.target)),
                ("protocol", .string(request.httpVersion)), ("status", .number(Double(response.status))),
                ("bytes", .number(Double(sent))),
                ("ms", .number((seconds * 10_000).rounded() / 10)), ("endpoint", .string(endpoint)),
            ]
            if let referer = request.headers["referer"] { members.append(("referer", .string(referer))) }
            if let agent = request.headers["user-agent"] { members.append(("userAgent", .string(agent))) }
            return JSONValue.object(members).serialized(pretty: false)
        }
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func pad(_ n: Int32) -> String { n < 10 ? "0\(n)" : String(n) }

    /// Text safe inside a Common Log Format field: `"`, `\` and control or non-ASCII bytes as `\xHH`, as
    /// Apache writes them, so that a request cannot forge a log line.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte < 0x20 || byte >= 0x7f || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out += "\\x" + String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
