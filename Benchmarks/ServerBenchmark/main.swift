import Foundation
import MapRaster
import MapServer
import Synchronization

// The in-process side of Benchmarks/server-load.sh: the same requests answered by MapServer.handle() with no
// HTTP, on THREADS threads for SECONDS, response cache off. Prints requests per second.
//
//   swift build -c release --product ServerBenchmark
//   .build/release/ServerBenchmark render SCENE.json [STYLE_ID] THREADS SECONDS
//   .build/release/ServerBenchmark tiles TILES.txt THREADS SECONDS     (one /styles/... path per line)
let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    FileHandle.standardError.write(
        Data("usage: ServerBenchmark render SCENE [STYLE] THREADS SECONDS | tiles LIST THREADS SECONDS\n".utf8))
    exit(64)
}
var config = ServerConfiguration()
config.styles = try ServerConfiguration.shippedStyles()
if let extra = ProcessInfo.processInfo.environment["SERVER_STYLE"], let eq = extra.firstIndex(of: "=") {
    try config.addStyle(id: String(extra[..<eq]), path: String(extra[extra.index(after: eq)...]))
}
config.cacheBytes = 0
config.workers = 64
let server = try MapServer(configuration: config)
let mode = arguments[1]
var requests: [HTTPRequest] = []
let threads: Int
let seconds: Double
if mode == "render" {
    let body = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let style = arguments.count >= 6 ? arguments[3] : nil
    threads = Int(arguments[arguments.count - 2]) ?? 1
    seconds = Double(arguments[arguments.count - 1]) ?? 10
    requests = [HTTPRequest(method: "POST", target: "/render" + (style.map { "?style=\($0)" } ?? ""), body: body)]
} else {
    let list = try String(contentsOf: URL(fileURLWithPath: arguments[2]), encoding: .utf8)
    requests = list.split(separator: "\n").map { HTTPRequest(target: String($0)) }
    threads = Int(arguments[3]) ?? 1
    seconds = Double(arguments[4]) ?? 10
}
// Warm up: every request once.
for request in requests { _ = server.handle(request) }
let work = requests
let count = Atomic<Int>(0)
let failures = Atomic<Int>(0)
let start = Date()
DispatchQueue.concurrentPerform(iterations: threads) { t in
    var i = t
    while Date().timeIntervalSince(start) < seconds {
        let response = server.handle(work[i % work.count])
        if response.status != 200 { failures.add(1, ordering: .relaxed) }
        count.add(1, ordering: .relaxed)
        i += threads
    }
}
let elapsed = Date().timeIntervalSince(start)
let done = count.load(ordering: .relaxed)
print(
    String(
        format: "in-process %@ threads=%d: %d requests in %.1f s = %.1f req/s (%d not 200)", mode, threads, done,
        elapsed, Double(done) / elapsed, failures.load(ordering: .relaxed)))
