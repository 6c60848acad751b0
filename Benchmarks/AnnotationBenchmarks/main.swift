// Annotation benchmarks. Build in release mode and run from the package root:
//
//     swift build -c release && .build/release/AnnotationBenchmarks
//
// 1. annotations(in:) on 1,000,000 annotations for a city-sized rect against a linear scan.
// 2. The view bitmap reuse cache: 1,000 default pins drawn with and without reuse.
// 3. A whole `mapraster render` process for an 800x600 image with 1,000 default pins, 100 polylines of 50
//    points, 50 circles and 20 polygons (no base map) against a hand-written pycairo program drawing the same
//    shapes (Scripts/peer-static-map.py; needs `pip install pycairo`), measured side by side in this run.
// 4. Layout at scale: 100,000 pins with collisions, then with clustering.
//
// Pass `query`, `reuse`, `process` or `layout` to run only some.
import Foundation
import MapRaster

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    return seconds(clock.now - start)
}

func ms(_ s: Double) -> String { String(format: "%.3f ms", s * 1000) }

// MARK: - 1. Spatial query

func spatialQueryBenchmark() throws {
    print("== annotations(in:) with 1,000,000 annotations ==")
    // Cities of the GeoNames fixture (GeoNames, CC BY 4.0) as centers: 70 % of the points scatter around
    // them (about +-50 km), 30 % lie anywhere between 60 S and 75 N.
    let data = try Data(
        contentsOf: packageRoot.appendingPathComponent("fixtures/annotations/geonames_cities_100k.geojson"))
    let cities = try GeoJSON.decodeFeatures(data, source: "geonames").compactMap { feature -> LocationCoordinate2D? in
        if case .point(let c)? = feature.geometry { return c }
        return nil
    }
    var rng = SplitMix64(state: 2026)
    var annotations: [PointAnnotation] = []
    annotations.reserveCapacity(1_000_000)
    for i in 0..<1_000_000 {
        let c: LocationCoordinate2D
        if i % 10 < 7 {
            let city = cities[Int.random(in: 0..<cities.count, using: &rng)]
            let dLat = (Double.random(in: -0.45...0.45, using: &rng) + Double.random(in: -0.45...0.45, using: &rng)) / 2
            let dLon = (Double.random(in: -0.6...0.6, using: &rng) + Double.random(in: -0.6...0.6, using: &rng)) / 2
            c = LocationCoordinate2D(
                latitude: max(-85, min(85, city.latitude + dLat)),
                longitude: max(-180, min(179.999, city.longitude + dLon)))
        } else {
            c = LocationCoordinate2D(
                latitude: Double.random(in: -60...75, using: &rng),
                longitude: Double.random(in: -180..<180, using: &rng))
        }
        annotations.append(PointAnnotation(coordinate: c))
    }
    let snapshotter = try MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 800, height: 600)))
    snapshotter.addAnnotations(annotations)
    // City-sized rects: 20 km x 20 km around five cities.
    let centers = [
        LocationCoordinate2D(latitude: 48.8566, longitude: 2.3522),
        LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384),
        LocationCoordinate2D(latitude: 40.7128, longitude: -74.0060),
        LocationCoordinate2D(latitude: 35.6762, longitude: 139.6503),
        LocationCoordinate2D(latitude: -23.5505, longitude: -46.6333),
    ]
    let rects = centers.map { c -> MapRect in
        let r = CoordinateRegion(center: c, latitudinalMeters: 20_000, longitudinalMeters: 20_000)
        return MapRect(r)
    }
    let build = time { _ = snapshotter.annotations(in: rects[0]) }
    print("index build (first query): \(ms(build))")
    // The strongest linear scan: over precomputed map points, no annotation objects touched.
    let points = annotations.map { MapPoint($0.coordinate) }
    let index = AnnotationIndex(points: points)
    // Each method runs its 25 queries (5 rounds over the 5 rects) back to back, after one untimed round.
    func measure<T>(_ query: (MapRect) -> T) -> (times: [Double], results: [T]) {
        for rect in rects { _ = query(rect) }
        var times: [Double] = []
        var results: [T] = []
        for _ in 0..<5 {
            for rect in rects {
                var result: T?
                times.append(time { result = query(rect) })
                results.append(result!)
            }
        }
        return (times, results)
    }
    let viaAPI = measure { snapshotter.annotations(in: $0) }
    let viaIndex = measure { index.indices(in: $0) }
    let viaScan = measure { AnnotationIndex.linearScan(points, in: $0) }
    let viaFilter = measure { rect in snapshotter.annotations.filter { rect.contains(MapPoint($0.coordinate)) } }
    for k in viaScan.results.indices {
        precondition(
            viaIndex.results[k] == viaScan.results[k] && viaAPI.results[k].count == viaScan.results[k].count
                && viaFilter.results[k].count == viaScan.results[k].count, "index and scan disagree")
    }
    let hits = viaScan.results.prefix(5).map(\.count)
    let indexTimes = viaAPI.times
    let scanTimes = viaScan.times
    let naiveTimes = viaFilter.times
    let rawIndexTimes = viaIndex.times
    let indexMedian = median(indexTimes)
    let scanMedian = median(scanTimes)
    let naiveMedian = median(naiveTimes)
    print("hits per city rect (Paris, Helsinki, New York, Tokyo, Sao Paulo): \(hits)")
    print("annotations(in:) \(ms(indexMedian)) (index alone \(ms(median(rawIndexTimes))))")
    print("linear scan of precomputed map points \(ms(scanMedian)); filter over the annotations \(ms(naiveMedian))")
    print(
        String(
            format:
                "speed-up of annotations(in:): %.0fx over the map-point scan, %.0fx over the filter (medians of %d)",
            scanMedian / indexMedian, naiveMedian / indexMedian, indexTimes.count))
}

