import Foundation
import MapRaster
import MapTestSupport
import Testing

/// An overlay that only has an area, drawn by a custom renderer.
final class GridArea: Overlay {
    let boundingMapRect: MapRect
    init(_ rect: MapRect) { boundingMapRect = rect }
    var coordinate: LocationCoordinate2D { MapPoint(x: boundingMapRect.midX, y: boundingMapRect.midY).coordinate }
}

@Suite("Golden images of shapes, z-order, custom, gradient and tile overlays")
struct OverlayKindsGoldenTests {
    @Test("polygon with two holes, a multipolygon, a multi-polyline and a geodesic polyline")
    func shapes() throws {
        let golden = try GoldenCase.load("overlays/shapes-holes-multi")
        let holey = Polygon(
            coordinates: [coord(44, -6), coord(44, 6), coord(52, 6), coord(52, -6)],
            interiorPolygons: [
                Polygon(coordinates: [coord(46, -4), coord(46, -1), coord(50, -1), coord(50, -4)]),
                Polygon(coordinates: [coord(46, 1), coord(46, 4), coord(48, 2.5)]),
            ])
        let islands = MultiPolygon([
            Polygon(coordinates: [coord(55, 14), coord(55, 20), coord(59, 17)]),
            Polygon(
                coordinates: [coord(54, 22), coord(54, 28), coord(58, 28), coord(58, 22)],
                interiorPolygons: [Polygon(coordinates: [coord(55, 24), coord(55, 26), coord(57, 26), coord(57, 24)])]),
        ])
        let rivers = MultiPolyline([
            Polyline(coordinates: [coord(40, 10), coord(44, 14), coord(42, 20), coord(45, 26)]),
            Polyline(coordinates: [coord(41, 8), coord(39, 14), coord(40, 24)]),
        ])
        let flight = GeodesicPolyline(controlCoordinates: [coord(40, -5), coord(60, 30)])
        let snapshot = try overlaySnapshot(
            golden, overlays: [holey, islands, rivers, flight],
            provider: { overlay in
                switch overlay {
                case let p as Polygon:
                    let r = PolygonRenderer(polygon: p)
                    r.fillColor = Color(red8: 60, green8: 140, blue8: 60, alpha: 0.7)
                    return r
                case let m as MultiPolygon:
                    let r = MultiPolygonRenderer(multiPolygon: m)
                    r.fillColor = Color(red8: 230, green8: 120, blue8: 20, alpha: 0.8)
                    r.strokeColor = Color(red8: 120, green8: 60, blue8: 0)
                    r.lineWidth = 2
                    return r
                case let m as MultiPolyline:
                    let r = MultiPolylineRenderer(multiPolyline: m)
                    r.strokeColor = Color(red8: 20, green8: 60, blue8: 200)
                    r.lineWidth = 3
                    return r
                default: return nil  // the geodesic gets the default blue 3-point polyline
                }
            })
        #expect(golden.check(snapshot.image) == nil)
        // Holes show exactly the base map below (the same view without overlays); between them the fill covers.
        let bare = try overlaySnapshot(golden, overlays: [])
        for hole in [coord(48, -3.5), coord(46.2, 3.3), coord(56, 25)] {
            #expect(pixel(snapshot, hole) == pixel(bare, hole), "hole at \(hole)")
        }
        #expect(pixel(snapshot, coord(51, 0)) != pixel(bare, coord(51, 0)))
        #expect(pixel(snapshot, coord(55.5, 27)) != pixel(bare, coord(55.5, 27)))
    }

