// MapRaster's side of Benchmarks/streets/bench-streets.py: warm in-process renders of the shipped `streets`
// style over the shipped vector MBTiles, one thread. Not a test; the Python script runs it (release build)
// next to MapLibre Native in the same run and prints the ratios. By hand:
//     swift build -c release && .build/release/StreetsBenchmark view 43.7384 7.4246 16 1024 768 20 nolabels
// prints the best of 3 rounds of 20 renders in milliseconds per render (render + PNG encode), one line.
import Foundation
import MapRaster

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StreetsBenchmark: \(message)\n".utf8))
    exit(64)
}

let arguments = CommandLine.arguments.dropFirst().map { $0 }
guard arguments.count == 8, arguments[0] == "view", let latitude = Double(arguments[1]),
    let longitude = Double(arguments[2]), let zoom = Double(arguments[3]), let width = Double(arguments[4]),
    let height = Double(arguments[5]), let iterations = Int(arguments[6]), iterations > 0,
    ["labels", "nolabels"].contains(arguments[7])
else { fail("usage: StreetsBenchmark view LAT LON ZOOM WIDTH HEIGHT ITERATIONS labels|nolabels") }

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
    options.showsAttribution = false
    _ = try MapSnapshotter(options: options).snapshot().image.pngData()  // opens the tiles and fonts, warms the caches
    var best = Double.infinity
    for _ in 0..<3 {
        let start = ContinuousClock.now
        for _ in 0..<iterations { _ = try MapSnapshotter(options: options).snapshot().image.pngData() }
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        best = min(best, ms / Double(iterations))
    }
    print(String(format: "%.2f", best))
} catch {
    fail("\(error)")
}
