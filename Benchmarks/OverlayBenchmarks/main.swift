// Overlay benchmarks: a polyline of 1,000,000 points drawn into a city-sized view.
//
// Run: swift run -c release OverlayBenchmarks
//
// The peer, measured in the same run, is the naive way (what MapRaster did before the geometry
// pipeline): every vertex projected and handed to Cairo in one path, no clipping, no simplification.
// Peak memory is the process's maximum resident set size (getrusage), printed after each stage.
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
print("overlay benchmark: polyline of \(count) points, 1024x768 view of central Helsinki (6 km), no base map")
let coordinates = cityTrack(count: count)
let buildStart = DispatchTime.now().uptimeNanoseconds
let polyline = Polyline(coordinates: coordinates)
let buildTime = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e9
print(String(format: "  build Polyline (project, bounds): %.3f s, peak RSS %.0f MB", buildTime, peakMegabytes()))

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

for scale in [1.0, 2.0] {
    var pipelineTimes: [Double] = []
    var naiveTimes: [Double] = []
    var pipelineBytes = Data()
    var naiveBytes = Data()
    for _ in 0..<3 {
        let s = try snapshotter(scale: scale)
        s.addOverlay(polyline)
        pipelineTimes.append(try time { pipelineBytes = try s.snapshot().image.pngData() })
    }
    let pipelinePeak = peakMegabytes()
    for _ in 0..<3 {
        let s = try snapshotter(scale: scale)
        s.addOverlay(polyline)
        s.rendererProvider = { NaiveRenderer($0 as! Polyline) }
        naiveTimes.append(try time { naiveBytes = try s.snapshot().image.pngData() })
    }
    let p = pipelineTimes.sorted()[1]
    let n = naiveTimes.sorted()[1]
    print(
        String(
            format:
                "  scale %.0f: pipeline %.3f s (median of 3, incl. PNG), peak RSS %.0f MB | naive peer %.3f s, peak RSS %.0f MB | ratio %.2fx",
            scale, p, pipelinePeak, n, peakMegabytes(), n / p))
    print("           PNG bytes pipeline \(pipelineBytes.count), naive \(naiveBytes.count)")
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
