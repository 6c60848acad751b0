/// `number-format`: numbers as text in a locale, as MapLibre (JavaScript's `Intl.NumberFormat`) writes
/// them, for a documented subset of locales, written out here so that output never depends on the host's
/// ICU data.
///
/// Locales: `en` (1,234.5), `de` (1.234,5), `fr` (1 234,5 with a narrow no-break space), `ja` (1,234.5),
/// and `es`, `it`, `nl` like `de`; any other locale formats as `en`. Currencies: the symbols $ € £ ¥ (￥
/// in Japanese) for USD, EUR, GBP and JPY as CLDR gives them per locale, any other code written as it is;
/// JPY has no fraction digits. Rounding is half away from zero on the decimal digits.
public enum NumberFormat {
    struct Symbols {
        var group: String
        var decimal: String
        /// The currency before the number ("$1.00") or after it with a no-break space ("1,00 €").
        var currencyFirst: Bool
    }

    static func symbols(_ language: String) -> Symbols {
        switch language {
        case "de", "es", "it", "nl": return Symbols(group: ".", decimal: ",", currencyFirst: false)
        case "fr": return Symbols(group: "\u{202F}", decimal: ",", currencyFirst: false)
        default: return Symbols(group: ",", decimal: ".", currencyFirst: true)
        }
    }

    static func currencySymbol(_ code: String, language: String) -> String {
        switch (code, language) {
        case ("USD", "fr"): return "$US"
        case ("GBP", "fr"): return "£GB"
        case ("JPY", "fr"): return "JPY"
        case ("JPY", "ja"): return "￥"
        case ("USD", _): return "$"
        case ("EUR", _): return "€"
        case ("GBP", _): return "£"
        case ("JPY", _): return "¥"
        default: return code
        }
    }

    /// Formats `value`.
    ///
    /// - Parameters:
    ///   - locale: a BCP 47 tag ("de", "fr-FR", "ja-JP"); only the language is used.
    ///   - currency: an ISO 4217 code; the number is then written as an amount.
    ///   - minFractionDigits: at least this many digits after the decimal separator (0...20).
    ///   - maxFractionDigits: at most this many (0...20), rounded half away from zero.
    public static func format(
        _ value: Double, locale: String? = nil, currency: String? = nil, minFractionDigits: Double? = nil,
        maxFractionDigits: Double? = nil
    ) -> String {
        let language =
            (locale ?? "en").split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map {
                $0.lowercased()
            } ?? "en"
        let symbols = symbols(language)
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let code = currency?.uppercased()
        let currencyDigits = code == "JPY" ? 0 : 2
        var minDigits = code == nil ? 0 : currencyDigits
        var maxDigits = code == nil ? 3 : currencyDigits
        func digits(_ d: Double?) -> Int? {
            guard let d, d.isFinite else { return nil }
            return Int(max(0, min(20, d.rounded(.down))))
        }
        if let m = digits(minFractionDigits) {
            minDigits = m
            maxDigits = max(maxDigits, m)
        }
        if let m = digits(maxFractionDigits) {
            maxDigits = m
            minDigits = min(minDigits, m)
        }
        let (integer, fraction) = rounded(abs(value), fractionDigits: maxDigits)
        var fractionText = fraction
        while fractionText.count > minDigits, fractionText.last == "0" { fractionText.removeLast() }
        var grouped = ""
        for (i, c) in integer.enumerated() {
            if i > 0, (integer.count - i) % 3 == 0 { grouped += symbols.group }
            grouped.append(c)
        }
        var number = grouped + (fractionText.isEmpty ? "" : symbols.decimal + fractionText)
        let isZero = integer.allSatisfy { $0 == "0" } && fractionText.allSatisfy { $0 == "0" }
        let sign = value < 0 && !isZero ? "-" : ""
        if let code {
            let symbol = currencySymbol(code, language: language)
            let isCode = symbol.count == 3 && symbol.allSatisfy(\.isLetter)
            if symbols.currencyFirst {
                number = symbol + (isCode ? "\u{00A0}" : "") + number
            } else {
                number = number + "\u{00A0}" + symbol
            }
        }
        return sign + number
    }

    /// The integer and fraction digits of a non-negative `value` rounded to `fractionDigits` digits, half
    /// away from zero, on the shortest decimal form that reads back as `value`.
    static func rounded(_ value: Double, fractionDigits: Int) -> (integer: String, fraction: String) {
        // Shortest round-trip digits and decimal exponent: value = 0.d1d2d3... x 10^exponent.
        let text = "\(value)"
        let parts = text.lowercased().split(separator: "e", maxSplits: 1)
        let mantissa = String(parts[0])
        let power = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(pieces[0])
        let frac = pieces.count > 1 ? String(pieces[1]) : ""
        var digits = Array((whole + frac).utf8).map { Int($0) - 48 }
        var pointIndex = whole.count + power  // digits before the decimal point
        while digits.count > 1, digits.first == 0, pointIndex > 1 {
            digits.removeFirst()
            pointIndex -= 1
        }
        if pointIndex < 0 {
            digits = Array(repeating: 0, count: -pointIndex) + digits
            pointIndex = 0
        }
        while digits.count < pointIndex + fractionDigits + 1 { digits.append(0) }
        // Round at pointIndex + fractionDigits.
        let keep = pointIndex + fractionDigits
        let roundUp = digits[keep] >= 5
        digits = Array(digits[..<keep])
        if roundUp {
            var i = digits.count - 1
            var carry = true
            while carry, i >= 0 {
                digits[i] += 1
                if digits[i] == 10 {
                    digits[i] = 0
                    i -= 1
                } else {
                    carry = false
                }
            }
            if carry {
                digits.insert(1, at: 0)
                pointIndex += 1
            }
        }
        let integerDigits = digits[..<pointIndex].map(String.init).joined()
        let fractionPart = digits[pointIndex...].map(String.init).joined()
        return (integerDigits.isEmpty ? "0" : integerDigits, fractionPart)
    }
}
