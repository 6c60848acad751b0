import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Static-map grammar: Google's and tileserver-gl's markers, path and visible")
struct StaticMapParametersTests {
    static func near(_ c: LocationCoordinate2D, _ lat: Double, _ lon: Double) -> Bool {
        abs(c.latitude - lat) < 1e-9 && abs(c.longitude - lon) < 1e-9
    }

    // MARK: Google's documentation examples (URL-decoded, and one still encoded)

    @Test(
        "Google markers examples",
        arguments: [
            // The three markers of Google's "quick example" (Brooklyn Bridge), the last one repeats its color.
            (
                "color:blue|label:S|40.702147,-74.015794", Color(red8: 0, green8: 0, blue8: 255), "S", 40.702147,
                -74.015794
            ),
            (
                "color:green|label:G|40.711614,-74.012318", Color(red8: 0, green8: 128, blue8: 0), "G", 40.711614,
                -74.012318
            ),
            (
                "color:red|color:red|label:C|40.718217,-73.998284", Color(red8: 255, green8: 0, blue8: 0), "C",
                40.718217, -73.998284
            ),
            // The same, still URL-encoded as in the documentation's URL.
            (
                "color:blue%7Clabel:S%7C40.702147,-74.015794", Color(red8: 0, green8: 0, blue8: 255), "S", 40.702147,
                -74.015794
            ),
        ] as [(String, Color, String, Double, Double)])
    func googleMarkers(text: String, color: Color, label: String, lat: Double, lon: Double) throws {
        #expect(StaticMapSyntax.detect(marker: text) == .google)
        let marker = try MarkerParameter(parsing: text, syntax: .google)
        #expect(marker.color == color)
        #expect(marker.label == label)
        #expect(marker.size == .normal)
        #expect(marker.coordinates.count == 1)
        #expect(Self.near(marker.coordinates[0], lat, lon))
    }

    @Test("Google markers: sizes, 32-bit colors, several points per group, scale")
    func googleMarkerStyles() throws {
        let m = try MarkerParameter(
            parsing: "size:mid|color:0xFFFF00|label:5|scale:2|62.107733,-145.541936|62.1,-145.5", syntax: .google)
        #expect(m.size == .mid && m.label == "5" && m.iconScale == 2)
        #expect(m.color == Color(red8: 255, green8: 255, blue8: 0))
        #expect(m.coordinates.count == 2 && Self.near(m.coordinates[1], 62.1, -145.5))
        let tiny = try MarkerParameter(parsing: "size:tiny|color:0x00ff0080|0,0", syntax: .google)
        #expect(tiny.size == .tiny && tiny.color == Color(red8: 0, green8: 255, blue8: 0, alpha: 128.0 / 255))
        let hash = try MarkerParameter(parsing: "color:#336699|1,2", syntax: .google)
        #expect(hash.color == Color(red8: 0x33, green8: 0x66, blue8: 0x99))
    }

    @Test("Google paths: weight, 32-bit color, fill color, geodesic")
    func googlePaths() throws {
        // The documentation's examples: a red half-transparent line, and a filled polygon.
        let line = try PathParameter(parsing: "color:0xFF00007F|weight:10|0,0|35,139", syntax: .google)
        #expect(line.color == Color(red8: 255, green8: 0, blue8: 0, alpha: 127.0 / 255))
        #expect(line.width == 10 && line.fillColor == nil && !line.isGeodesic)
        #expect(line.coordinates.count == 2 && Self.near(line.coordinates[1], 35, 139))
        let area = try PathParameter(
            parsing: "color:0xFF0000ff|fillcolor:green|weight:10|35.676148,139.74479|25.482951,118.300781|"
                + "-32.398516,135.175781|37.439974,-121.992188|35.676148,139.74479", syntax: .google)
        #expect(area.fillColor == Color(red8: 0, green8: 128, blue8: 0))
        #expect(area.color == Color(red8: 255, green8: 0, blue8: 0))
        #expect(area.coordinates.count == 5 && Self.near(area.coordinates[2], -32.398516, 135.175781))
        // Defaults: weight 5, blue at 50%.
        let plain = try PathParameter(parsing: "40.737102,-73.990318|40.749825,-73.987963", syntax: .google)
        #expect(plain.width == 5 && plain.color == PathParameter.googleDefaultColor)
        let geodesic = try PathParameter(parsing: "geodesic:true|weight:3|-33.9,18.4|51.5,-0.1", syntax: .google)
        #expect(geodesic.isGeodesic && geodesic.width == 3)
    }

