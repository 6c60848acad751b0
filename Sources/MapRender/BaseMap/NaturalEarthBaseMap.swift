import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapStyle

/// The embedded world map: Natural Earth countries drawn as land over ocean with borders.
///
/// It uses the 1:110m countries below zoom 2 and the 1:50m countries from zoom 2 on. The data ships with
/// the package (public domain, "Made with Natural Earth").
public struct NaturalEarthBaseMap: BaseMap {
    /// The colors and border width.
    public var style: BaseMapStyle

    /// Creates the base map with a style.
    public init(style: BaseMapStyle = .standard) {
        self.style = style
    }

    public var attribution: [String] { ["Made with Natural Earth"] }

    /// The zoom level from which the 1:50m data is used.
    public static let detailedFromZoom = 2.0

    public func draw(in context: GraphicsContext, viewport: MapViewport) throws {
        context.clear(to: style.oceanColor)
        let layer = try CountryLayer.layer(forZoom: viewport.zoomLevel)
        let visible = viewport.visibleMapRect
        let world = WebMercator.worldSize
        let perPoint = viewport.mapPointsPerPoint
        let halo = style.borderWidth * perPoint
        var land = Path()
        var borders = Path()
        let firstCopy = Int((visible.minX / world).rounded(.down))
        let lastCopy = Int(((visible.maxX - 1e-9) / world).rounded(.down))
        for copy in firstCopy...max(firstCopy, lastCopy) {
            let offset = Double(copy) * world
            let window = visible.offsetBy(dx: -offset, dy: 0).insetBy(dx: -halo, dy: -halo)
            for polygon in layer.polygons where polygon.bounds.intersects(window) {
                for ring in polygon.rings {
                    appendRing(ring, offset: offset, viewport: viewport, land: &land, borders: &borders)
                }
            }
        }
        context.setFillRule(.evenOdd)
        context.setFillColor(style.landColor)
        context.fill(land)
        context.setStrokeColor(style.borderColor)
        context.setLineWidth(style.borderWidth)
        context.setLineJoin(.round)
        context.setLineCap(.round)
        context.stroke(borders)
        try context.checkStatus("drawing the Natural Earth base map")
    }

    /// Adds a ring to the land path, and to the border path without the edges that only exist because
    /// the data is cut at the 180th meridian or runs along the south pole's limit.
    private func appendRing(
        _ ring: [MapPoint], offset: Double, viewport: MapViewport, land: inout Path, borders: inout Path
    ) {
        guard ring.count > 2 else { return }
        let perPoint = viewport.mapPointsPerPoint
        let origin = viewport.visibleMapRect.origin
        func convert(_ p: MapPoint) -> Point {
            Point(x: (p.x + offset - origin.x) / perPoint, y: (p.y - origin.y) / perPoint)
        }
        land.move(to: convert(ring[0]))
        for p in ring.dropFirst() { land.addLine(to: convert(p)) }
        land.close()

        let world = WebMercator.worldSize
        let southLimit = WebMercator.y(latitude: -84.9)
        func artificial(_ a: MapPoint, _ b: MapPoint) -> Bool {
            (a.x == b.x && (a.x == 0 || a.x == world)) || (a.y >= southLimit && b.y >= southLimit)
        }
        var penDown = false
        for i in 0..<ring.count {
            let a = ring[i]
            let b = ring[(i + 1) % ring.count]
            if artificial(a, b) {
                penDown = false
                continue
            }
            if !penDown {
                borders.move(to: convert(a))
                penDown = true
            }
            borders.addLine(to: convert(b))
        }
    }
}

/// Countries projected to map points once per process.
struct CountryLayer: Sendable {
    struct ProjectedPolygon: Sendable {
        var bounds: MapRect
        var rings: [[MapPoint]]
    }

    let polygons: [ProjectedPolygon]

    static func layer(forZoom zoom: Double) throws -> CountryLayer {
        try (zoom < NaturalEarthBaseMap.detailedFromZoom ? coarse : detailed).get()
    }

    private static let coarse = Result { try load("ne_110m_countries") }
    private static let detailed = Result { try load("ne_50m_countries") }

    private static func load(_ name: String) throws -> CountryLayer {
        guard let url = Bundle.module.url(forResource: name, withExtension: "geojson", subdirectory: "naturalearth")
        else {
            throw RenderError.missingData(
                name: "\(name).geojson", reason: "not found in the MapRender resource bundle; rebuild the package")
        }
        let data: Data
        do { data = try FileReader.read(url) } catch {
            throw RenderError.missingData(name: url.path, reason: error.localizedDescription)
        }
        var polygons: [ProjectedPolygon] = []
        for feature in try GeoJSON.decodeFeatures(data, source: url.lastPathComponent) {
            switch feature.geometry {
            case .polygon(let rings)?: polygons.append(project(rings))
            case .multiPolygon(let parts)?: polygons.append(contentsOf: parts.map(project))
            default: continue
            }
        }
        return CountryLayer(polygons: polygons)
    }

    private static func project(_ rings: [[LocationCoordinate2D]]) -> ProjectedPolygon {
        let projected = rings.map { ring -> [MapPoint] in
            var points = ring.map(MapPoint.init)
            if points.count > 1, points.first == points.last { points.removeLast() }
            return points
        }
        return ProjectedPolygon(bounds: boundingRect(of: projected.first ?? []), rings: projected)
    }
}
