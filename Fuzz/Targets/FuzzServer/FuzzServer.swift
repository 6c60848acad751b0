import Foundation
import MapRaster
import MapServer

/// One server for every input: the muted style, images of at most 64 points a side, no cache.
let server: MapServer = {
    var config = ServerConfiguration()
    do {
        config.styles = try ServerConfiguration.shippedStyles().filter { $0.id == "muted" }
        config.maximumSize = 64
        config.maximumScale = 1
        config.cacheBytes = 0
        config.workers = 1
        return try MapServer(configuration: config)
    } catch { fatalError("the fuzz server cannot start: \(error)") }
}()

/// HTTP requests as routes see them: the input's first line is the request target (`/styles/...?...`), or
/// `POST TARGET` followed by the body on the next lines.
func fuzzServer(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    var target = String(lines.first ?? "")
    var method = "GET"
    if target.hasPrefix("POST ") {
        method = "POST"
        target.removeFirst(5)
    }
    let body = lines.count > 1 ? Data(lines[1].utf8) : Data()
    let response = server.handle(HTTPRequest(method: method, target: target, body: body))
    // Every answer is a known status; errors are JSON naming what is wrong.
    guard [200, 204, 304, 400, 404, 405, 413, 414, 503].contains(response.status) else {
        fatalError("unexpected status \(response.status) for \(target)")
    }
    return 0
}