// MARK: - 2. Reuse cache

func reuseBenchmark() throws {
    print("\n== view bitmap reuse: 1,000 default pins, 800x600, no base map ==")
    var rng = SplitMix64(state: 7)
    var options = MapSnapshotter.Options(size: Size(width: 800, height: 600))
    options.region = CoordinateRegion(
        center: LocationCoordinate2D(latitude: 48, longitude: 10),
        span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 30))
    let list = (0..<1000).map { _ in
        PointAnnotation(
            coordinate: LocationCoordinate2D(
                latitude: Double.random(in: 39...57, using: &rng), longitude: Double.random(in: -4...24, using: &rng)))
    }
    func run(_ reuse: Bool) throws -> Double {
        let s = try MapSnapshotter(options: options)
        s.baseMap = nil
        s.addAnnotations(list)
        s.reusesAnnotationViewBitmaps = reuse
        var times: [Double] = []
        for _ in 0..<9 { times.append(try time { _ = try s.snapshot() }) }
        return median(times)
    }
    _ = try run(true)
    let with = try run(true)
    let without = try run(false)
    print("snapshot with reuse \(ms(with)), without \(ms(without)): \(String(format: "%.1fx", without / with)) faster")
}

// MARK: - 3. Whole process against pycairo

func makeStaticScene() throws -> URL {
    var rng = SplitMix64(state: 99)
    func lon() -> Double { Double.random(in: -10...30, using: &rng) }
    func lat() -> Double { Double.random(in: 36...60, using: &rng) }
    var features: [String] = []
    for _ in 0..<1000 {
        features.append(
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon()),\#(lat())]},"properties":{}}"#)
    }
    for _ in 0..<100 {
        var x = lon()
        var y = lat()
        var coords: [String] = []
        for _ in 0..<50 {
            x = max(-10, min(30, x + Double.random(in: -0.5...0.5, using: &rng)))
            y = max(36, min(60, y + Double.random(in: -0.4...0.4, using: &rng)))
            coords.append("[\(x),\(y)]")
        }
        features.append(
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[\#(coords.joined(separator: ","))]},"properties":{"stroke":"1f6feb","stroke-width":2}}"#
        )
    }
    for _ in 0..<50 {
        let r = Double.random(in: 20_000...80_000, using: &rng)
        features.append(
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon()),\#(lat())]},"properties":{"radius":\#(r),"stroke":"d00","fill":"d00","fill-opacity":0.2}}"#
        )
    }
    for _ in 0..<20 {
        let cx = lon()
        let cy = lat()
        let n = Int.random(in: 6...12, using: &rng)
        var ring: [String] = []
        for k in 0..<n {
            let a = Double(k) / Double(n) * 2 * Double.pi
            let rr = Double.random(in: 0.5...1.5, using: &rng)
            ring.append("[\(cx + rr * cos(a)),\(cy + rr * 0.7 * sin(a))]")
        }
        ring.append(ring[0])
        features.append(
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[\#(ring.joined(separator: ","))]]},"properties":{"stroke":"2a7","fill":"2a7","fill-opacity":0.3}}"#
        )
    }
    let scene =
        #"{"bbox":[-10,36,30,60],"size":[800,600],"features":{"type":"FeatureCollection","features":[\#(features.joined(separator: ",\n"))]}}"#
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-bench-scene.json")
    try Data(scene.utf8).write(to: url)
    return url
}

func runProcess(_ executable: String, _ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let elapsed = seconds(ContinuousClock.now - start)
    guard process.terminationStatus == 0 else {
        throw NSError(
            domain: "bench", code: Int(process.terminationStatus),
            userInfo: [
                NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) failed"
            ])
    }
    return elapsed
}

