import Foundation
import MapRaster
import MapTestSupport
import Testing

/// Places shapes by image points on the open-ocean view of a golden case, then styles each by its title.
struct PropertySheet {
    let viewport: MapViewport

    init(_ golden: GoldenCase) throws {
        viewport = try MapViewport(size: golden.pointSize, scale: 1, region: #require(golden.options().region))
    }

    func c(_ x: Double, _ y: Double) -> LocationCoordinate2D { viewport.coordinate(for: Point(x: x, y: y)) }

    func line(_ title: String, _ points: [(Double, Double)]) -> Polyline {
        let l = Polyline(coordinates: points.map { c($0.0, $0.1) })
        l.title = title
        return l
    }

    func polygon(_ title: String, _ points: [(Double, Double)], holes: [[(Double, Double)]] = []) -> Polygon {
        let p = Polygon(
            coordinates: points.map { c($0.0, $0.1) },
            interiorPolygons: holes.map { Polygon(coordinates: $0.map { c($0.0, $0.1) }) })
        p.title = title
        return p
    }

    /// A "V" with its tip at (x, y).
    func vee(_ title: String, x: Double, y: Double, spread: Double = 30, depth: Double = 40) -> Polyline {
        line(title, [(x - spread, y - depth / 2), (x, y + depth / 2), (x + spread, y - depth / 2)])
    }

    var overlays: [Overlay] {
        var list: [Overlay] = []
        // Row 1: caps and joins on thick lines.
        list.append(vee("butt-miter", x: 70, y: 45))
        list.append(vee("round-round", x: 200, y: 45))
        list.append(vee("square-bevel", x: 330, y: 45))
        list.append(line("hairline", [(400, 25), (460, 65)]))
        // Row 2: miter limit (a sharp V) and dash patterns with phases.
        list.append(vee("miter-10", x: 50, y: 130, spread: 12, depth: 50))
        list.append(vee("miter-2", x: 120, y: 130, spread: 12, depth: 50))
        list.append(line("dash-phase-0", [(170, 115), (460, 115)]))
        list.append(line("dash-phase-9", [(170, 135), (460, 135)]))
        list.append(line("dash-dot", [(170, 155), (460, 155)]))
        // Row 3: fill only, stroke only, fill and stroke at alpha 0.5 over another shape.
        list.append(polygon("fill-only", [(20, 200), (120, 200), (120, 300), (20, 300)]))
        list.append(polygon("stroke-only", [(150, 200), (250, 200), (250, 300), (150, 300)]))
        list.append(polygon("under", [(280, 190), (380, 190), (380, 280), (280, 280)]))
        list.append(polygon("alpha-half", [(320, 230), (460, 230), (460, 330), (320, 330)]))
        // A circle with a dashed outline and no fill.
        let circle = Circle(center: c(200, 330), radius: 180_000)
        circle.title = "dashed-circle"
        list.append(circle)
        return list
    }

    static func renderer(_ overlay: Overlay) -> OverlayRenderer? {
        let dark = Color(red8: 30, green8: 30, blue8: 60)
        switch overlay {
        case let l as Polyline:
            let r = PolylineRenderer(polyline: l)
            r.strokeColor = dark
            r.lineWidth = 12
            switch l.title ?? "" {
            case "butt-miter": r.lineCap = .butt; r.lineJoin = .miter
            case "round-round": r.lineCap = .round; r.lineJoin = .round
            case "square-bevel": r.lineCap = .square; r.lineJoin = .bevel
            case "hairline": r.lineWidth = 1
            case "miter-10": r.lineJoin = .miter; r.miterLimit = 10; r.lineWidth = 6; r.lineCap = .butt
            case "miter-2": r.lineJoin = .miter; r.miterLimit = 2; r.lineWidth = 6; r.lineCap = .butt
            case "dash-phase-0":
                r.lineWidth = 6; r.lineCap = .butt; r.lineDashPattern = [18, 9]
                r.strokeColor = Color(red8: 200, green8: 40, blue8: 40)
            case "dash-phase-9":
                r.lineWidth = 6; r.lineCap = .butt; r.lineDashPattern = [18, 9]; r.lineDashPhase = 9
                r.strokeColor = Color(red8: 200, green8: 40, blue8: 40)
            case "dash-dot":
                r.lineWidth = 6; r.lineCap = .round; r.lineDashPattern = [0, 12, 24, 12]
                r.strokeColor = Color(red8: 20, green8: 120, blue8: 60)
            default: break
            }
            return r
        case let p as Polygon:
            let r = PolygonRenderer(polygon: p)
            r.lineWidth = 4
            switch p.title ?? "" {
            case "fill-only": r.fillColor = Color(red8: 250, green8: 180, blue8: 40); r.strokeColor = nil
            case "stroke-only": r.fillColor = nil; r.strokeColor = Color(red8: 120, green8: 40, blue8: 160)
            case "under":
                r.fillColor = Color(red8: 40, green8: 160, blue8: 80); r.strokeColor = nil
            case "alpha-half":
                r.fillColor = Color(red8: 220, green8: 30, blue8: 30)
                r.strokeColor = Color(red8: 20, green8: 20, blue8: 20)
                r.alpha = 0.5
            default: break
            }
            return r
        case let c as Circle:
            let r = CircleRenderer(circle: c)
            r.fillColor = nil
            r.strokeColor = Color(red8: 0, green8: 90, blue8: 200)
            r.lineWidth = 3
            r.lineDashPattern = [10, 5]
            r.lineCap = .butt
            return r
        default: return nil
        }
    }
}

@Suite("Golden images of renderer properties")
struct OverlayRendererGoldenTests {
    @Test("line width, caps, joins, miter limit, dashes and phase, fill, stroke and alpha", arguments: [1.0, 2.0])
    func properties(scale: Double) throws {
        let golden = try goldenCase("overlays/renderer-properties", scale)
        let sheet = try PropertySheet(golden)
        let snapshot = try overlaySnapshot(golden, overlays: sheet.overlays, provider: PropertySheet.renderer)
        #expect(golden.check(snapshot.image) == nil)
        let s = scale
        func px(_ x: Double, _ y: Double) -> ImageSurface.Pixel { snapshot.image.pixel(x: Int(x * s), y: Int(y * s)) }
        // Fill only: the fill color inside.
        #expect(px(70, 250) == ImageSurface.Pixel(red: 250, green: 180, blue: 40, alpha: 255))
        // Stroke only: the inside is the ocean.
        #expect(px(200, 250) == ImageSurface.Pixel(red: 170, green: 211, blue: 223, alpha: 255))
        // Alpha 0.5: red over green is a mix (about 130, 95, 55).
        let mix = px(350, 260)
        #expect(abs(Int(mix.red) - 130) <= 2 && abs(Int(mix.green) - 95) <= 2 && abs(Int(mix.blue) - 55) <= 2, "\(mix)")
        // Alpha is applied once to the renderer's whole drawing (a transparency layer, as MapKit): on the
        // outline over the green square the stroke color mixes with green only, not with the red fill.
        let outline = px(320.5, 260)
        #expect(
            abs(Int(outline.red) - 30) <= 2 && abs(Int(outline.green) - 90) <= 2 && abs(Int(outline.blue) - 50) <= 2,
            "\(outline)")
        // Dash [18, 9]: phase 0 draws 170...188; phase 9 draws 170...179, then a gap 179...188.
        let dash0 = px(183.5, 115)
        let dash9 = px(183.5, 135)
        #expect(dash0.red == 200 && dash9.red == 170, "\(dash0) \(dash9)")
    }
}
