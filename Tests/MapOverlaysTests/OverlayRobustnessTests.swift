import Foundation
import MapRaster
import Testing

@Suite("Overlays never crash or leave Cairo in an error state")
struct OverlayRobustnessTests {
    @Test("random shapes (across 180, over the poles, huge and tiny) in random views from zoom 0 to 22")
    func randomShapes() throws {
        var state: UInt64 = 0x1234_5678_9ABC_DEF0
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func coordinate() -> LocationCoordinate2D {
            LocationCoordinate2D(latitude: random() * 180 - 90, longitude: random() * 360 - 180)
        }
        for round in 0..<120 {
            var options = MapSnapshotter.Options(size: Size(width: 96, height: 64), scale: round % 3 == 0 ? 2 : 1)
            let center = LocationCoordinate2D(latitude: random() * 160 - 80, longitude: random() * 360 - 180)
            let zoom = random() * 22
            options.region = CoordinateRegion(
                center: center,
                span: CoordinateSpan(
                    latitudeDelta: min(170, 360 / pow(2, zoom)), longitudeDelta: min(360, 360 / pow(2, zoom))))
            options.showsAttribution = false
            let s = try MapSnapshotter(options: options)
            s.baseMap = nil
            // Some shapes near the view, some anywhere.
            func near() -> LocationCoordinate2D {
                let d = 360 / pow(2, zoom)
                return LocationCoordinate2D(
                    latitude: max(-89, min(89, center.latitude + (random() - 0.5) * 3 * d)),
                    longitude: center.longitude + (random() - 0.5) * 3 * d)
            }
            let pick = { random() < 0.6 ? near() : coordinate() }
            s.addOverlay(Polyline(coordinates: (0..<Int(2 + random() * 30)).map { _ in pick() }))
            s.addOverlay(GeodesicPolyline(controlCoordinates: [pick(), pick(), pick()]))
            s.addOverlay(
                Polygon(
                    coordinates: (0..<Int(3 + random() * 20)).map { _ in pick() },
                    interiorPolygons: [Polygon(coordinates: [pick(), pick(), pick()])]))
            s.addOverlay(
                Circle(center: pick(), radius: 1 + random() * Circle.maximumRadius * (random() < 0.5 ? 0.01 : 1)))
            s.addOverlay(MultiPolyline([Polyline(coordinates: [pick(), pick()])]))
            s.rendererProvider = { overlay in
                guard let r = MapSnapshotterTestsDefault.renderer(overlay) else { return nil }
                r.lineDashPattern = random() < 0.5 ? [] : [4, 2]
                r.lineJoin = random() < 0.5 ? .miter : .round
                return r
            }
            let snapshot = try s.snapshot()
            #expect(snapshot.image.width == Int(96 * options.scale))
        }
    }
}

enum MapSnapshotterTestsDefault {
    static func renderer(_ overlay: Overlay) -> OverlayPathRenderer? {
        switch overlay {
        case let o as Polyline: return PolylineRenderer(polyline: o)
        case let o as Polygon: return PolygonRenderer(polygon: o)
        case let o as Circle: return CircleRenderer(circle: o)
        case let o as MultiPolyline: return MultiPolylineRenderer(multiPolyline: o)
        default: return nil
        }
    }
}
