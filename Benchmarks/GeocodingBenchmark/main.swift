// Reverse geocodes 1,000,000 random land points on one core and times PyPI's reverse_geocoder (mode 1: a
// single-process k-d tree over the same GeoNames places, nearest place only, no polygons) on the same points in
// the same run, then prints both and the ratio. Also: index build time, peak memory, forward search per query.
// Not a test: run it with
//     swift build -c release --product GeocodingBenchmark && .build/release/GeocodingBenchmark
// The peer needs `pip install reverse_geocoder numpy`; set PYTHON to that interpreter (default python3).
import Foundation
import MapGeocoding
import MapGeometry

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// CPU seconds of this process: fair on a machine shared with other jobs, where wall time is not.
func cpu() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func peakMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1_000_000
let start = now()
let startCPU = cpu()
let geocoder = try Geocoder()
let buildSeconds = now() - start
let buildCPU = cpu() - startCPU
let memoryAfterBuild = peakMegabytes()
print(
    String(
        format: "MapGeocoding: data load + index build %.3f s CPU (%.3f s wall), peak RSS %.0f MB", buildCPU,
        buildSeconds, memoryAfterBuild))

// Random land points: uniform on the sphere (deterministic SplitMix64), kept when a country contains them.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
var random = SplitMix64(state: 0x1515_1515)
var points: [LocationCoordinate2D] = []
points.reserveCapacity(count)
while points.count < count {
    let latitude = asin(2 * random.next() - 1) * 180 / .pi
    let longitude = 360 * random.next() - 180
    let point = LocationCoordinate2D(latitude: latitude, longitude: longitude)
    if (try? geocoder.reverseGeocode(point)) != nil { points.append(point) }
}

// MapGeocoding: full placemarks, one core.
var localities = 0
let reverseStart = now()
let reverseStartCPU = cpu()
for point in points {
    if let placemark = try? geocoder.reverseGeocode(point), placemark.locality != nil { localities += 1 }
}
let reverseSeconds = cpu() - reverseStartCPU
let reverseWall = now() - reverseStart
print(
    String(
        format: "MapGeocoding: %d land points reverse geocoded in %.3f s CPU, %.3f s wall (%.2f µs each; "
            + "%d with a locality), peak RSS %.0f MB", points.count, reverseSeconds, reverseWall,
        reverseSeconds / Double(points.count) * 1e6, localities, peakMegabytes()))

// Forward search: the 1,000 queries of the forward test.
let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
if let text = try? String(contentsOf: package.appendingPathComponent("fixtures/geocoding/forward.csv"), encoding: .utf8)
{
    let queries = text.split(separator: "\n").dropFirst().compactMap { line -> String? in
        guard line.first == "\"", let end = line.dropFirst().firstIndex(of: "\"") else {
            return line.split(separator: ",").first.map(String.init)
        }
        return String(line[line.index(after: line.startIndex)..<end])
    }
    let indexStart = cpu()
    _ = try? geocoder.geocode("Tempe")
    let indexSeconds = cpu() - indexStart
    let forwardStart = cpu()
    var found = 0
    for query in queries where (try? geocoder.geocode(query, limit: 5))?.isEmpty == false { found += 1 }
    let forwardSeconds = cpu() - forwardStart
    print(
        String(
            format:
                "MapGeocoding: name index built on the first search in %.3f s CPU; %d forward searches in %.3f s CPU "
                + "(%.3f ms each, %d found)", indexSeconds, queries.count, forwardSeconds,
            forwardSeconds / Double(max(1, queries.count)) * 1000, found))
}

// The peer, on the same points.
let file = FileManager.default.temporaryDirectory.appendingPathComponent("geocoding-bench-\(getpid()).f64")
var raw: [Double] = []
raw.reserveCapacity(points.count * 2)
for point in points { raw.append(contentsOf: [point.latitude, point.longitude]) }
try raw.withUnsafeBytes { try Data($0).write(to: file) }
defer { try? FileManager.default.removeItem(at: file) }
let python = ProcessInfo.processInfo.environment["PYTHON"] ?? "python3"
let process = Process()
process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
process.arguments = [python, package.appendingPathComponent("Scripts/bench-reverse-geocoder.py").path, file.path]
// One core for the peer too: no BLAS worker threads.
var environment = ProcessInfo.processInfo.environment
environment["OPENBLAS_NUM_THREADS"] = "1"
environment["OMP_NUM_THREADS"] = "1"
process.environment = environment
let pipe = Pipe()
process.standardOutput = pipe
try process.run()
let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
process.waitUntilExit()
print(output, terminator: "")
if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("query_seconds=") }),
    let peerSeconds = Double(line.dropFirst("query_seconds=".count))
{
    print(
        String(
            format: "ratio (CPU time): MapGeocoding is %.2fx the speed of reverse_geocoder mode 1 (%.3f s vs %.3f s)",
            peerSeconds / reverseSeconds, reverseSeconds, peerSeconds))
} else {
    print("reverse_geocoder did not run (set PYTHON to an interpreter with reverse_geocoder and numpy)")
}
