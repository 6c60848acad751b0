// MapRaster's side of Benchmarks/streets/bench-streets.py: warm in-process renders of the shipped `streets`
// style over the shipped vector MBTiles, one thread. Not a test; the Python script runs it (release build)
// next to MapLibre Native in the same run and prints the ratios. By hand:
//     swift build -c release && .build/release/StreetsBenchmark view 43.7384 7.4246 16 1024 768 20 nolabels
// renders once to warm up (tiles, fonts, sprites, caches), then ITERATIONS times (render + PNG encode), and
// prints one line: the median wall milliseconds and the median CPU milliseconds (the process's, all
// threads) per render. `labels` keeps the style's symbol layers (labels and icons), `nolabels` drops them;
// an optional last argument is the scale (2 for an @2x image: 2048x1536 pixels for 1024x768 points).
import Foundation
import MapRaster

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StreetsBenchmark: \(message)\n".utf8))
    exit(64)
}

func cpuMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
}

let arguments = CommandLine.arguments.dropFirst().map { $0 }
guard arguments.count == 8 || arguments.count == 9, arguments[0] == "view", let latitude = Double(arguments[1]),
    let longitude = Double(arguments[2]), let zoom = Double(arguments[3]), let width = Double(arguments[4]),
    let height = Double(arguments[5]), let iterations = Int(arguments[6]), iterations > 0,
    ["labels", "nolabels"].contains(arguments[7]),
    let scale = arguments.count == 9 ? Double(arguments[8]) : 1, [1, 2, 3].contains(scale)
else { fail("usage: StreetsBenchmark view LAT LON ZOOM WIDTH HEIGHT ITERATIONS labels|nolabels [SCALE]") }

do {
    var style = try ShippedStyle.streets.style()
    if arguments[7] == "nolabels" { style.layers.removeAll { $0.type == .symbol } }
    let size = Size(width: width, height: height)
    var options = MapSnapshotter.Options(size: size)
    options.visibleMapRect =
        try MapViewport(
            size: size, center: LocationCoordinate2D(latitude: latitude, longitude: longitude), zoomLevel: zoom
        ).visibleMapRect
    options.style = style
    options.scale = scale
    options.showsAttribution = false
    _ = try MapSnapshotter(options: options).snapshot().image.pngData()  // opens the tiles and fonts, warms the caches
    var walls: [Double] = []
    var cpus: [Double] = []
    for _ in 0..<iterations {
        let start = ContinuousClock.now
        let cpu = cpuMilliseconds()
        _ = try MapSnapshotter(options: options).snapshot().image.pngData()
        cpus.append(cpuMilliseconds() - cpu)
        let elapsed = ContinuousClock.now - start
        walls.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    print(String(format: "%.2f %.2f", median(walls), median(cpus)))
} catch {
    fail("\(error)")
}
