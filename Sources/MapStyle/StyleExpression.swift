import Foundation

/// A style expression: a literal, a feature property look-up, a comparison, a decision or a zoom
/// function.
///
/// Decoded from the MapLibre expression syntax (`["get", "name"]`, `["interpolate", ["linear"],
/// ["zoom"], 2, 1, 8, 3]`), from legacy filters (`["==", "class", "river"]`) and from legacy zoom
/// functions (`{"stops": [[2, 1], [8, 3]]}`); see ``StyleExpression/decode(_:path:)``.
public indirect enum StyleExpression: Sendable, Equatable {
    /// A constant.
    case literal(StyleValue)
    /// A feature property, or null when the feature has none (`get`).
    case get(String)
    /// Whether the feature has a property (`has`).
    case has(String)
    /// The zoom level (`zoom`).
    case zoom
    /// How far along its line a point is, 0 at the start and 1 at the end (`line-progress`, in
    /// `line-gradient`).
    case lineProgress
    /// The feature's geometry type: `Point`, `LineString` or `Polygon` (`geometry-type`, `$type`).
    case geometryType
    /// The feature's id: its GeoJSON or vector-tile id, or the property a source's `promoteId` names;
    /// null when it has none (`id`, `$id` in legacy filters).
    case featureID
    /// A comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`).
    case compare(ComparisonOperator, StyleExpression, StyleExpression)
    /// Whether a value is one of a list (`in`; negated for legacy `!in`).
    case isIn(StyleExpression, [StyleValue], negated: Bool)
    /// True when every operand is (`all`).
    case all([StyleExpression])
    /// True when some operand is (`any`).
    case any([StyleExpression])
    /// Negation (`!`).
    case not(StyleExpression)
    /// The output of the first label list containing the input, else the fallback (`match`).
    case match(StyleExpression, [MatchBranch], fallback: StyleExpression)
    /// The output of the first true condition, else the fallback (`case`).
    case cond([CaseBranch], fallback: StyleExpression)
    /// The first operand that is not null (`coalesce`).
    case coalesce([StyleExpression])
    /// Interpolation between stops (`interpolate`, legacy `stops` on numbers and colors).
    case interpolate(Interpolation, StyleExpression, [Stop])
    /// Interpolation of colors in another color space than RGB (`interpolate-hcl`, `interpolate-lab`,
    /// legacy `"colorSpace"`); numbers interpolate as with ``interpolate(_:_:_:)``.
    case interpolateIn(ColorSpace, Interpolation, StyleExpression, [Stop])
    /// Piecewise constant stops (`step`, legacy `stops` on other values).
    case step(StyleExpression, base: StyleExpression, [Stop])
    /// Text of the operands joined (`concat`).
    case concat([StyleExpression])
    /// Text conversions (`to-string`, `upcase`, `downcase`).
    case text(TextFunction, StyleExpression)
    /// Conversion to a number, or the fallback (`to-number`).
    case toNumber(StyleExpression)
    /// Arithmetic (`+`, `-`, `*`, `/`).
    case arithmetic(ArithmeticOperator, [StyleExpression])
    /// The first operand of a type, else null (`string`, `number`, `boolean`: MapLibre's type assertions,
    /// which fail the evaluation, so the property's default applies).
    case assert(TypeAssertion, [StyleExpression])

    /// Formatted text (`format`): sections of text with their own `font-scale`, `text-font` and
    /// `text-color`.
    case format([FormatSection])
    /// A number as text in a locale (`number-format`).
    case numberFormat(StyleExpression, NumberFormatOptions)
    /// A collator (`collator`): case and diacritic sensitivity and a locale.
    case collator(caseSensitive: StyleExpression, diacriticSensitive: StyleExpression, locale: StyleExpression?)
    /// A string comparison with a collator (`==`, `<`, ... with a third operand).
    case compareCollated(ComparisonOperator, StyleExpression, StyleExpression, collator: StyleExpression)
    /// The locale a collator uses (`resolved-locale`).
    case resolvedLocale(StyleExpression)
    /// Whether the text's scripts can be drawn (`is-supported-script`).
    case isSupportedScript(StyleExpression)
    /// `["image", name]`: the image's name (for `icon-image`); in `coalesce`, an image the context's
    /// ``EvaluationContext/availableImages`` lacks is skipped, as MapLibre's `coalesce` skips images it
    /// does not have.
    case image(StyleExpression)
    /// A function of the operands' values: math, strings and arrays, types, colors, properties (see
    /// ``Function``).
    case call(Function, [StyleExpression])
    /// `["array", value]`, `["array", type, value...]`, `["array", type, length, value...]`: the first value
    /// that is an array of that item type (`string`, `number`, `boolean`, `value`: any) and length, else null.
    case assertArray(itemType: String?, length: Int?, [StyleExpression])
    /// `let`: values bound to names (evaluated once), then the body, in which `var` reads them.
    case bind([String], [StyleExpression], StyleExpression)
    /// `var`: the value the innermost enclosing `let` bound to the name.
    case variable(String)
    /// `within`: whether the feature (a point or line feature) lies inside the polygons.
    case within(WithinRegion)

    /// One section of a `format` expression.
    public struct FormatSection: Sendable, Equatable {
        /// The section's content (text, a number, or nested formatted text).
        public var content: StyleExpression
        /// `font-scale`.
        public var scale: StyleExpression?
        /// `text-font`.
        public var font: StyleExpression?
        /// `text-color`.
        public var color: StyleExpression?
        /// Creates a section.
        public init(
            content: StyleExpression, scale: StyleExpression? = nil, font: StyleExpression? = nil,
            color: StyleExpression? = nil
        ) {
            self.content = content
            self.scale = scale
            self.font = font
            self.color = color
        }
    }

    /// The options of `number-format`.
    public struct NumberFormatOptions: Sendable, Equatable {
        /// `locale`: a BCP 47 tag.
        public var locale: StyleExpression?
        /// `currency`: an ISO 4217 code.
        public var currency: StyleExpression?
        /// `min-fraction-digits`.
        public var minFractionDigits: StyleExpression?
        /// `max-fraction-digits`.
        public var maxFractionDigits: StyleExpression?
        /// Creates options.
        public init(
            locale: StyleExpression? = nil, currency: StyleExpression? = nil,
            minFractionDigits: StyleExpression? = nil, maxFractionDigits: StyleExpression? = nil
        ) {
            self.locale = locale
            self.currency = currency
            self.minFractionDigits = minFractionDigits
            self.maxFractionDigits = maxFractionDigits
        }
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    public enum ComparisonOperator: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }
    /// `+`, `-`, `*`, `/`.
    public enum ArithmeticOperator: String, Sendable, CaseIterable {
        case plus = "+", minus = "-", times = "*", divide = "/"
    }
    /// `to-string`, `upcase`, `downcase`.
    public enum TextFunction: String, Sendable, CaseIterable {
        case toString = "to-string", upcase, downcase
    }
    /// `string`, `number`, `boolean`, `object`, and `to-color` (the first operand that is a color, a CSS color
    /// string or an `[r, g, b]` / `[r, g, b, a]` array, 0...255 and alpha 0...1).
    public enum TypeAssertion: String, Sendable, CaseIterable {
        case string, number, boolean, object
        case toColor = "to-color"
    }
    /// CIE L*a*b* and its polar form HCL (hue, chroma, lightness), D65 white, as MapLibre and d3 define
    /// them.
    public enum ColorSpace: String, Sendable, CaseIterable {
        case lab, hcl
    }
    /// How `interpolate` blends between stops.
    public enum Interpolation: Sendable, Equatable {
        case linear
        /// Exponential with a base: values change faster at the high end when `base` > 1.
        case exponential(Double)
        /// `["cubic-bezier", x1, y1, x2, y2]`: the linear factor eased along a ``UnitBezier``.
        case cubicBezier(UnitBezier)
    }
    /// One input value and its output.
    public struct Stop: Sendable, Equatable {
        /// The input value (a zoom level or a property value).
        public var input: Double
        /// The output at and from that input.
        public var output: StyleExpression
        /// Creates a stop.
        public init(input: Double, output: StyleExpression) {
            self.input = input
            self.output = output
        }
    }
    /// `match` labels and their output.
    public struct MatchBranch: Sendable, Equatable {
        /// The values that select this branch.
        public var labels: [StyleValue]
        /// The branch's output.
        public var output: StyleExpression
        /// Creates a branch.
        public init(labels: [StyleValue], output: StyleExpression) {
            self.labels = labels
            self.output = output
        }
    }
    /// A `case` condition and its output.
    public struct CaseBranch: Sendable, Equatable {
        /// The condition.
        public var condition: StyleExpression
        /// The output when the condition is true.
        public var output: StyleExpression
        /// Creates a branch.
        public init(condition: StyleExpression, output: StyleExpression) {
            self.condition = condition
            self.output = output
        }
    }
}
