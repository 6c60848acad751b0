// Overlay benchmarks: a polyline of 1,000,000 points drawn into a city-sized view.
//
// Run: swift run -c release OverlayBenchmarks
//
// The peer, measured in the same run, is the naive way (what MapRaster did before the geometry
// pipeline): every vertex projected and handed to Cairo in one path, no clipping, no simplification.
// Peak memory is the maximum resident set size (getrusage) of a child process running one case (the
// 1,000,000 coordinates and their map points alone take about 100 MB of it).
import Foundation
import MapRaster

#if canImport(Glibc)
    import Glibc
#endif

func peakMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// A deterministic random walk of `count` points around central Helsinki, about 8 km across: a GPS
/// track sampled far more densely than pixels.
func cityTrack(count: Int) -> [LocationCoordinate2D] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53) - 0.5
    }
    var lat = 60.17
    var lon = 24.94
    var heading = 0.0
    var result: [LocationCoordinate2D] = []
    result.reserveCapacity(count)
    for _ in 0..<count {
        heading += next() * 0.6
        lat += cos(heading) * 0.00004
        lon += sin(heading) * 0.00008
        // Stay within about 4 km of the center.
        if abs(lat - 60.17) > 0.035 { heading += .pi; lat = max(60.135, min(60.205, lat)) }
        if abs(lon - 24.94) > 0.07 { heading += .pi; lon = max(24.87, min(25.01, lon)) }
        result.append(LocationCoordinate2D(latitude: lat, longitude: lon))
    }
    return result
}

let count = 1_000_000
let region = CoordinateRegion(
    center: LocationCoordinate2D(latitude: 60.17, longitude: 24.94), latitudinalMeters: 6_000,
    longitudinalMeters: 6_000)
func snapshotter(scale: Double) throws -> MapSnapshotter {
    var options = MapSnapshotter.Options(size: Size(width: 1024, height: 768), scale: scale)
    options.region = region
    options.showsAttribution = false
    let s = try MapSnapshotter(options: options)
    s.baseMap = nil
    return s
}

/// The peer: one Cairo path with every vertex.
final class NaiveRenderer: OverlayRenderer {
    let line: Polyline
    init(_ line: Polyline) {
        self.line = line
        super.init(overlay: line)
    }
    override func draw(in context: GraphicsContext, viewport: MapViewport, worldOffset: Double) {
        var path = Path()
        for (i, p) in line.points.enumerated() {
            let q = viewport.point(for: MapPoint(x: p.x + worldOffset, y: p.y))
            if i == 0 { path.move(to: q) } else { path.addLine(to: q) }
        }
        context.setStrokeColor(Color(red8: 0, green8: 122, blue8: 255))
        context.setLineWidth(3)
        context.setLineJoin(.round)
        context.setLineCap(.round)
        context.stroke(path)
    }
}

/// Runs one case in this process: 3 snapshots (render + PNG), prints "median-seconds peak-MB png-bytes".
@MainActor func runCase(mode: String, scale: Double) throws {
    let polyline = Polyline(coordinates: cityTrack(count: count))
    var times: [Double] = []
    var bytes = Data()
    for _ in 0..<3 {
        let s = try snapshotter(scale: scale)
        s.addOverlay(polyline)
        if mode == "naive" { s.rendererProvider = { NaiveRenderer($0 as! Polyline) } }
        times.append(try time { bytes = try s.snapshot().image.pngData() })
    }
    print(times.sorted()[1], peakMegabytes(), bytes.count)
}

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--case", let scale = Double(arguments[3]) {
    try runCase(mode: arguments[2], scale: scale)
    exit(0)
}

