import Foundation
import MapData
import MapGeometry
import MapGraphics
import MapTestSupport
import Testing

@testable import MapBaseMap
@testable import MapStyle

/// `format` sections, vertical text, `text-overlap`, `text-translate`, `text-variable-anchor-offset` and
/// labels avoiding reserved boxes (the attribution). Truth: hb-shape 6.0.0 advances and offsets (commands in
/// each test), Unicode's vertical forms (UAX #50 and the Vertical Forms block), hand-computed geometry.
@Suite("Text layout: format sections, vertical text, overlap, translate, reserved boxes")
struct TextLayoutTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let ipaex = "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf"

    /// UAX #50 Vertical_Orientation: U (upright) and Tu (transformed, else upright) are upright; R (rotated)
    /// and Tr brackets (drawn upright only as their vertical forms) are not.
    @Test(
        arguments: [
            ("東", true), ("あ", true), ("マ", true), ("한", true), ("ー", true), ("、", true), ("︵", true),
            ("Ａ", true), ("A", false), ("1", false), ("ا", false), ("(", false), ("（", false), ("「", false),
        ])
    func orientation(character: String, upright: Bool) {
        #expect(VerticalText.isUpright(character.unicodeScalars.first!) == upright)
    }

    /// Unicode names the targets: U+FE35/FE36 PRESENTATION FORM FOR VERTICAL LEFT/RIGHT PARENTHESIS,
    /// U+FE11 ... VERTICAL IDEOGRAPHIC COMMA, U+FE41/FE42 ... LEFT/RIGHT CORNER BRACKET. Punctuation next
    /// to a turned (Latin) character keeps its form.
    @Test(
        arguments: [
            ("（東京）、", "\u{FE35}東京\u{FE36}\u{FE11}"), ("「渋谷」", "\u{FE41}渋谷\u{FE42}"), ("東(京", "東\u{FE35}京"),
            ("A(B)", "A(B)"), ("東京A!", "東京A!"),
        ])
    func punctuation(text: String, expected: String) {
        #expect(VerticalText.verticalizingPunctuation(text) == expected)
    }

    /// Point labels verticalize whatever the neighbours (U+FE35/FE36 around Latin).
    @Test func punctuationAlways() {
        #expect(VerticalText.verticalizingPunctuation("A(B)", always: true) == "A\u{FE35}B\u{FE36}")
    }

    @Test func allowsVertical() {
        #expect(VerticalText.allowsVertical("Tokyo 東京"))
        #expect(!VerticalText.allowsVertical("Tokyo"))
    }

    /// `hb-shape --direction=ttb --font-size=20 ipaexg.ttf 東京ー` gives glyphs 2940, 1454, 7477 (the
    /// long vowel mark's vertical form: 426 horizontally) at offsets (-10, -18) (y up, rounded: -17.6
    /// exactly, the ascender 0.88) with advances 0 / -20.
    @Test func uprightColumn() throws {
        let font = try Font.load(path: Self.ipaex)
        let column = Font.layOutColumn([TextSection(text: "東京ー", font: font)], size: 20)
        #expect(column.glyphs.map(\.index) == [2940, 1454, 7477])
        for (i, g) in column.glyphs.enumerated() {
            #expect(abs(g.origin.x - -10) < 0.01)
            #expect(abs(g.origin.y - (17.6 + 20 * Double(i))) < 0.01)
            #expect(g.angle == 0)
        }
        #expect(abs(column.length - 60) < 0.01)
        #expect(column.width == 20)
    }

    /// Latin in a column is turned a quarter clockwise, its em box centered on the column: the baseline
    /// at x = -(ascender - descender) / 2 * size = -(0.88 - 0.12) / 2 * 20 = -7.6; it starts where 東 ends
    /// (y = 20); `hb-shape --font-size=20 ipaexg.ttf A` advances 12.74 (637 at size 1000).
    @Test func turnedRun() throws {
        let font = try Font.load(path: Self.ipaex)
        let column = Font.layOutColumn([TextSection(text: "東A東", font: font)], size: 20)
        #expect(column.glyphs.count == 3)
        let a = column.glyphs[1]
        #expect(abs(a.angle - .pi / 2) < 1e-9)
        #expect(abs(a.origin.x - -7.6) < 0.01)
        #expect(abs(a.origin.y - 20) < 0.01)
        #expect(abs(column.glyphs[2].origin.y - (20 + 12.74 + 17.6)) < 0.01)
        #expect(abs(column.length - (40 + 12.74)) < 0.01)
    }

    /// Point labels (MapLibre's rule): Latin stands up too, centered on the column, one em long:
    /// 'A' advances 12.74 (`hb-shape --font-size=1000 ipaexg.ttf A`: 637), so its origin is 6.37 left of
    /// the center, its baseline 17.6 below the top of its em (IPAex's ascender 0.88, descender 0.12).
    @Test func standingLatin() throws {
        let font = try Font.load(path: Self.ipaex)
        let column = Font.layOutColumn([TextSection(text: "東A", font: font)], size: 20, standingLatin: true)
        #expect(column.glyphs.count == 2)
        #expect(column.glyphs[1].angle == 0)
        #expect(abs(column.glyphs[1].origin.x - -6.37) < 0.01)
        #expect(abs(column.glyphs[1].origin.y - 37.6) < 0.01)
        #expect(abs(column.length - 40) < 0.01)
    }

    /// MapLibre's `text-field/formatted` case at `text-size` 32: "Naples" (scale 1.5) and "Italy" (0.5) on
    /// one baseline, "Napoli" (0.5) on the next line, lines 1.2 x 32 x their largest scale apart.
    /// `hb-shape --font-size=1000 DejaVuSans.ttf` advances: Naples 3410, Italy 2170, Napoli 3164.
    @Test func formattedBlock() throws {
        let font = try Font.load(path: Self.dejaVu)
        let block = TextBlock.layOut(
            [
                TextSection(text: "Naples", font: font, scale: 1.5), TextSection(text: "Italy", font: font, scale: 0.5),
                TextSection(text: "\n", font: font), TextSection(text: "Napoli", font: font, scale: 0.5),
            ], size: 32, lineHeight: 1.2 * 32, share: 0.5, vertical: false)
        let naples = 3.410 * 48
        let width = naples + 2.170 * 16
        #expect(abs(block.width - width) < 0.05)
        #expect(abs(block.height - (57.6 + 19.2)) < 1e-9)
        #expect(block.glyphs.count == 17)
        // Italy starts where Naples ends, on the same baseline.
        #expect(abs(block.glyphs[6].origin.x - naples) < 0.05)
        #expect(block.glyphs[6].origin.y == block.glyphs[0].origin.y)
        #expect(block.glyphs[0].scale == 1.5 && block.glyphs[6].scale == 0.5)
        // Napoli is centered under the first line, its baseline in the second line's 19.2 points.
        #expect(abs(block.glyphs[11].origin.x - (width - 3.164 * 16) / 2) < 0.05)
        let m = font.verticalMetrics
        #expect(
            abs(block.glyphs[11].origin.y - (57.6 + (19.2 - (m.ascender + m.descender) * 16) / 2 + m.ascender * 16))
                < 1e-9)
    }

    /// Formatted lines wider than `text-max-width` break at spaces, greedily, as plain labels do: at 8 ems of
    /// 14 points (112), `hb-shape --font-size=1000 DejaVuSans-Bold.ttf` gives "Republic of" 6341 (88.774 at
    /// 14) and "Republic of Korea" 9979 (139.706): "Republic of" / "Korea". No break inside a word that
    /// spans two sections.
    @Test func formattedWrap() throws {
        let bold = try Font.load(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
        let lines = TextBlock.wrap([TextSection(text: "Republic of Korea", font: bold)], size: 14, maxWidth: 112)
        #expect(lines.map { $0.map(\.text).joined() } == ["Republic of", "Korea"])
        let block = TextBlock.layOut(
            [TextSection(text: "Republic of Korea", font: bold)], size: 14, lineHeight: 16.8, share: 0.5,
            vertical: false, maxWidth: 112)
        #expect(abs(block.width - 88.774) < 0.01)
        #expect(abs(block.height - 33.6) < 1e-9)
        let joined = TextBlock.wrap(
            [TextSection(text: "Naples", font: bold), TextSection(text: "Italy", font: bold, scale: 0.5)], size: 14,
            maxWidth: 10)
        #expect(joined.count == 1)
    }

    /// A vertical block of two lines: the first column on the right, columns `lineHeight` apart.
    @Test func verticalColumns() throws {
        let font = try Font.load(path: Self.ipaex)
        let block = TextBlock.layOut(
            [TextSection(text: "東京\n大阪府", font: font)], size: 20, lineHeight: 24, share: 0.5, vertical: true)
        #expect(block.width == 48)
        #expect(abs(block.height - 60) < 0.01)
        // 東 in the right column (center 36), 大 in the left (center 12), each glyph 10 left of its center.
        #expect(abs(block.glyphs[0].origin.x - 26) < 0.01)
        #expect(abs(block.glyphs[2].origin.x - 2) < 0.01)
        // The shorter column is centered along the longer one.
        #expect(abs(block.glyphs[0].origin.y - (10 + 17.6)) < 0.01)
        // MapLibre starts every column at the top (vertical text is justified "left" before it is turned).
        let top = TextBlock.layOut(
            [TextSection(text: "東京\n大阪府", font: font)], size: 20, lineHeight: 24, share: 0, vertical: true)
        #expect(abs(top.glyphs[0].origin.y - 17.6) < 0.01)
    }

    static func points(_ list: [(Double, Double, String)]) -> String {
        let features = list.map { lon, lat, name in
            #"{"type": "Feature", "properties": {"name": "\#(name)"}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
        }
        return #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
    }

    static func style(_ data: String, layout: String, paint: String = "{}") throws -> Style {
        let text = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": \#(data)}},
             "layers": [{"id": "names", "type": "symbol", "source": "s", "layout": \#(layout), "paint": \#(paint)}]}
            """#
        return try Style.decode(Data(text.utf8), source: "test", baseURL: URL(fileURLWithPath: "/"))
    }

    static func place(_ data: String, layout: String, paint: String = "{}") throws -> [PlacedLabel] {
        let style = try style(data, layout: layout, paint: paint)
        let map = try StyledBaseMap(style: style)
        let viewport = try MapViewport(
            size: Size(width: 400, height: 300), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 6)
        let surface = try ImageSurface(width: 400, height: 300)
        let frame = LayerFrame(context: try GraphicsContext(surface: surface), viewport: viewport)
        let source = try #require(try map.featureSource(for: style.layers[0], viewport: viewport))
        var collisions = SpatialGrid(cellSize: 64)
        return try SymbolLayerRenderer(layer: style.layers[0], source: source, selection: frame.selection).place(
            into: &collisions)
    }

    static let twoAtOnePoint = points([(0, 0, "Alpha"), (0, 0, "Beta")])

    @Test(arguments: [("\"always\"", 2), ("\"cooperative\"", 2), ("\"never\"", 1)])
    func overlap(value: String, count: Int) throws {
        let labels = try Self.place(
            Self.twoAtOnePoint,
            layout: #"{"text-field": "{name}", "text-overlap": \#(value), "text-allow-overlap": false}"#)
        #expect(labels.count == count)
    }

    /// `text-overlap: never` wins over `text-allow-overlap: true`.
    @Test func overlapWinsOverAllowOverlap() throws {
        let labels = try Self.place(
            Self.twoAtOnePoint,
            layout: #"{"text-field": "{name}", "text-overlap": "never", "text-allow-overlap": true}"#)
        #expect(labels.count == 1)
    }

    @Test func translate() throws {
        let data = Self.points([(0, 0, "Alpha")])
        let plain = try #require(try Self.place(data, layout: #"{"text-field": "{name}"}"#).first)
        let moved = try #require(
            try Self.place(data, layout: #"{"text-field": "{name}"}"#, paint: #"{"text-translate": [5, -10]}"#).first)
        guard case .lines(let a) = plain.content, case .lines(let b) = moved.content else {
            Issue.record("point labels")
            return
        }
        #expect(abs(b[0].origin.x - a[0].origin.x - 5) < 1e-9)
        #expect(abs(b[0].origin.y - a[0].origin.y + 10) < 1e-9)
    }

    /// `text-variable-anchor-offset`: the first pair is tried first, its offset in ems as given: "left" with
    /// [1, 0] at size 10 puts the text's left edge 10 points right of the anchor.
    @Test func variableAnchorOffset() throws {
        let data = Self.points([(0, 0, "Alpha")])
        let labels = try Self.place(
            data,
            layout:
                #"{"text-field": "{name}", "text-size": 10, "text-variable-anchor-offset": ["left", [1, 0], "right", [-1, 0]]}"#
        )
        let plain = try Self.place(data, layout: #"{"text-field": "{name}", "text-size": 10, "text-anchor": "left"}"#)
        guard case .lines(let a) = try #require(labels.first).content,
            case .lines(let b) = try #require(plain.first).content
        else {
            Issue.record("point labels")
            return
        }
        #expect(abs(a[0].origin.x - b[0].origin.x - 10) < 1e-9)
    }

    @Test(arguments: [
        #"["left", [1, 0], "right"]"#, #"["middle", [1, 0]]"#, #"["left", [1]]"#, #"["left", ["a", 0]]"#,
    ])
    func badVariableAnchorOffset(value: String) {
        #expect {
            _ = try Self.style(
                Self.points([]), layout: #"{"text-field": "x", "text-variable-anchor-offset": \#(value)}"#)
        } throws: { error in
            "\(error)".contains("names") && "\(error)".contains("text-variable-anchor-offset")
        }
    }

    /// Per-section color (with `text-opacity`) and scale reach the placed glyphs.
    @Test func formattedLabel() throws {
        let labels = try Self.place(
            Self.points([(0, 0, "Roma")]),
            layout:
                ##"{"text-field": ["format", ["get", "name"], {"font-scale": 1.5}, "\n", {}, "Italia", {"text-color": "#ff0000"}], "text-font": ["DejaVu Sans"]}"##,
            paint: #"{"text-opacity": 0.5}"#)
        guard case .glyphs(let glyphs) = try #require(labels.first).content else {
            Issue.record("a formatted label is laid out glyph by glyph")
            return
        }
        #expect(glyphs.count == 10)
        #expect(glyphs[0].scale == 1.5 && glyphs[0].color == nil)
        #expect(glyphs[4].color == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(glyphs[4].origin.y > glyphs[0].origin.y)
    }

    /// Section options of the wrong type are refused when the style is read, naming the layer and the option.
    @Test(arguments: [
        (#"{"font-scale": "big"}"#, "font-scale"), (#"{"text-font": "DejaVu Sans"}"#, "text-font"),
        (#"{"text-color": 12}"#, "text-color"),
    ])
    func wrongSectionTypes(options: String, name: String) {
        #expect {
            _ = try Self.style(
                Self.points([]), layout: #"{"text-field": ["format", "Roma", \#(options)]}"#)
        } throws: { error in
            "\(error)".contains("names") && "\(error)".contains(name)
        }
    }

    /// A section's stack of no installed font is drawn with the closest installed face, not refused (issue 25).
    @Test func formattedSectionWithUnknownFont() throws {
        let placed = try Self.place(
            Self.points([(0, 0, "Roma")]),
            layout: #"{"text-field": ["format", ["get", "name"], {"text-font": ["literal", ["No Such Font"]]}]}"#)
        #expect(placed.count == 1)
        #expect(FontCatalog.default.fallback(for: ["No Such Font"]) != nil)
    }

    /// `text-writing-mode: ["vertical"]` stands CJK text in a column; Latin text stays horizontal.
    @Test func writingMode() throws {
        let layout = #"{"text-field": "{name}", "text-writing-mode": ["vertical"], "text-size": 20}"#
        let cjk = try Self.place(Self.points([(0, 0, "東京都")]), layout: layout)
        guard case .glyphs(let glyphs) = try #require(cjk.first).content else {
            Issue.record("vertical text is laid out glyph by glyph")
            return
        }
        #expect(glyphs.count == 3)
        #expect(Set(glyphs.map(\.origin.x)).count == 1)
        #expect(abs(glyphs[1].origin.y - glyphs[0].origin.y - 20) < 0.01)
        let latin = try Self.place(Self.points([(0, 0, "Tokyo")]), layout: layout)
        if case .lines = try #require(latin.first).content {} else { Issue.record("Latin stays horizontal") }
    }

    /// Reserved boxes (the attribution) are collision boxes placed first: a label under one is dropped.
    @Test func reservedBoxes() throws {
        let style = try Self.style(Self.points([(0, 0, "Alpha")]), layout: #"{"text-field": "{name}"}"#)
        let map = try StyledBaseMap(style: style)
        let viewport = try MapViewport(
            size: Size(width: 200, height: 100), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 3)
        func drawn(_ reserved: [Rect]) throws -> Int {
            let surface = try ImageSurface(width: 200, height: 100)
            try map.drawLabels(in: try GraphicsContext(surface: surface), viewport: viewport, avoiding: reserved)
            let image = RGBAImage(surface)
            return stride(from: 3, to: image.bytes.count, by: 4).filter { image.bytes[$0] != 0 }.count
        }
        #expect(try drawn([]) > 0)
        #expect(try drawn([Rect(x: 90, y: 45, width: 20, height: 10)]) == 0)
        #expect(try drawn([Rect(x: 0, y: 0, width: 20, height: 10)]) > 0)
    }
}
