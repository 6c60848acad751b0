import Foundation
import MapData
import MapGeometry
import MapTestSupport
import Testing

/// `GeoJSON.featureSlots` locates the features of a FeatureCollection without converting coordinates, and
/// `GeoJSON.decodeFeature` decodes one of them alone (issue #11, cold start). The truth is the whole
/// document: `JSONValue.parse` (the grammar: the walk accepts no text it refuses) and
/// `GeoJSON.decodeFeatures` (the same features, in order, and the first feature's error as its error).
@Suite("GeoJSON feature slots: the features and errors of the whole document, one at a time")
struct GeoJSONFeatureSlotTests {
    /// The text with `"bbox":[-180,-90,180,90]` in every feature, right after its `"type":"Feature"`.
    static func withBoxes(_ text: String, _ box: String = "[-180,-90,180,90]") -> String {
        text.replacingOccurrences(of: #"{"type":"Feature","#, with: #"{"type":"Feature","bbox":\#(box),"#)
    }

    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    static func feature(_ geometry: String, box: String = "[-180,-90,180,90]") -> String {
        #"{"type":"Feature","bbox":\#(box),"properties":{"a":1},"geometry":\#(geometry)}"#
    }

    static func point(_ coordinates: String) -> String {
        feature(#"{"type":"Point","coordinates":\#(coordinates)}"#)
    }

    /// Texts aimed at the walk: numbers and arrays its coordinate loop reads itself, and what it leaves to
    /// the grammar (exponents, strings, nesting), the members it counts, boxes it does not take.
    static let walkTexts: [String] = [
        collection([point("[1,2]"), point("[ -0 , 0.5 ]"), point("[\n1.25,\t-2.5\r]")]),
        collection([point("[1e1,2E-1]"), point("[1,2.5e+1]"), point("[1,1e-400]")]),
        collection([point("[1,1e999]")]),
        collection([point("[1,01]")]),
        collection([point("[1,-]")]),
        collection([point("[1,-x]")]),
        collection([point("[1,2.]")]),
        collection([point("[1,.5]")]),
        collection([point("[1,2,]")]),
        collection([point("[,1,2]")]),
        collection([point("[1 2]")]),
        collection([point("[1,2")]),
        collection([point("[1,2]]")]),
        collection([point("[]")]),
        collection([feature(#"{"type":"Polygon","coordinates":[[]]}"#)]),
        collection([feature(#"{"type":"LineString","coordinates":[[1,2],[3,4,"x"]]}"#)]),
        collection([feature(#"{"type":"LineString","coordinates":[[1,2],[3,4,null]]}"#)]),
        collection([point(#"[1,"2"]"#)]),
        collection([point("[1," + String(repeating: "9", count: 301) + "]")]),
        collection([point("[1," + String(repeating: "9", count: 309) + "]")]),
        collection([point("[1,12345678901234567890.123456789012345678901234567890]")]),
        collection([point(String(repeating: "[", count: 600) + String(repeating: "]", count: 600))]),
        collection([point(String(repeating: "[", count: 505) + "1" + String(repeating: "]", count: 505))]),
        collection([point(String(repeating: "[", count: 510) + "1" + String(repeating: "]", count: 510))]),
        collection([feature(#"{"type":"LineString","coordinates":[[1,2],[3,91]]}"#)]),
        collection([point("[1,2]"), feature(#"{"type":"Point","coordinates":[[1,2]]}"#), point("[1,95]")]),
        collection([feature(#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]}]}"#)]),
        collection([feature("null"), point("[3,4]")]),
        collection([feature(#"{"type":"Point","type":"Point","coordinates":[1,2]}"#)]),
        collection([feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[1,2,3]")]),
        collection([feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[3,2,1,4]")]),
        collection([feature(#"{"type":"Point","coordinates":[1,2]}"#, box: #"[1,2,3,"4"]"#)]),
        collection([feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[0,0,5,5,1,1]")]),
        collection([point("[1,2]"), #"{"type":"Feature","properties":null,"geometry":null}"#]),
        collection([#"{"type":"Feature","properties":null,"geometry":null}"#, point("[1,2]")]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"bbox":[0,0,2,2],"geometry":null}"#]),
        collection([#"{"type":"Feature","type":"Feature","bbox":[0,0,1,1],"geometry":null}"#]),
        collection([#"{"bbox":[0,0,1,1],"geometry":{"coordinates":[1,2],"type":"Point"},"type":"Feature"}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"geometry":{"type":"Point","coordinates":[1,2]},"id":[1]}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":"x","geometry":null}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"s":"a\"b\\u00e9\u{1}"}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"s":"\ud800"}}"#]),
        // Properties (skipped by the plain-value loop, or the grammar's walk for escapes, exponents, depth).
        collection(
            [
                #"{"type":"Feature","bbox":[0,0,1,1],"geometry":null,"properties":"#
                    + #"{"a":{"b":[1,-2.5,{"c":null}],"d":true,"e":false},"f":"é","g":[],"h":{},"i":[[]],"j":0}}"#
            ]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":1,}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":[1,]}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":[,1]}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":tru}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":nulll}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":01}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":1.}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":-}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a" 1}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":1 "b":2}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{1:2}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":[1}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":{"b":1]}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":"x\#u{0A}y"}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":"\u00e9\"","b\n":1e5}}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"id":-0.5,"properties":null}"#]),
        collection([#"{"type":"Feature","bbox":[0,0,1,1],"id":"x","properties":{"a":1}} "#]),
        collection([
            #"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":"#
                + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}}"
        ]),
        collection([
            #"{"type":"Feature","bbox":[0,0,1,1],"properties":{"a":"#
                + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}}"
        ]),
        "\u{FEFF}" + collection([point("[1,2]")]),
        collection([point("[1,2]")]) + " x",
        collection([point("[1,2]")]) + "  \n",
        #"{"features":[{"type":"Feature","bbox":[0,0,1,1],"geometry":null}],"type":"FeatureCollection","x":[1e5,{"a":"b"}]}"#,
        #"{"type":"FeatureCollection","type":"FeatureCollection","features":[]}"#,
        #"{"type":"FeatureCollection","features":[],"features":[]}"#,
        #"{"type":"FeatureCollection","features":[5]}"#,
        #"{"type":"Feature","bbox":[0,0,1,1],"geometry":null}"#,
        "",
    ]

    /// Every text of the reading tests, as they are and with a bbox in every feature, and the walk's texts.
    static let texts: [String] =
        GeoJSONReadingTests.texts + GeoJSONReadingTests.texts.map { withBoxes($0) } + walkTexts

    static func describe(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch { return "\(error)" }
    }

    @Test("slots decode to the document's features, the first failing one to its error", arguments: texts)
    func sameAsDocument(_ text: String) throws {
        let data = Data(text.utf8)
        let grammarError = Self.describe { try JSONValue.parse(data) }
        guard let slots = GeoJSON.featureSlots(data) else { return }
        #expect(grammarError == nil, "the walk accepted a text the grammar refuses")
        #expect(slots.first?.boundingBox != nil)
        let whole = GeoJSONReadingTests.fromBytes(text)
        var decoded: [GeoJSONFeature] = []
        for (index, slot) in slots.enumerated() {
            #expect(text.utf8.count >= slot.bytes.upperBound)
            do {
                decoded.append(try GeoJSON.decodeFeature(data, slot: slot, index: index, source: "t"))
            } catch {
                #expect(whole == .failure("\(error)"))
                return
            }
        }
        #expect(whole == .success(decoded))
        if case .success(let features) = whole {
            #expect(GeoJSONReadingTests.bits(decoded) == GeoJSONReadingTests.bits(features))
        }
    }

    /// The box a slot must declare: the feature's, when it has exactly one valid `bbox` and one geometry
    /// object of one `type` other than GeometryCollection.
    static let boxCases: [(String, GeoBoundingBox?)] = [
        (
            feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[0.5,-1,3,4]"),
            GeoBoundingBox(west: 0.5, south: -1, east: 3, north: 4)
        ),
        (
            feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[0,-1,7,3,4,9]"),
            GeoBoundingBox(west: 0, south: -1, east: 3, north: 4)
        ),
        (feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[3,2,1,4]"), nil),
        (feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[1,5,3,4]"), nil),
        (feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[1,-91,3,4]"), nil),
        (feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "[1,2,3]"), nil),
        (feature(#"{"type":"Point","coordinates":[1,2]}"#, box: "null"), nil),
        (feature(#"{"type":"GeometryCollection","geometries":[]}"#), nil),
        (feature(#"{"type":"Point","type":"Point","coordinates":[1,2]}"#), nil),
        (feature(#"{"coordinates":[1,2]}"#), nil),
        (feature(#"{"type":5,"coordinates":[1,2]}"#), nil),
        (feature("null"), nil),
        (feature("[1,2]"), nil),
        (#"{"type":"Feature","bbox":[0,0,1,1],"bbox":[0,0,1,1],"geometry":{"type":"Point","coordinates":[1,2]}}"#, nil),
        (
            #"{"type":"Feature","bbox":[0,0,1,1],"geometry":null,"geometry":{"type":"Point","coordinates":[1,2]}}"#,
            nil
        ),
        (#"{"type":"Feature","bbox":[0,0,1,1]}"#, nil),
    ]

    @Test("which features can wait: exactly one valid bbox, one geometry of one simple type")
    func boxes() throws {
        for (text, box) in Self.boxCases {
            let slots = GeoJSON.featureSlots(Data(Self.collection([Self.point("[0,0]"), text]).utf8))
            #expect(slots?.count == 2, "\(text)")
            #expect(slots?.last?.boundingBox == box, "\(text)")
        }
    }

    @Test("a slot outside the data or not a feature object is an error naming the feature, not a crash")
    func hostileSlots() {
        let data = Data(Self.collection([Self.point("[1,2]")]).utf8)
        for range in [-1..<5, 0..<10_000, 3..<3, 1..<5] {
            #expect(throws: GeoJSONError.self) {
                try GeoJSON.decodeFeature(
                    data, slot: GeoJSON.FeatureSlot(bytes: range, boundingBox: nil), index: 7, source: "t")
            }
        }
    }

    @Test("mutated texts: the walk refuses what the grammar refuses, slots decode as the document does")
    func mutations() {
        let seed = Self.collection([
            Self.point("[1.5,-2.25]"), Self.feature(#"{"type":"LineString","coordinates":[[0,0],[10,0.5]]}"#),
            Self.feature(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#),
            #"{"type":"Feature","bbox":[0,0,1,1],"properties":{"s":"x","n":[1,null,true]},"geometry":null}"#,
        ])
        let alphabet = Array(#"[]{},:"-.0123456789eE+ \\bcnulltrueF"#.utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = Array(seed.utf8)
            for _ in 0...next(3) {
                let at = next(bytes.count)
                switch next(3) {
                case 0: bytes[at] = alphabet[next(alphabet.count)]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[next(alphabet.count)], at: at)
                }
            }
            let data = Data(bytes)
            guard let slots = GeoJSON.featureSlots(data) else { continue }
            accepted += 1
            let text = String(decoding: bytes, as: UTF8.self)
            #expect((try? JSONValue.parse(data)) != nil, "\(text)")
            let whole = GeoJSONReadingTests.fromBytes(text)
            var decoded: [GeoJSONFeature] = []
            var failed = false
            for (index, slot) in slots.enumerated() {
                do { decoded.append(try GeoJSON.decodeFeature(data, slot: slot, index: index, source: "t")) } catch {
                    #expect(whole == .failure("\(error)"), "\(text)")
                    failed = true
                    break
                }
            }
            if !failed { #expect(whole == .success(decoded), "\(text)") }
        }
        #expect(accepted > 100)
    }

    @Test("the shipped 1:50m countries: every feature declares its bbox, holds within it, decodes alike")
    func shippedCountries() throws {
        let url = Fixtures.packageRoot.appendingPathComponent(
            "Sources/MapBaseMap/Resources/naturalearth/ne_50m_countries.geojson")
        let data = try Data(contentsOf: url)
        let slots = try #require(GeoJSON.featureSlots(data))
        let whole = try GeoJSON.decodeFeatures(data, source: "t")
        #expect(slots.count == whole.count)
        for (index, slot) in slots.enumerated() {
            let box = try #require(slot.boundingBox)
            let feature = try GeoJSON.decodeFeature(data, slot: slot, index: index, source: "t")
            #expect(feature == whole[index])
            #expect(box.firstPositionOutside(try #require(feature.geometry)) == nil)
        }
    }
}