/// Runs a case in a child process, so that its peak memory is its own.
@MainActor func child(_ mode: String, _ scale: Double) throws -> (time: Double, peak: Double, bytes: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = ["--case", mode, String(scale)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let fields = output.split(whereSeparator: \.isWhitespace).suffix(3).compactMap { Double($0) }
    guard fields.count == 3 else { fatalError("child \(mode) \(scale) printed: \(output)") }
    return (fields[0], fields[1], Int(fields[2]))
}

print("overlay benchmark: polyline of \(count) points, 1024x768 view of central Helsinki (6 km), no base map")
let buildStart = DispatchTime.now().uptimeNanoseconds
let track = cityTrack(count: count)
_ = Polyline(coordinates: track)
print(
    String(
        format: "  make 1,000,000 coordinates and the Polyline (project, bounds): %.3f s",
        Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e9))
for scale in [1.0, 2.0] {
    let p = try child("pipeline", scale)
    let n = try child("naive", scale)
    print(
        String(
            format:
                "  scale %.0f: pipeline %.3f s (median of 3, render + PNG), peak RSS %.0f MB | naive peer %.3f s, peak RSS %.0f MB | peer/pipeline time %.2fx",
            scale, p.time, p.peak, n.time, n.peak, n.time / p.time))
    print("           PNG bytes pipeline \(p.bytes), naive \(n.bytes)")
}

// A world-spanning 1,000,000-point line seen at street level: almost everything is clipped away.
let worldLine = Polyline(
    coordinates: (0..<count).map { i in
        let t = Double(i) / Double(count - 1)
        return LocationCoordinate2D(latitude: 60.17 + 0.001 * sin(t * 4000), longitude: -170 + 340 * t)
    })
var options = MapSnapshotter.Options(size: Size(width: 1024, height: 768))
options.region = CoordinateRegion(
    center: LocationCoordinate2D(latitude: 60.17, longitude: 24.94), latitudinalMeters: 2_000,
    longitudinalMeters: 2_000)
options.showsAttribution = false
let street = try MapSnapshotter(options: options)
street.baseMap = nil
street.addOverlay(worldLine)
let streetTime = try time { _ = try street.snapshot() }
print(
    String(format: "  world-long line at street zoom (clipped): %.3f s, peak RSS %.0f MB", streetTime, peakMegabytes()))

// PEERS.md's static-map scene without the pins: 100 routes of 50 points, 50 circles, 20 polygons in
// an 800x600 view of Europe (render + PNG, with the base map).
do {
    var state: UInt64 = 7
    func random() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    func point() -> LocationCoordinate2D {
        LocationCoordinate2D(latitude: 40 + random() * 20, longitude: -5 + random() * 30)
    }
    /// A route: 50 points, steps of up to 0.3 degrees.
    func route() -> [LocationCoordinate2D] {
        var c = point()
        return (0..<50).map { _ in
            c = LocationCoordinate2D(
                latitude: c.latitude + (random() - 0.5) * 0.4, longitude: c.longitude + (random() - 0.5) * 0.6)
            return c
        }
    }
    var options = MapSnapshotter.Options(size: Size(width: 800, height: 600))
    options.region = CoordinateRegion(
        center: LocationCoordinate2D(latitude: 50, longitude: 10),
        span: CoordinateSpan(latitudeDelta: 25, longitudeDelta: 40))
    var baseTimes: [Double] = []
    for _ in 0..<3 {
        let s = try MapSnapshotter(options: options)
        baseTimes.append(try time { _ = try s.snapshot().image.pngData() })
    }
    var times: [Double] = []
    for _ in 0..<3 {
        let s = try MapSnapshotter(options: options)
        for _ in 0..<100 { s.addOverlay(Polyline(coordinates: route())) }
        for _ in 0..<50 { s.addOverlay(Circle(center: point(), radius: 20_000 + random() * 200_000)) }
        for _ in 0..<20 { s.addOverlay(Polygon(coordinates: (0..<8).map { _ in point() })) }
        times.append(try time { _ = try s.snapshot().image.pngData() })
    }
    print(
        String(
            format:
                "  PEERS scene without pins (100 routes x 50 pts, 50 circles, 20 polygons, 800x600): %.3f s; the same base map alone %.3f s",
            times.sorted()[1], baseTimes.sorted()[1]))
}