func pythonExecutable() throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

func processBenchmark() throws {
    print("\n== whole process: 800x600, 1,000 pins, 100 polylines x 50, 50 circles, 20 polygons, no base map ==")
    let binDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let mapraster = binDir.appendingPathComponent("mapraster").path
    guard FileManager.default.isExecutableFile(atPath: mapraster) else {
        print("skipped: \(mapraster) not built (run `swift build -c release` first)")
        return
    }
    // The interpreter itself, not a wrapper such as a pyenv shim, so that the peer pays only its own start-up.
    let python = try ProcessInfo.processInfo.environment["PYTHON"] ?? pythonExecutable()
    let pythonArgs: [String] = []
    let peer = packageRoot.appendingPathComponent("Scripts/peer-static-map.py").path
    let scene = try makeStaticScene()
    let tmp = FileManager.default.temporaryDirectory
    let ours = [
        "render", "--scene", scene.path, "--no-base-map", "--no-attribution", "-o",
        tmp.appendingPathComponent("bench-ours.png").path,
    ]
    let theirs = pythonArgs + [peer, scene.path, tmp.appendingPathComponent("bench-peer.png").path]
    do { _ = try runProcess(python, theirs) } catch {
        print("skipped: the pycairo peer does not run (pip install pycairo): \(error)")
        return
    }
    _ = try runProcess(mapraster, ours)
    var a: [Double] = []
    var b: [Double] = []
    for _ in 0..<15 {
        a.append(try runProcess(mapraster, ours))
        b.append(try runProcess(python, theirs))
    }
    let ma = median(a)
    let mb = median(b)
    print("mapraster render \(ms(ma)), pycairo (\(python)) \(ms(mb)) (medians of 15, alternating)")
    print(String(format: "ratio mapraster / pycairo: %.2f (target <= 1.2)", ma / mb))
}

// MARK: - 4. Layout at scale

func layoutBenchmark() throws {
    print("\n== snapshot of 100,000 pins at 800x600, zoom 3, no base map ==")
    var rng = SplitMix64(state: 11)
    let list = (0..<100_000).map { _ in
        PointAnnotation(
            coordinate: LocationCoordinate2D(
                latitude: Double.random(in: -60...70, using: &rng),
                longitude: Double.random(in: -180..<180, using: &rng)))
    }
    for clustering in [false, true] {
        let viewport = try MapViewport(
            size: Size(width: 800, height: 600), center: LocationCoordinate2D(latitude: 30, longitude: 0), zoomLevel: 3)
        var options = MapSnapshotter.Options(size: Size(width: 800, height: 600))
        options.visibleMapRect = viewport.visibleMapRect
        let s = try MapSnapshotter(options: options)
        s.baseMap = nil
        s.addAnnotations(list)
        s.viewProvider = { a in
            guard !(a is ClusterAnnotation) else { return nil }
            let pin = PinAnnotationView()
            if clustering { pin.clusteringIdentifier = "all" } else { pin.displayPriority = .defaultLow }
            return pin
        }
        var snapshot: Snapshot?
        let t = try time { snapshot = try s.snapshot() }
        let shown = snapshot!.annotations.filter { $0.visibility == .visible }.count
        print(
            clustering
                ? "clustering: \(ms(t)), \(snapshot!.clusters.count) clusters, \(shown) pins alone"
                : "collision (all low priority): \(ms(t)), \(shown) pins shown")
    }
}

let which = Set(CommandLine.arguments.dropFirst())
if which.isEmpty || which.contains("query") { try spatialQueryBenchmark() }
if which.isEmpty || which.contains("reuse") { try reuseBenchmark() }
if which.isEmpty || which.contains("process") { try processBenchmark() }
if which.isEmpty || which.contains("layout") { try layoutBenchmark() }
