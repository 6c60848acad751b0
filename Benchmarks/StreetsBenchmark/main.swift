// MapRaster's side of Benchmarks/streets/bench-streets.py: warm in-process renders of the shipped `streets`
// style over the shipped vector MBTiles, one thread. Not a test; the Python script runs it (release build)
// next to MapLibre Native in the same run and prints the ratios. By hand:
//     swift build -c release && .build/release/StreetsBenchmark view 43.7384 7.4246 16 1024 768 20 nolabels
// renders once to warm up (tiles, fonts, sprites, caches), then ITERATIONS times (render + PNG encode), and
// prints one line: the median wall milliseconds and the median CPU milliseconds (the process's, all
// threads) per render. `labels` keeps the style's symbol layers (labels and icons), `nolabels` drops them;
// `both` renders the two in turn in one process (each iteration one of each, in alternating order, so both
// see the machine as it is at that moment) and prints the medians without the symbol layers, then with them,
// then the median over the iterations of each pair's CPU ratio (with / without);
// optional last arguments are the scale (2 for an @2x image: 2048x1536 pixels for 1024x768 points), the PNG
// compression level (0...9, 6 by default as in `mapraster render`) and a camera's heading and pitch (degrees; the
// view turned and tilted about its center, the zoom kept, as `mapraster render --heading --pitch` does).
//     .build/release/StreetsBenchmark pyramid 1.49,42.49,1.55,42.52 10-16 5 nolabels 6
// renders the tile pyramid of 256-point tiles over WEST,SOUTH,EAST,NORTH at the zooms into a fresh MBTiles file
// (one thread, PNG at the last argument's compression level), once to warm up and then ITERATIONS times, and
// prints the median wall and CPU milliseconds per pyramid and its tile count. Before each timed pyramid the
// decoded-tile cache is emptied (`VectorTileCache.byteLimit = 0`), so every pyramid decodes its vector tiles
// again as a `mapraster tiles` process does; what the warm-up leaves is the style, fonts, sprite and open files.
//     .build/release/StreetsBenchmark style STYLE.json openmaptiles=TILES.mbtiles SPRITE 43.7384 7.4246 17 1024 768 20 nolabels
// is `view` for a style file read as `mapraster render --style STYLE --source NAME=PATH --sprite SPRITE` reads
// it (SPRITE `-`: none); Benchmarks/openmaptiles/bench-openmaptiles.py runs it.
import Foundation
import MapRaster
import MapTiles

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

let commandLine = CommandLine.arguments.dropFirst().map { $0 }
let arguments = commandLine.first == "style" ? ["view"] + commandLine.dropFirst(4) : commandLine
if commandLine.first == "pyramid" {
    pyramid(Array(arguments.dropFirst()))
    exit(0)
}
var styleFile: Style?
if commandLine.first == "style" {
    let arguments = commandLine
    guard (11...13).contains(arguments.count), let eq = arguments[2].firstIndex(of: "="), eq != arguments[2].startIndex
    else {
        fail(
            "usage: StreetsBenchmark style STYLE NAME=PATH SPRITE|- LAT LON ZOOM WIDTH HEIGHT ITERATIONS labels|nolabels"
                + " [SCALE [LEVEL]]")
    }
    var options = StyleLoadOptions(sources: [
        String(arguments[2][..<eq]): String(arguments[2][arguments[2].index(after: eq)...])
    ])
    if arguments[3] != "-" { options.sprites["default"] = arguments[3] }
    do { styleFile = try Style.load(contentsOf: URL(fileURLWithPath: arguments[1]), options: options) } catch {
        fail("\(error)")
    }
}
guard (8...12).contains(arguments.count), arguments.count != 11, arguments[0] == "view",
    let latitude = Double(arguments[1]),
    let longitude = Double(arguments[2]), let zoom = Double(arguments[3]), let width = Double(arguments[4]),
    let height = Double(arguments[5]), let iterations = Int(arguments[6]), iterations > 0,
    ["labels", "nolabels", "both"].contains(arguments[7]),
    let scale = arguments.count >= 9 ? Double(arguments[8]) : 1, [1, 2, 3].contains(scale),
    let level = arguments.count >= 10 ? Int(arguments[9]) : 6, (0...9).contains(level),
    let heading = arguments.count == 12 ? Double(arguments[10]) : 0,
    let pitch = arguments.count == 12 ? Double(arguments[11]) : 0
else {
    fail(
        "usage: StreetsBenchmark view LAT LON ZOOM WIDTH HEIGHT ITERATIONS labels|nolabels|both"
            + " [SCALE [LEVEL [HEADING PITCH]]]")
}

/// One render (snapshot and PNG) of `options`: its wall and CPU milliseconds.
func timedRender(_ options: MapSnapshotter.Options, level: Int) throws -> (wall: Double, cpu: Double) {
    let start = ContinuousClock.now
    let cpu = cpuMilliseconds()
    _ = try MapSnapshotter(options: options).snapshot().image.pngData(compressionLevel: level)
    let cpuElapsed = cpuMilliseconds() - cpu
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15, cpuElapsed)
}

