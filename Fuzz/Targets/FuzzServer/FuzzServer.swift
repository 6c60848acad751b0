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

/// HTTP requests as the HTTP layer hands them over: the input's first line is the raw request target
/// (`/styles/...?...`, decoded strictly as the server decodes every target), or `POST TARGET` followed by the
/// body on the next lines.
func fuzzServer(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let lines = bytes.split(separator: 10, maxSplits: 1, omittingEmptySubsequences: false)
    var target = Array(lines.first ?? [])
    var method = "GET"
    if target.starts(with: Array("POST ".utf8)) {
        method = "POST"
        target.removeFirst(5)
    }
    var request = HTTPRequest(method: method, rawTarget: target)
    request.body = lines.count > 1 ? Data(lines[1]) : Data()
    let response = server.handle(request)
    // Every answer is a known status; errors are JSON naming what is wrong.
    guard [200, 204, 304, 400, 404, 405, 413, 414, 503].contains(response.status) else {
        fatalError("unexpected status \(response.status) for \(String(decoding: target, as: UTF8.self))")
    }
    return 0
}
