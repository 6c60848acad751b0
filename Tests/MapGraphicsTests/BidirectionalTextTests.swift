import Testing

@testable import MapGraphics

/// Arabic shaping and bidi reordering (ICU) against the Unicode tables: the presentation forms of Unicode's
/// Arabic Presentation Forms-B chart and the visual order the Bidirectional Algorithm (UAX #9) gives. The
/// same steps draw MapLibre's text-arabic render tests pixel for pixel (Benchmarks/maplibre-render-tests).
@Suite("Bidirectional text: Arabic shaping and visual order")
struct BidirectionalTextTests {
    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    @Test("letters take their joining forms: بغداد is beh initial, ghain medial, dal final, alef and dal isolated")
    func joiningForms() {
        #expect(
            Self.scalars(BidirectionalText.applyArabicShaping("بغداد")) == [0xFE91, 0xFED0, 0xFEAA, 0xFE8D, 0xFEA9])
    }

    @Test("lam and alef join into one ligature (the text shrinks); digits and Latin are untouched")
    func lamAlef() {
        // seen, lam-alef (final: it follows a joining seen), meem isolated (alef does not join forward).
        #expect(
            Self.scalars(BidirectionalText.applyArabicShaping("سلام۳۹")) == [0xFEB3, 0xFEFC, 0xFEE1, 0x06F3, 0x06F9])
        #expect(BidirectionalText.applyArabicShaping("Baghdad 39") == "Baghdad 39")
    }

    @Test("a right-to-left line reads right to left, its digits left to right")
    func visualOrder() throws {
        let text = Self.scalars(BidirectionalText.applyArabicShaping("سلام۳۹"))
        let lines = try #require(BidirectionalText.visualLines(text, lineEnds: [text.count]))
        #expect(lines.count == 1)
        #expect(lines[0].map(\.index) == [3, 4, 2, 1, 0])
        #expect(lines[0].allSatisfy { !$0.mirrored })
    }

    @Test("brackets in a right-to-left run are mirrored; left-to-right text keeps its order")
    func mirroring() throws {
        let lines = try #require(BidirectionalText.visualLines(Self.scalars("(ب)"), lineEnds: []))
        #expect(
            lines == [
                [.init(index: 2, mirrored: true), .init(index: 1, mirrored: false), .init(index: 0, mirrored: true)]
            ])
        let latin = try #require(BidirectionalText.visualLines(Self.scalars("(a)"), lineEnds: []))
        #expect(latin[0].map(\.index) == [0, 1, 2] && latin[0].allSatisfy { !$0.mirrored })
        #expect(BidirectionalText.mirror(0x28) == 0x29 && BidirectionalText.mirror(0x41) == 0x41)
    }

    @Test("lines are reordered one by one; a paragraph separator ends a line; bidi controls are dropped")
    func linesAndParagraphs() throws {
        // "ab" then Arabic "سل": broken after "ab " and, by U+001C (a paragraph separator), after it too.
        let text = Self.scalars("ab \u{200E}سل\u{1C}cd")
        let lines = try #require(BidirectionalText.visualLines(text, lineEnds: [3]))
        #expect(lines.count == 3)
        #expect(lines[0].map(\.index) == [0, 1, 2])
        #expect(lines[1].map(\.index) == [5, 4, 6])  // the LRM dropped, the Arabic reversed, U+001C last
        #expect(lines[2].map(\.index) == [7, 8])
    }

    @Test("text ICU cannot take, and empty text, come back as they are")
    func edges() {
        #expect(BidirectionalText.visualLines([], lineEnds: []) == [])
        #expect(BidirectionalText.applyArabicShaping("") == "")
        #expect(BidirectionalText.isArabicJoining(0xFEFC) && !BidirectionalText.isArabicJoining(0x41))
    }
}
