import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("GeoJSON import as MKGeoJSONDecoder, with simplestyle renderers")
struct OverlayGeoJSONTests {
    @Test("Natural Earth's Fiji (split at 180), a route and a polygon with a hole across 180, a point")
    func fiji() throws {
        let golden = try GoldenCase.load("overlays/geojson-fiji")
        let file = golden.url(try #require(golden.value("geojson").string))
        let features = try GeoJSONDecoder().decode(Data(contentsOf: file), source: "fiji.geojson")
        #expect(features.count == 4)
        #expect(features[0].overlays.first is MultiPolygon)
        #expect((features[0].overlays.first as? MultiPolygon)?.polygons.count == 21)
        #expect(features[1].overlays.first is Polyline)
        #expect(features[2].annotations.first?.title == "Suva")
        #expect((features[3].overlays.first as? Polygon)?.interiorPolygons.count == 1)
        #expect(features[1].style.dashPattern == [6, 4])
        let s = try golden.snapshotter()
        var byOverlay: [ObjectIdentifier: GeoJSONMapFeature] = [:]
        var byAnnotation: [ObjectIdentifier: GeoJSONMapFeature] = [:]
        for feature in features {
            for overlay in feature.overlays {
                byOverlay[ObjectIdentifier(overlay)] = feature
                s.addOverlay(overlay)
            }
            for annotation in feature.annotations {
                byAnnotation[ObjectIdentifier(annotation)] = feature
                s.addAnnotation(annotation)
            }
        }
        s.viewProvider = { annotation in byAnnotation[ObjectIdentifier(annotation)]?.makeView(for: annotation) }
        s.rendererProvider = { overlay in byOverlay[ObjectIdentifier(overlay)]?.makeRenderer(for: overlay) }
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        // The hole of the survey area crosses 180 and shows the ocean on both sides.
        for lon in [179.8, -179.8] {
            #expect(pixel(snapshot, coord(-20, lon)) == ImageSurface.Pixel(red: 170, green: 211, blue: 223, alpha: 255))
        }
        let area = pixel(snapshot, coord(-19.65, 180))
        #expect(area.green > area.red && area.green > area.blue, "\(area)")
    }

    @Test("bad simplestyle values and too-short lines are errors naming the feature and the property")
    func badInput() throws {
        let badColor =
            ##"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"stroke":"#zz"}}"##
        #expect {
            _ = try GeoJSONDecoder().decode(Data(badColor.utf8), source: "a.geojson")
        } throws: { error in
            let text = (error as? GeoJSONError)?.description ?? ""
            return text.hasPrefix("a.geojson: ") && text.contains("properties.stroke") && text.contains("#zz")
        }
        let shortLine =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[1,2]]},"properties":{}}]}"#
        #expect {
            _ = try GeoJSONDecoder().decode(Data(shortLine.utf8), source: "b.geojson")
        } throws: { error in
            let text = (error as? GeoJSONError)?.description ?? ""
            return text.contains("b.geojson: features[0].geometry") && text.contains("at least 2")
        }
        let badWidth = #"{"type":"Feature","geometry":null,"properties":{"stroke-width":-1}}"#
        #expect(throws: GeoJSONError.self) { _ = try GeoJSONDecoder().decode(Data(badWidth.utf8), source: "c") }
    }

    @Test("a scene LineString with \"geodesic\": true becomes a GeodesicPolyline across the Pacific")
    func sceneGeodesic() throws {
        let json = """
            {"center": [30, -170], "zoom": 2, "features": {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"geodesic": true},
               "geometry": {"type": "LineString", "coordinates": [[139.78, 35.55], [-122.38, 37.62]]}},
              {"type": "Feature", "properties": {},
               "geometry": {"type": "LineString", "coordinates": [[139.78, 35.55], [-122.38, 37.62]]}}]}}
            """
        let scene = try Scene.decode(Data(json.utf8), source: "flight.json")
        let geodesic = try #require(scene.overlays.first?.overlay as? GeodesicPolyline)
        #expect(geodesic.pointCount > 100)
        #expect(geodesic.boundingMapRect.spans180thMeridian)
        #expect(!(scene.overlays[1].overlay is GeodesicPolyline))
    }

    @Test("GeoJSONDecoder and scene files convert by the same rules: radius, geodesic, MultiLineString, errors")
    func oneConverter() throws {
        let json = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.9, 60.2]}, "properties": {"radius": 500}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[139.8, 35.5], [-122.4, 37.6]]},
               "properties": {"geodesic": true}},
              {"type": "Feature", "geometry": {"type": "MultiLineString",
               "coordinates": [[[0, 0], [1, 1]], [[2, 2], [3, 3]]]}, "properties": {}}]}
            """
        let features = try GeoJSONDecoder().decode(Data(json.utf8), source: "t.geojson")
        #expect(features[0].overlays.first is Circle && features[0].annotations.isEmpty)
        #expect(features[1].overlays.first is GeodesicPolyline)
        #expect((features[2].overlays.first as? MultiPolyline)?.polylines.count == 2)
        // A circle is filled, a line is not.
        #expect((features[0].makeRenderer(for: features[0].overlays[0]) as? OverlayPathRenderer)?.fillColor != nil)
        #expect((features[2].makeRenderer(for: features[2].overlays[0]) as? OverlayPathRenderer)?.fillColor == nil)
        let scene = try Scene.decode(Data(#"{"features": \#(json)}"#.utf8), source: "s.json")
        #expect(scene.overlays.map { "\(type(of: $0.overlay))" } == ["Circle", "GeodesicPolyline", "MultiPolyline"])
        let bad = #"""
            {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 1], [1, 1]]}, "properties": {}}
            """#
        #expect(throws: GeoJSONError.self) { try GeoJSONDecoder().decode(Data(bad.utf8), source: "b.geojson") }
        do {
            _ = try Scene.decode(Data(#"{"features": \#(bad)}"#.utf8), source: "s.json")
            Issue.record("accepted a one-position line")
        } catch {
            #expect("\(error)".contains("coordinates") && "\(error)".contains("2 distinct"))
        }
    }
}
