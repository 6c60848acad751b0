// Renders the same views as Mapnik 3.1 (python3-mapnik from Debian) with an equivalent style on the same
// data, in one run, and prints both times and the ratio. Not a test: run it with
//     swift run -c release StyleBenchmark
// It needs python3-mapnik (apt-get install python3-mapnik); without it, only MapRaster's times print.
import Foundation
import MapRaster

struct View {
    var name: String
    var center: LocationCoordinate2D
    var zoom: Double
    var size: Size
    var layers: String
}

guard let stylesURL = ShippedStyle.standard.url?.deletingLastPathComponent() else {
    fatalError("the MapRender resource bundle has no styles; rebuild")
}
let data = stylesURL.deletingLastPathComponent()
func path(_ relative: String) -> String { data.appendingPathComponent(relative).path }

// The equivalent style: the same layers Scripts/bench-mapnik.py builds, in the same order and colors.
let europeLayers = """
    {"id": "bg", "type": "background", "paint": {"background-color": "#aad3df"}},
    {"id": "land", "type": "fill", "source": "countries", "paint": {"fill-color": "#f2efe9"}},
    {"id": "lakes", "type": "fill", "source": "lakes", "paint": {"fill-color": "#aad3df"}},
    {"id": "rivers", "type": "line", "source": "rivers", "paint": {"line-color": "#aad3df", "line-width": 1}},
    {"id": "borders", "type": "line", "source": "countries", "layout": {"line-join": "round"},
     "paint": {"line-color": "#9b8c96", "line-width": 1}}
    """
let helsinkiLayers = """
    {"id": "bg", "type": "background", "paint": {"background-color": "#f2efe9"}},
    {"id": "landuse", "type": "fill", "source": "landuse", "paint": {"fill-color": "#c8facc"}},
    {"id": "water", "type": "fill", "source": "water", "paint": {"fill-color": "#aad3df"}},
    {"id": "buildings", "type": "fill", "source": "buildings", "paint": {"fill-color": "#d9d0c9", "fill-outline-color": "#c4b6ab"}},
    {"id": "railways", "type": "line", "source": "railways", "paint": {"line-color": "#707070", "line-width": 1.5}},
    {"id": "roads", "type": "line", "source": "roads", "layout": {"line-join": "round", "line-cap": "round"},
     "paint": {"line-color": "#ffffff", "line-width": 6}},
    {"id": "names", "type": "symbol", "source": "roads", "filter": ["has", "name"],
     "layout": {"text-field": "{name}", "symbol-placement": "line", "text-size": 11, "symbol-spacing": 300},
     "paint": {"text-color": "#333333", "text-halo-color": "#ffffff", "text-halo-width": 1.5}}
    """
let sources: [String: String] = [
    "countries": path("naturalearth/ne_50m_countries.geojson"), "lakes": path("naturalearth/ne_50m_lakes.geojson"),
    "rivers": path("naturalearth/ne_50m_rivers.geojson"), "landuse": path("helsinki/landuse.geojson"),
    "water": path("helsinki/water.geojson"), "buildings": path("helsinki/buildings.geojson"),
    "railways": path("helsinki/railways.geojson"), "roads": path("helsinki/roads.geojson"),
]
let views = [
    View(
        name: "Europe 1024x768, 1:50m", center: LocationCoordinate2D(latitude: 52, longitude: 12), zoom: 4,
        size: Size(width: 1024, height: 768), layers: europeLayers),
    View(
        name: "Helsinki zoom 16, 1024x768", center: LocationCoordinate2D(latitude: 60.1699, longitude: 24.9436),
        zoom: 16,
        size: Size(width: 1024, height: 768), layers: helsinkiLayers),
]
let iterations = 20
let rounds = 3

func style(for view: View) throws -> Style {
    let used = sources.keys.sorted().filter { view.layers.contains("\"\($0)\"") }
    let sourceJSON = used.map { #""\#($0)": {"type": "geojson", "data": "\#(sources[$0]!)"}"# }
    let text = #"{"version": 8, "sources": {\#(sourceJSON.joined(separator: ","))}, "layers": [\#(view.layers)]}"#
    return try Style.decode(Data(text.utf8), source: view.name, baseURL: data)
}

func mapnikTimes(_ view: View, rect: MapRect) -> Double? {
    let world = WebMercator.worldSize
    let half = Double.pi * WebMercator.earthRadius
    func mx(_ x: Double) -> Double { x / world * 2 * half - half }
    func my(_ y: Double) -> Double { half - y / world * 2 * half }
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/bench-mapnik.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    let kind = view.layers == europeLayers ? "europe" : "helsinki"
    process.arguments =
        [
            script.path, kind, "\(Int(view.size.width))", "\(Int(view.size.height))", "\(mx(rect.minX))",
            "\(my(rect.maxY))",
            "\(mx(rect.maxX))", "\(my(rect.minY))", "\(iterations)", data.path,
        ]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

print(
    "view | MapRaster ms/render | Mapnik ms/render | ratio (MapRaster / Mapnik); best of \(rounds) rounds of \(iterations)"
)
for view in views {
    var options = MapSnapshotter.Options(size: view.size)
    let viewport = try MapViewport(size: view.size, center: view.center, zoomLevel: view.zoom)
    options.visibleMapRect = viewport.visibleMapRect
    options.style = try style(for: view)
    options.showsAttribution = false
    _ = try MapSnapshotter(options: options).snapshot()  // loads the data once, as Mapnik's datasources do
    // Rounds alternate between the two renderers; the best round of each counts (the machine is shared).
    var ours = Double.infinity
    var peer: Double?
    for _ in 0..<rounds {
        let start = Date()
        for _ in 0..<iterations { _ = try MapSnapshotter(options: options).snapshot() }
        ours = min(ours, Date().timeIntervalSince(start) / Double(iterations) * 1000)
        if let time = mapnikTimes(view, rect: viewport.visibleMapRect) { peer = min(peer ?? time, time) }
    }
    if let peer {
        print(String(format: "%@ | %.1f | %.1f | %.2f", view.name, ours, peer, ours / peer))
    } else {
        print(String(format: "%@ | %.1f | (python3-mapnik not available) | -", view.name, ours))
    }
}