    @Test("Google paths: an encoded polyline (it contains '|') equals its points")
    func googleEncoded() throws {
        let encoded = try PathParameter(
            parsing: "weight:3|color:orange|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@", syntax: .google)
        let points = try PathParameter(
            parsing: "weight:3|color:orange|38.5,-120.2|40.7,-120.95|43.252,-126.453", syntax: .google)
        #expect(encoded.coordinates.count == 3)
        for (a, b) in zip(encoded.coordinates, points.coordinates) { #expect(Self.near(a, b.latitude, b.longitude)) }
        #expect(encoded.color == Color(red8: 255, green8: 165, blue8: 0) && encoded.width == 3)
        // URL-encoded pipes and backquote.
        let escaped = try PathParameter(parsing: "enc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60@", syntax: .google)
        #expect(escaped.coordinates.count == 3)
    }

    // MARK: tileserver-gl's documentation examples

    @Test("tileserver-gl path: lng,lat pairs, options, enc:, latlng order")
    func tileserverPaths() throws {
        let doc = "5.9,45.8|5.9,47.8|10.5,47.8|10.5,45.8|5.9,45.8"
        let plain = try PathParameter(parsing: doc, syntax: .tileserverGL(latitudeFirst: false))
        #expect(plain.coordinates.count == 5 && Self.near(plain.coordinates[1], 47.8, 5.9))
        #expect(plain.width == 1 && plain.color == PathParameter.tileserverDefaultColor && plain.fillColor == nil)
        let styled = "stroke:red|width:3|fill:rgba(255,255,255,0.5)|" + doc
        #expect(StaticMapSyntax.detect(path: styled) == .tileserverGL(latitudeFirst: false))
        let s = try PathParameter(parsing: styled, syntax: .tileserverGL(latitudeFirst: false))
        #expect(s.color == Color(red8: 255, green8: 0, blue8: 0) && s.width == 3)
        #expect(s.fillColor == Color(red8: 255, green8: 255, blue8: 255, alpha: 0.5))
        let latlng = try PathParameter(parsing: "45.8,5.9|47.8,5.9", syntax: .tileserverGL(latitudeFirst: true))
        #expect(Self.near(latlng.coordinates[1], 47.8, 5.9))
        let enc = try PathParameter(
            parsing: "stroke:#0000ff|enc:_p~iF~ps|U_ulLnnqC", syntax: .tileserverGL(latitudeFirst: false))
        #expect(enc.coordinates.count == 2 && Self.near(enc.coordinates[1], 40.7, -120.95))
    }

    @Test("tileserver-gl marker: lng,lat, icon, scale, offset")
    func tileserverMarker() throws {
        let doc = "5.9,45.8|marker-start.svg|scale:0.5|offset:2,-4"
        #expect(StaticMapSyntax.detect(marker: doc) == .tileserverGL(latitudeFirst: false))
        let m = try MarkerParameter(parsing: doc, syntax: .tileserverGL(latitudeFirst: false))
        #expect(Self.near(m.coordinates[0], 45.8, 5.9))
        #expect(m.icon == "marker-start.svg" && m.iconScale == 2 && m.offset == Point(x: 2, y: -4))
        // Icons are refused where no loader is given (the server until it has an icon folder).
        var scene = Scene()
        #expect(throws: StaticMapParameterError.self) {
            try StaticMapParameters(markers: [doc]).add(to: &scene)
        }
    }