    @Test("z-order after insert below, insert above, exchange and remove, with one overlay above roads")
    func zOrder() throws {
        let golden = try GoldenCase.load("overlays/z-order")
        let s = try golden.snapshotter()
        let side = try golden.number("squareSize")
        /// A square `side` degrees across with its south-west corner at the case's `squares[name]`.
        func square(_ name: String) throws -> Polygon {
            let corner = try #require(
                golden.named("squares", of: LocationCoordinate2D.self).first { $0.name == name }?.value)
            let (lat, lon) = (corner.latitude, corner.longitude)
            let p = Polygon(coordinates: [
                coord(lat, lon), coord(lat, lon + side), coord(lat + side, lon + side), coord(lat + side, lon),
            ])
            p.title = name
            return p
        }
        let red = try square("red")
        let green = try square("green")
        let blue = try square("blue")
        let yellow = try square("yellow")
        let purple = try square("purple")
        let gray = try square("gray")
        s.addOverlays([red, green, blue])  // red, green, blue
        try s.insertOverlay(yellow, below: green)  // red, yellow, green, blue
        try s.insertOverlay(purple, above: blue)  // red, yellow, green, blue, purple
        try s.exchangeOverlay(at: 0, withOverlayAt: 2)  // green, yellow, red, blue, purple
        s.addOverlay(gray, level: .aboveRoads)  // drawn before every overlay above labels
        let extra = Polygon(coordinates: [coord(5, 5), coord(5, 15), coord(15, 15), coord(15, 5)])
        s.insertOverlay(extra, at: 1)
        s.removeOverlay(extra)
        let colors = Dictionary(
            uniqueKeysWithValues: try golden.named("colors", of: Color.self).map { ($0.name, $0.value) })
        s.rendererProvider = { overlay in
            let p = overlay as! Polygon
            let r = PolygonRenderer(polygon: p)
            r.fillColor = colors[p.title!]
            r.strokeColor = .black
            return r
        }
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        func top(_ lat: Double, _ lon: Double) -> ImageSurface.Pixel { pixel(snapshot, coord(lat, lon)) }
        func rgb(_ name: String) -> ImageSurface.Pixel {
            let c = colors[name]!
            return ImageSurface.Pixel(
                red: UInt8((c.red * 255).rounded()), green: UInt8((c.green * 255).rounded()),
                blue: UInt8((c.blue * 255).rounded()), alpha: 255)
        }
        #expect(top(-3, -8) == rgb("red"))  // red (index 2) over green (index 0)
        #expect(top(-3, -3) == rgb("yellow"))  // yellow (index 1) over green (index 0)
        #expect(top(1, -3) == rgb("blue"))  // blue over green
        #expect(top(1, 3) == rgb("purple"))  // purple over blue
        #expect(top(-1, 6) == rgb("purple"))  // purple (above labels) over gray (above roads, added last)
        #expect(top(-5, 8) == rgb("gray"))
        #expect(
            s.overlays(in: .aboveLabels).map { ($0 as! Polygon).title! } == [
                "green", "yellow", "red", "blue", "purple",
            ])
    }

    @Test("a custom renderer draws a grid in the map rect it is given, across the 180th meridian")
    func customGrid() throws {
        let golden = try GoldenCase.load("overlays/custom-grid")
        // The case's rects are in grid cells from an origin given as fractions of the world.
        let spacing = WebMercator.worldSize / (try golden.number("cellsPerWorld"))
        let origin = try golden.numbers("origin").map { $0 * WebMercator.worldSize }
        func cells(_ key: String) throws -> MapRect {
            let v = try golden.numbers(key)
            return MapRect(
                x: origin[0] + v[0] * spacing, y: origin[1] + v[1] * spacing, width: v[2] * spacing,
                height: v[3] * spacing)
        }
        let area = GridArea(try cells("area"))
        let shade = try golden.value("shade", as: Color.self)
        let lineColor = try golden.value("lineColor", as: Color.self)
        var seenRects: [MapRect] = []
        var seenScales: [Double] = []
        var roundTrip = Double.infinity
        let renderer = CustomOverlayRenderer(overlay: area) { renderer, mapRect, zoomScale, context in
            seenRects.append(mapRect)
            seenScales.append(zoomScale)
            // The conversion table both ways: map point -> point -> map point, map rect -> rect -> map rect.
            let corner = MapPoint(x: area.boundingMapRect.maxX, y: area.boundingMapRect.minY)
            let back = renderer.mapPoint(for: renderer.point(for: corner))
            roundTrip = max(abs(back.x - corner.x), abs(back.y - corner.y))
            let rectBack = renderer.mapRect(for: renderer.rect(for: area.boundingMapRect))
            roundTrip = max(roundTrip, abs(rectBack.width - area.boundingMapRect.width))
            let rect = mapRect.intersection(area.boundingMapRect)
            guard !rect.isNull else { return }
            context.setFillColor(shade)
            context.fill(renderer.rect(for: area.boundingMapRect))
            var path = Path()
            var x = (rect.minX / spacing).rounded(.up) * spacing
            while x <= rect.maxX {
                path.move(to: renderer.point(for: MapPoint(x: x, y: rect.minY)))
                path.addLine(to: renderer.point(for: MapPoint(x: x, y: rect.maxY)))
                x += spacing
            }
            var y = (rect.minY / spacing).rounded(.up) * spacing
            while y <= rect.maxY {
                path.move(to: renderer.point(for: MapPoint(x: rect.minX, y: y)))
                path.addLine(to: renderer.point(for: MapPoint(x: rect.maxX, y: y)))
                y += spacing
            }
            context.setStrokeColor(lineColor)
            context.setLineWidth(1)
            context.stroke(path)
        }
        let view = try cells("view")
        let s = try golden.snapshotter { $0.visibleMapRect = view }
        s.addOverlay(area)
        s.rendererProvider = { _ in renderer }
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        // Drawn once (one copy of the world meets the view), with the zoom scale of points per map point.
        #expect(seenRects.count == 1)
        #expect(roundTrip < 1e-6)
        #expect(abs(seenScales[0] - 400 / (20 * spacing)) < 1e-15)
        #expect(seenRects[0] == snapshot.viewport.visibleMapRect)
        // Grid lines every 20 points: the vertical line at 180 degrees (x = 200) is red.
        let line = snapshot.image.pixel(x: 200, y: 150)
        #expect(line.red > 200 && line.green < 150, "\(line)")
    }

    @Test("a gradient polyline from green through yellow to red along its length", arguments: [1.0, 2.0])
    func gradient(scale: Double) throws {
        let golden = try goldenCase("overlays/gradient-polyline", scale)
        let route = Polyline(coordinates: try golden.list("route", of: LocationCoordinate2D.self))
        let lineWidth = try golden.number("lineWidth")
        let colors = try golden.list("colors", of: Color.self)
        let locations = try golden.numbers("locations")
        let snapshot = try overlaySnapshot(
            golden, overlays: [route],
            provider: { overlay in
                let r = GradientPolylineRenderer(polyline: overlay as! Polyline)
                r.lineWidth = lineWidth
                r.setColors(colors, locations: locations)
                return r
            })
        #expect(golden.check(snapshot.image) == nil)
        let start = pixel(snapshot, coord(60.0, 24.9))
        let end = pixel(snapshot, coord(48.3, 17.3))
        #expect(start.green > 150 && start.red < 60, "start \(start)")
        #expect(end.red > 190 && end.green < 60, "end \(end)")
    }
}