do {
    let withSymbols = try styleFile ?? ShippedStyle.streets.style()
    var withoutSymbols = withSymbols
    withoutSymbols.layers.removeAll { $0.type == .symbol }
    let size = Size(width: width, height: height)
    var options = MapSnapshotter.Options(size: size)
    options.visibleMapRect =
        try MapViewport(
            size: size, center: LocationCoordinate2D(latitude: latitude, longitude: longitude), zoomLevel: zoom
        ).visibleMapRect
    if heading != 0 || pitch != 0 {
        // Only the heading and pitch count: the visible rect gives the center and zoom.
        options.camera = try MapCamera(
            lookingAtCenter: LocationCoordinate2D(latitude: latitude, longitude: longitude), fromDistance: 1000,
            pitch: pitch, heading: heading)
    }
    options.scale = scale
    options.showsAttribution = false
    var plain = options
    plain.style = withoutSymbols
    var labelled = options
    labelled.style = withSymbols
    if arguments[7] == "both" {
        // opens the tiles and fonts, warms the caches
        _ = try timedRender(plain, level: level)
        _ = try timedRender(labelled, level: level)
        var without: [(wall: Double, cpu: Double)] = []
        var with: [(wall: Double, cpu: Double)] = []
        for i in 0..<iterations {
            if i % 2 == 0 {
                without.append(try timedRender(plain, level: level))
                with.append(try timedRender(labelled, level: level))
            } else {
                with.append(try timedRender(labelled, level: level))
                without.append(try timedRender(plain, level: level))
            }
        }
        print(
            String(
                format: "%.2f %.2f %.2f %.2f %.4f", median(without.map(\.wall)), median(without.map(\.cpu)),
                median(with.map(\.wall)), median(with.map(\.cpu)), median(zip(with, without).map { $0.cpu / $1.cpu })))
        exit(0)
    }
    let chosen = arguments[7] == "labels" ? labelled : plain
    // opens the tiles and fonts, warms the caches
    _ = try timedRender(chosen, level: level)
    var walls: [Double] = []
    var cpus: [Double] = []
    for _ in 0..<iterations {
        let (wall, cpu) = try timedRender(chosen, level: level)
        walls.append(wall)
        cpus.append(cpu)
    }
    print(String(format: "%.2f %.2f", median(walls), median(cpus)))
} catch {
    fail("\(error)")
}

/// The `pyramid` mode (see the top of the file).
func pyramid(_ arguments: [String]) {
    let box = arguments.first?.split(separator: ",").compactMap { Double($0) } ?? []
    let zooms = arguments.count > 1 ? arguments[1].split(separator: "-").compactMap { Int($0) } : []
    guard arguments.count == 5, box.count == 4, zooms.count == 2, let iterations = Int(arguments[2]), iterations > 0,
        ["labels", "nolabels"].contains(arguments[3]), let level = Int(arguments[4])
    else { fail("usage: StreetsBenchmark pyramid WEST,SOUTH,EAST,NORTH MINZ-MAXZ ITERATIONS labels|nolabels LEVEL") }
    do {
        var style = try ShippedStyle.streets.style()
        if arguments[3] == "nolabels" { style.layers.removeAll { $0.type == .symbol } }
        let pyramid = try TilePyramid(
            area: GeoBoundingBox(west: box[0], south: box[1], east: box[2], north: box[3]), minZoom: zooms[0],
            maxZoom: zooms[1], compressionLevel: level)
        let renderer = TileRenderer(pyramid: pyramid) { [style] (options: MapSnapshotter.Options) in
            var options = options
            options.style = style
            return try MapSnapshotter(options: options)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "streets-pyramid-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var tiles = 0
        func run(_ round: Int) throws {
            let url = folder.appendingPathComponent("\(round).mbtiles")
            let summary = try TileJob(renderer: renderer, threads: 1).run(
                into: try MBTilesTileSink(url: url, metadata: [:], resume: false), resume: false
            ) { _ in }
            tiles = summary.tilesWritten
            try FileManager.default.removeItem(at: url)
        }
        try run(0)
        var walls: [Double] = []
        var cpus: [Double] = []
        let limit = VectorTileCache.byteLimit
        for round in 1...iterations {
            VectorTileCache.byteLimit = 0
            VectorTileCache.byteLimit = limit
            let start = ContinuousClock.now
            let cpu = cpuMilliseconds()
            try run(round)
            cpus.append(cpuMilliseconds() - cpu)
            let elapsed = ContinuousClock.now - start
            walls.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        print(String(format: "%.2f %.2f %d", median(walls), median(cpus), tiles))
    } catch {
        fail("\(error)")
    }
}