    @Test("tileserver-gl marker icon: a PNG file, its bottom center on the point, scale and offset applied")
    func tileserverIcon() throws {
        let icon = Fixtures.url("annotations/icons/TacosMarker.png").path  // 66x66 pixels
        var scene = Scene()
        try StaticMapParameters(markers: ["24.94,60.17|\(icon)|scale:0.5|offset:4,10"])
            .add(to: &scene, loadIcon: AnnotationView.loadImage(path:))
        let pin = try #require(scene.annotations.first)
        #expect(Self.near(pin.annotation.coordinate, 60.17, 24.94))
        #expect(pin.pin.marker.imagePath == icon && pin.pin.marker.imageScale == 2)
        // 33x33 points; bottom center on the point (-16.5), then 4 px right and 10 px up at scale 0.5.
        #expect(pin.pin.marker.centerOffset == Point(x: 2, y: -16.5 - 5))
        let s = try MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 100, height: 100)))
        s.baseMap = nil
        scene.populate(s)
        #expect(s.view(for: pin.annotation).size == Size(width: 33, height: 33))
    }

    @Test("tileserver-gl path options: border, borderwidth, linecap, linejoin, fill:none, query-wide defaults")
    func tileserverPathOptions() throws {
        let syntax = StaticMapSyntax.tileserverGL(latitudeFirst: false)
        let points = "8.53,47.37|8.54,47.38|8.53,47.39"
        // tileserver-gl's defaults: butt caps, miter joins, no border; a border is 10 % of the width by default.
        let plain = try PathParameter(parsing: points, syntax: syntax)
        #expect(plain.lineCap == .butt && plain.lineJoin == .miter && plain.borderColor == nil)
        let bordered = try PathParameter(
            parsing: "stroke:yellow|width:10|border:black|linecap:round|linejoin:bevel|" + points, syntax: syntax)
        #expect(bordered.borderColor == Color(red8: 0, green8: 0, blue8: 0) && bordered.effectiveBorderWidth == 1)
        #expect(bordered.lineCap == .round && bordered.lineJoin == .bevel)
        let wide = try PathParameter(parsing: "border:black|borderwidth:10|" + points, syntax: syntax)
        #expect(wide.effectiveBorderWidth == 10 && wide.width == 1)
        // fill:none is no fill; a fill with fewer than 3 distinct points is the line alone (tileserver-gl fills
        // it, which covers nothing).
        let unfilled = try PathParameter(
            parsing: "stroke:blue|width:8|fill:none|8.53,47.38|8.54,47.385", syntax: syntax)
        #expect(unfilled.fillColor == nil && unfilled.coordinates.count == 2)
        let twoPoints = try PathParameter(parsing: "fill:yellow|8.53,47.37|8.54,47.375", syntax: syntax)
        #expect(twoPoints.fillColor == nil)
        // Query-wide options apply to every path; a path's own win.
        let defaults = PathParameter.Defaults(
            stroke: "yellow", width: "10", fill: "red", border: "black", borderWidth: "2", lineCap: "square",
            lineJoin: "round")
        let d = try PathParameter(parsing: points, syntax: syntax, defaults: defaults)
        #expect(d.color == Color(red8: 255, green8: 255, blue8: 0) && d.width == 10 && d.effectiveBorderWidth == 2)
        #expect(d.fillColor == Color(red8: 255, green8: 0, blue8: 0) && d.lineCap == .square && d.lineJoin == .round)
        let own = try PathParameter(
            parsing: "stroke:blue|width:3|fill:none|" + points, syntax: syntax, defaults: defaults)
        #expect(own.color == Color(red8: 0, green8: 0, blue8: 255) && own.width == 3 && own.fillColor == nil)
        #expect(own.effectiveBorderWidth == 2)
        // Google's grammar reads no tileserver-gl defaults.
        let google = try PathParameter(parsing: "40.7,-74|40.8,-74", syntax: .google, defaults: defaults)
        #expect(google.width == 5 && google.fillColor == nil && google.lineCap == nil)
        // In the scene: the border first (fill and the wider stroke), then the line unfilled over it.
        var scene = Scene()
        try StaticMapParameters(paths: ["stroke:red|width:4|border:black|borderwidth:3|fill:blue|" + points])
            .add(to: &scene)
        // Two overlay objects: a scene styles each object once.
        #expect(scene.overlays.count == 2 && scene.overlays[0].overlay !== scene.overlays[1].overlay)
        #expect(scene.overlays[0].style.stroke == Color(red8: 0, green8: 0, blue8: 0))
        #expect(scene.overlays[0].style.strokeWidth == 10 && scene.overlays[0].style.fillOpacity == 1)
        #expect(scene.overlays[1].style.stroke == Color(red8: 255, green8: 0, blue8: 0))
        #expect(scene.overlays[1].style.strokeWidth == 4 && scene.overlays[1].style.fillOpacity == 0)
    }

    @Test("visible points, and the entry point's model: pins, polylines, polygons")
    func entryPoint() throws {
        let p = try StaticMapParameters(
            markers: ["color:blue|label:S|40.702147,-74.015794|40.711614,-74.012318"],
            paths: [
                "color:0xff0000ff|weight:5|40.737102,-73.990318|40.749825,-73.987963",
                "fillcolor:0xffff0033|40.7,-74|40.8,-74|40.8,-73.9",
            ],
            visible: ["40.6,-74.1|40.9,-73.8", "41,-74"])
        #expect(p.markers.count == 1 && p.paths.count == 2 && p.visible.count == 3)
        var scene = Scene()
        try p.add(to: &scene)
        #expect(scene.annotations.count == 2)
        #expect(scene.annotations[0].pin.label == "S")
        #expect(scene.annotations[0].pin.color == Color(red8: 0, green8: 0, blue8: 255))
        #expect(scene.overlays.count == 2)
        #expect(scene.overlays[0].overlay is Polyline && scene.overlays[1].overlay is Polygon)
        #expect(scene.overlays[0].style.strokeWidth == 5)
        #expect(scene.overlays[1].style.fill == Color(red8: 255, green8: 255, blue8: 0, alpha: 0x33 / 255.0))
        #expect(scene.visibleCoordinates.count == 3)
        #expect(scene.positionsFromContent)
    }

    // MARK: Hostile input

    @Test(
        "malformed values name the part and the grammar",
        arguments: [
            ("m", "color:bleu|1,2", "'color:bleu': unknown color"),
            ("m", "color:0xFFF|1,2", "needs 6 or 8 digits"),
            ("m", "label:AB|1,2", "one character A-Z or 0-9"),
            ("m", "label:a|1,2", "one character A-Z or 0-9"),
            ("m", "size:huge|1,2", "tiny, small or mid"),
            ("m", "scale:3|1,2", "1, 2 or 4"),
            ("m", "icon:https://x/y.png|1,2", "custom icons"),
            ("m", "shadow:true|1,2", "unknown style 'shadow'"),
            ("m", "color:red", "no point"),
            ("m", "Delta+Junction,AK", "place names are not supported"),
            ("m", "91,0", "latitude 91.0 is outside -90...90"),
            ("m", "0,180.5", "longitude 180.5 is outside"),
            ("m", "nan,0", "LAT,LNG in decimal degrees"),
            ("m", "inf,0", "LAT,LNG in decimal degrees"),
            ("m", "0x1p3,0", "LAT,LNG in decimal degrees"),
            ("m", "1e999,0", "LAT,LNG in decimal degrees"),
            ("m", "1,2,3", "LAT,LNG in decimal degrees"),
            ("m", "%zz|1,2", "malformed % escape"),
            ("m", "1,2|pin.png|offset:1", "offset must be X,Y"),
            ("m", "1,2|pin.png|scale:0", "scale must be a number in 0.01...100"),
            ("m", "1,2|pin.png|big:1", "unknown option 'big'"),
            ("p", "weight:-1|0,0|1,1", "weight must be pixels in 0...100"),
            ("p", "weight:101|0,0|1,1", "weight must be pixels in 0...100"),
            ("p", "geodesic:yes|0,0|1,1", "geodesic must be true or false"),
            ("p", "0,0", "at least 2 distinct points"),
            ("p", "0,0|0,0", "at least 2 distinct points"),
            ("p", "fillcolor:red|0,0|1,1", "at least 3 distinct points"),
            ("p", "0,0|enc:_p~iF~ps|U", "either points or one enc: polyline"),
            ("p", "enc:_p~iF~ps|U_ulLnnqC_mqNvxq", "cut off"),
            ("p", "enc:_gjaR?", "outside latitude"),
            ("p", "stroke:red|linecap:flat|0,0|1,1", "linecap must be butt, round or square"),
            ("p", "stroke:red|linejoin:sharp|0,0|1,1", "linejoin must be miter, round or bevel"),
            ("p", "stroke:red|border:black|borderwidth:51|0,0|1,1", "borderwidth must be pixels in 0...50"),
            ("p", "stroke:red|borderwidth:-1|0,0|1,1", "borderwidth must be pixels in 0...50"),
            ("p", "stroke:red|borderwidth:nan|0,0|1,1", "borderwidth must be pixels in 0...50"),
            ("p", "stroke:red|border:nocolor|0,0|1,1", "unknown color"),
            ("p", "stroke:nocolor|0,0|1,1", "unknown color"),
            ("p", "width:3|0,200|1,1", "latitude 200.0 is outside"),
            ("v", "1,2|x", "LAT,LNG"),
            ("v", "|", "no point"),
        ])
    func hostile(kind: String, text: String, expected: String) {
        #expect {
            switch kind {
            case "m": _ = try StaticMapParameters(markers: [text])
            case "p": _ = try StaticMapParameters(paths: [text])
            default: _ = try StaticMapParameters(visible: [text])
            }
        } throws: { error in
            guard let e = error as? StaticMapParameterError else { return false }
            let text = e.description
            let ok = text.contains(expected) && text.contains("expected ") && text.contains("=")
            if !ok { print("got: \(text)") }
            return ok
        }
    }

    @Test("limits: 1,000 markers and 100,000 path points in all, counted across parameters")
    func limits() throws {
        let point = "1,2"
        let group = Array(repeating: point, count: 500).joined(separator: "|")
        _ = try StaticMapParameters(markers: [group, group])
        #expect(throws: StaticMapParameterError.self) { try StaticMapParameters(markers: [group, group, point]) }
        // 100,001 points from an encoded polyline: the limit holds after decoding.
        // "??" is the point (0, 0) or a repeat of the previous one, "_ibE_ibE" a step of (1, 1).
        let encoded = "enc:??_ibE_ibE" + String(repeating: "??", count: 99_999)
        #expect {
            _ = try StaticMapParameters(paths: [encoded])
        } throws: { "\($0)".contains("more than 100000 points") }
        let half = "enc:??_ibE_ibE" + String(repeating: "??", count: 49_998)
        _ = try StaticMapParameters(paths: [half, half])  // 100,000 in all
        #expect(throws: StaticMapParameterError.self) { try StaticMapParameters(paths: [half, half, "0,0|1,1"]) }
    }

    // MARK: marker-symbol in scene files

    @Test("simplestyle marker-symbol becomes the pin label; icon names are refused")
    func markerSymbol() throws {
        func scene(_ symbol: String) throws -> Scene {
            let json = """
                {"features": {"type": "FeatureCollection", "features": [{"type": "Feature",
                 "geometry": {"type": "Point", "coordinates": [24.94, 60.17]}, "properties": {"marker-symbol": \(symbol)}}]}}
                """
            return try Scene.decode(Data(json.utf8), source: "s.json")
        }
        #expect(try scene("\"A\"").annotations[0].pin.label == "A")
        #expect(try scene("12").annotations[0].pin.label == "12")
        #expect(try scene("\"\"").annotations[0].pin.label == nil)
        #expect {
            _ = try scene("\"rocket\"")
        } throws: { "\($0)".contains("marker-symbol") && "\($0)".contains("not supported") }
    }
}
