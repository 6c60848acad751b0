import Foundation

/// The CSS colour grammar of the MapLibre style specification (CSS Color Module Level 4 as MapLibre reads it).
extension Color {
    /// Parses a CSS color as MapLibre does: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`; `rgb()`/`rgba()` with three
    /// numbers (0...255) or three percentages, separated by commas (`rgba(255, 0, 0, 0.5)`) or by spaces
    /// with an optional `/ alpha` (`rgb(255 0 0 / 50%)`); `hsl()`/`hsla()` with a hue in degrees (`deg`
    /// allowed) and two percentages in the same two syntaxes; the 148 CSS color names; `transparent`.
    /// Case and surrounding spaces do not matter.
    ///
    /// Out-of-range numbers are clamped (a channel into 0...255, saturation and lightness into 0...100 %,
    /// alpha into 0...1), the hue is taken modulo 360, and each red, green and blue channel is rounded to
    /// the nearest 8-bit value (halves up), as MapLibre Native's CSS colour parser stores them; alpha is
    /// kept as given. `hsl(30, 19%, 90%)` is `rgb(234, 230, 225)`.
    ///
    /// ```swift
    /// let sand = try Color(parsing: "hsla(30, 19%, 90%, 0.4)")
    /// ```
    ///
    /// - Throws: ``ColorError/invalid(_:)`` quoting the text.
    public init(parsing text: String) throws {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if s.hasPrefix("#") {
            guard let color = Self.hex(s.dropFirst()) else { throw ColorError.invalid(text) }
            self = color
            return
        }
        if let open = s.firstIndex(of: "("), s.hasSuffix(")") {
            let function = s[..<open].trimmingCharacters(in: .whitespaces)
            let inside = s[s.index(after: open)..<s.index(before: s.endIndex)]
            guard let arguments = CSSColorArguments(inside) else { throw ColorError.invalid(text) }
            let color: Color?
            switch function {
            case "rgb", "rgba": color = arguments.rgb()
            case "hsl", "hsla": color = arguments.hsl()
            default: color = nil
            }
            guard let color else { throw ColorError.invalid(text) }
            self = color
            return
        }
        guard let named = Self.named[s] ?? Self.extendedNames[s] else { throw ColorError.invalid(text) }
        self = named
    }

    /// `rgb`, `rgba`, `rrggbb` or `rrggbbaa` hex digits.
    private static func hex(_ digits: Substring) -> Color? {
        let hex = Array(digits)
        guard hex.allSatisfy(\.isHexDigit), [3, 4, 6, 8].contains(hex.count) else { return nil }
        let width = hex.count <= 4 ? 1 : 2
        var values: [Double] = []
        var i = 0
        while i < hex.count {
            let pair = width == 1 ? String([hex[i], hex[i]]) : String(hex[i..<i + 2])
            values.append(Double(Int(pair, radix: 16) ?? 0) / 255)
            i += width
        }
        return Color(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 1)
    }

    /// A channel in 0...1 (clamped) rounded to the nearest of the 256 8-bit values, as MapLibre Native stores
    /// colours.
    public static func byte(_ unit: Double) -> Double {
        (max(0, min(1, unit)) * 255).rounded(.toNearestOrAwayFromZero) / 255
    }
}

/// The arguments between the parentheses of `rgb()` or `hsl()`: three values and an optional alpha, all
/// separated by commas or all by spaces (then `/` before the alpha), each a number with an optional unit.
struct CSSColorArguments {
    struct Value {
        var number: Double
        var unit: Substring
    }

    var values: [Value]
    var alpha: Value?

    init?(_ text: Substring) {
        let commas = text.contains(",")
        var parts: [Substring]
        var alphaPart: Substring?
        if commas {
            parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 3 || parts.count == 4, !text.contains("/") else { return nil }
            if parts.count == 4 { alphaPart = parts.removeLast() }
        } else {
            let halves = text.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count <= 2 else { return nil }
            parts = halves[0].split(whereSeparator: { $0 == " " || $0 == "\t" })
            if halves.count == 2 { alphaPart = halves[1] }
            guard parts.count == 3 else { return nil }
        }
        var values: [Value] = []
        for part in parts {
            guard let value = Self.value(part) else { return nil }
            values.append(value)
        }
        self.values = values
        if let alphaPart {
            guard let alpha = Self.value(alphaPart), alpha.unit.isEmpty || alpha.unit == "%" else { return nil }
            self.alpha = alpha
        }
    }

    /// A number (digits, `.`, `e`, signs) followed by an optional unit (`%`, `deg`).
    static func value(_ text: Substring) -> Value? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let numeric = t.prefix { "0123456789.eE+-".contains($0) }
        let unit = t.dropFirst(numeric.count)
        guard !numeric.isEmpty, let number = Double(numeric), number.isFinite, !unit.contains(" ") else { return nil }
        return Value(number: number, unit: Substring(unit))
    }

    /// Alpha in 0...1 (a number, or a percentage).
    var alphaValue: Double {
        guard let alpha else { return 1 }
        return max(0, min(1, alpha.unit == "%" ? alpha.number / 100 : alpha.number))
    }

    /// `rgb()`: three numbers out of 255 or three percentages.
    func rgb() -> Color? {
        let units = Set(values.map(\.unit))
        guard units.count == 1, let unit = units.first, unit.isEmpty || unit == "%" else { return nil }
        let scale = unit.isEmpty ? 255.0 : 100.0
        let c = values.map { Color.byte($0.number / scale) }
        return Color(red: c[0], green: c[1], blue: c[2], alpha: alphaValue)
    }

    /// `hsl()`: a hue (a number or degrees) and two percentages, converted as CSS Color 4 does.
    func hsl() -> Color? {
        guard values[0].unit.isEmpty || values[0].unit == "deg", values[1].unit == "%", values[2].unit == "%" else {
            return nil
        }
        let hue = values[0].number.truncatingRemainder(dividingBy: 360)
        let h = (hue < 0 ? hue + 360 : hue) / 360
        let s = max(0, min(100, values[1].number)) / 100
        let l = max(0, min(100, values[2].number)) / 100
        let m2 = l <= 0.5 ? l * (s + 1) : l + s - l * s
        let m1 = l * 2 - m2
        func channel(_ t: Double) -> Double {
            let h = t < 0 ? t + 1 : t > 1 ? t - 1 : t
            if h * 6 < 1 { return m1 + (m2 - m1) * h * 6 }
            if h * 2 < 1 { return m2 }
            if h * 3 < 2 { return m1 + (m2 - m1) * (2.0 / 3 - h) * 6 }
            return m1
        }
        return Color(
            red: Color.byte(channel(h + 1.0 / 3)), green: Color.byte(channel(h)),
            blue: Color.byte(channel(h - 1.0 / 3)),
            alpha: alphaValue)
    }
}
