import MapGeometry
import Testing

/// The CSS colour grammar of the MapLibre style spec, against values computed by hand from CSS Color 4's
/// formulas (hsl: m2 = l <= 0.5 ? l(s + 1) : l + s - ls, m1 = 2l - m2, each channel rounded to 8 bits,
/// halves up, as MapLibre Native stores them).
@Suite("CSS colours: hsl, rgb with percentages and spaces, hex, names")
struct CSSColorParsingTests {
    /// (text, red, green, blue, alpha).
    static let cases: [(String, Int, Int, Int, Double)] = [
        // hsl(30, 19%, 90%): m2 = 0.9 + 0.19 - 0.171 = 0.919, m1 = 0.881; R = m2 = 234.345, G = m1 + (m2 - m1)
        // * 0.5 = 0.9 -> 229.5 -> 230, B = m1 = 224.655 -> 225.
        ("hsl(30, 19%, 90%)", 234, 230, 225, 1),
        ("hsla(30, 19%, 90%, 0.4)", 234, 230, 225, 0.4),
        ("hsl(30deg 19% 90% / 40%)", 234, 230, 225, 0.4),
        ("HSL( 30 , 19% , 90% )", 234, 230, 225, 1),
        ("hsl(390, 19%, 90%)", 234, 230, 225, 1),  // hue modulo 360
        ("hsl(-330, 19%, 90%)", 234, 230, 225, 1),
        ("hsl(0, 100%, 50%)", 255, 0, 0, 1),
        // l = 0.25, s = 1: m2 = 0.5, m1 = 0; G = m2 = 127.5 -> 128.
        ("hsl(120, 100%, 25%)", 0, 128, 0, 1),
        ("hsl(240 100% 50% / 0.5)", 0, 0, 255, 0.5),
        // l = 0.5, s = 1, h = 1/12: G = 0.5 -> 127.5 -> 128.
        ("hsl(30, 100%, 50%)", 255, 128, 0, 1),
        ("hsl(0, 0%, 40%)", 102, 102, 102, 1),
        ("hsl(0, 150%, 120%)", 255, 255, 255, 1),  // saturation and lightness clamped to 100 %
        ("hsla(0, 0%, 0%, 2)", 0, 0, 0, 1),  // alpha clamped
        ("rgb(100%, 50%, 0%)", 255, 128, 0, 1),
        ("rgb(255 128 0 / 50%)", 255, 128, 0, 0.5),
        ("rgba(255, 128, 0, 0.25)", 255, 128, 0, 0.25),
        ("rgba(255 128 0)", 255, 128, 0, 1),
        ("rgb(12.6, 0, 0)", 13, 0, 0, 1),
        ("rgba(300, -5, 0, -1)", 255, 0, 0, 0),  // clamped, as MapLibre does
        ("rgb(1e2, 0, 0)", 100, 0, 0, 1),
        ("#abc", 0xaa, 0xbb, 0xcc, 1),
        ("#abcd", 0xaa, 0xbb, 0xcc, Double(0xdd) / 255),
        ("#a1b2c3", 0xa1, 0xb2, 0xc3, 1),
        ("#A1B2C380", 0xa1, 0xb2, 0xc3, Double(0x80) / 255),
        ("transparent", 0, 0, 0, 0),
        (" Red ", 255, 0, 0, 1),
        ("rebeccapurple", 102, 51, 153, 1),
    ]

    @Test("valid colours give the hand-computed 8-bit channels", arguments: cases.indices)
    func valid(index: Int) throws {
        let (text, r, g, b, a) = Self.cases[index]
        let color = try Color(parsing: text)
        #expect(color == Color(red8: r, green8: g, blue8: b, alpha: a), "\(text) -> \(color)")
    }

    @Test(
        "malformed colours are refused quoting the text",
        arguments: [
            "hsl(30, 19, 90)", "hsl(30 19% 90% 0.4)", "hsl(30%, 19%, 90%)", "hsl(30, 19%)", "rgb(1, 2 3)",
            "rgb(1 2 3, 0.5)", "rgb(50%, 2, 3)", "rgb(1, 2, 3, 4, 5)", "rgb(1 2 3 / 4 / 5)", "rgb()", "rgb(a, b, c)",
            "rgb(1, 2, 3) x", "rgb(1px, 2, 3)", "#abcde", "#ggg", "notacolor", "hsv(1, 2%, 3%)", "rgb(nan, 0, 0)",
            "", "rgb(1, 2, 3, 50deg)",
        ])
    func invalid(text: String) {
        #expect(throws: ColorError.invalid(text)) { try Color(parsing: text) }
        #expect(ColorError.invalid(text).description.contains("hsl("))
    }
}
