import MapData
import MapGeometry

/// One layer of a style: what to draw (type), from which source, at which zooms, for which features,
/// and how. Mirrors a layer of the MapLibre style specification.
public struct StyleLayer: Sendable, Equatable {
    /// The layer's unique id.
    public var id: String
    /// What the layer draws.
    public var type: StyleLayerType { didSet { specs = type.propertiesByIndex ?? [] } }
    /// The source's id; nil only for `background`.
    public var source: String?
    /// The layer of a vector source the features come from (`source-layer`).
    public var sourceLayer: String?
    /// The layer is drawn from this zoom level on.
    public var minZoom: Double?
    /// The layer is drawn below this zoom level.
    public var maxZoom: Double?
    /// Which features are drawn; nil draws every feature.
    public var filter: StyleProperty?
    /// Paint and layout properties by name.
    public var properties: [String: StyleProperty] { didSet { expressions = Self.expressions(of: properties) } }
    /// The expressions of ``properties`` by ``StylePropertyName/index`` (nil where unset; empty when the names'
    /// tags are not their indices): read for every property of every feature drawn, without hashing a name.
    private var expressions: [StyleExpression?]
    /// The type's property specs by ``StylePropertyName/index`` (the type's shared table; empty as
    /// ``expressions`` may be).
    private var specs: [StylePropertySpec?]
    /// `metadata`, kept as written.
    public var metadata: JSONValue?

    /// Creates a layer.
    public init(
        id: String, type: StyleLayerType, source: String? = nil, minZoom: Double? = nil, maxZoom: Double? = nil,
        filter: StyleProperty? = nil, properties: [String: StyleProperty] = [:], metadata: JSONValue? = nil
    ) {
        self.id = id
        self.type = type
        self.source = source
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.filter = filter
        self.properties = properties
        self.expressions = Self.expressions(of: properties)
        self.specs = type.propertiesByIndex ?? []
        self.metadata = metadata
    }

    private static func expressions(of properties: [String: StyleProperty]) -> [StyleExpression?] {
        guard StylePropertyName.allCases.first?.index != nil else { return [] }
        var table = [StyleExpression?](repeating: nil, count: StylePropertyName.allCases.count)
        for (name, property) in properties {
            if let index = StylePropertyName(rawValue: name)?.index, index < table.count {
                table[index] = property.expression
            }
        }
        return table
    }

    /// The expression of property `key`, nil when unset.
    @inline(__always)
    private func expression(_ key: StylePropertyName) -> StyleExpression? {
        if let index = key.index, index < expressions.count { return expressions[index] }
        return properties[key.rawValue]?.expression
    }

    /// Whether the layer is drawn at a zoom level.
    public func isVisible(atZoom zoom: Double) -> Bool {
        if let minZoom, zoom < minZoom { return false }
        if let maxZoom, zoom >= maxZoom { return false }
        if let v = properties["visibility"], v.expression == .literal(.string("none")) { return false }
        return true
    }

    /// The spec of a property of this layer's type, by the name written in a style file.
    public func spec(_ name: String) -> StylePropertySpec? { type.property(named: name) }

    /// A property's value for a feature, or its default when unset or of the wrong type.
    ///
    /// `text-field` is where a label's text enters drawing: text over ``TextLimit/maximumBytes`` is cut there
    /// (one warning per process).
    public func value(_ key: StylePropertyName, _ context: EvaluationContext) -> StyleValue {
        let v = withSpec(key) { Self.value(expression(key), spec: $0, context) }
        return key == .textField ? Self.limited(v) : v
    }

    /// `body` given the spec of property `key` where it lies: a spec is several arrays and values, and every read
    /// of a property needs it (a copy of it costs more than the rest of reading a constant).
    @inline(__always)
    private func withSpec<R>(_ key: StylePropertyName, _ body: (UnsafePointer<StylePropertySpec?>) -> R) -> R {
        if let index = key.index, index < specs.count {
            return specs.withUnsafeBufferPointer { body($0.baseAddress.unsafelyUnwrapped + index) }
        }
        return withUnsafePointer(to: type.property(key)) { body($0) }
    }

    /// A `text-field` value within ``TextLimit/maximumBytes`` (sections counted together).
    static func limited(_ value: StyleValue) -> StyleValue {
        switch value {
        case .string(let text) where text.utf8.count > TextLimit.maximumBytes:
            return .string(TextLimit.cut(text, what: "label text (text-field)"))
        case .formatted(let sections)
        where sections.reduce(0, { $0 + $1.text.utf8.count }) > TextLimit.maximumBytes:
            var room = TextLimit.maximumBytes
            var kept: [FormattedSection] = []
            for var section in sections where room > 0 {
                if section.text.utf8.count > room {
                    section.text = TextLimit.cut(section.text, what: "label text (text-field)", limit: room)
                }
                room -= section.text.utf8.count
                kept.append(section)
            }
            return .formatted(kept)
        default: return value
        }
    }

    /// The value of `expression` (nil: unset) for a property of `spec`, or its default.
    static func value(_ expression: StyleExpression?, spec: StylePropertySpec?, _ context: EvaluationContext)
        -> StyleValue
    {
        withUnsafePointer(to: spec) { value(expression, spec: $0, context) }
    }

    /// ``value(_:spec:_:)`` with the spec read where it lies.
    @inline(__always)
    static func value(
        _ expression: StyleExpression?, spec: UnsafePointer<StylePropertySpec?>, _ context: EvaluationContext
    ) -> StyleValue {
        guard let expression else { return spec.pointee?.defaultValue ?? .null }
        let v = expression.evaluate(context)
        if v.isNull || spec.pointee?.accepts(v) == false, let fallback = spec.pointee?.defaultValue { return fallback }
        return v
    }

    /// Whether the style sets the property (otherwise its default applies).
    public func isSet(_ key: StylePropertyName) -> Bool { expression(key) != nil }

    /// A number property, within the property's documented range (``StyleLimits``).
    ///
    /// Widths (``StyleLimits/widthProperties``) are also capped at the context's
    /// ``EvaluationContext/maximumWidth``, the drawn image's ceiling: every width a renderer reads passes here.
    public func number(_ key: StylePropertyName, _ context: EvaluationContext) -> Double {
        let v = value(key, context)
        let clamped = withSpec(key) { Self.unclampedNumber(v, spec: $0) }
        guard StyleLimits.isWidth(key), context.maximumWidth >= 0 else { return clamped }
        return min(clamped, context.maximumWidth)
    }

    /// A number property's value within its range, before widths are capped.
    static func unclampedNumber(_ value: StyleValue, spec: StylePropertySpec?) -> Double {
        withUnsafePointer(to: spec) { unclampedNumber(value, spec: $0) }
    }

    /// ``unclampedNumber(_:spec:)`` with the spec read where it lies.
    @inline(__always)
    static func unclampedNumber(_ value: StyleValue, spec: UnsafePointer<StylePropertySpec?>) -> Double {
        let v = value.number ?? spec.pointee?.defaultValue.number ?? 0
        return spec.pointee?.clamp(v) ?? (v.isFinite ? v : 0)
    }

    /// A number-array property (`line-dasharray`, `text-offset`), each element within the property's
    /// range, at most ``StyleLimits/maximumDashCount`` elements; nil when unset with no default.
    public func numbers(_ key: StylePropertyName, _ context: EvaluationContext) -> [Double]? {
        let v = value(key, context)
        return withSpec(key) { Self.numbers(v, spec: $0.pointee) }
    }

    /// A number-array value as ``numbers(_:_:)`` gives it.
    static func numbers(_ value: StyleValue, spec: StylePropertySpec?) -> [Double]? {
        guard let items = value.array else { return nil }
        return items.prefix(StyleLimits.maximumDashCount).compactMap(\.number).map { spec?.clamp($0) ?? $0 }
    }

    /// A color property; nil when unset with no default.
    public func color(_ key: StylePropertyName, _ context: EvaluationContext) -> Color? {
        value(key, context).color
    }

    /// A string or enumeration property.
    public func string(_ key: StylePropertyName, _ context: EvaluationContext) -> String {
        let v = value(key, context)
        return v.isNull ? "" : v.text
    }

    /// A boolean property.
    public func bool(_ key: StylePropertyName, _ context: EvaluationContext) -> Bool {
        value(key, context) == .bool(true)
    }

    /// Whether the feature passes the filter.
    public func accepts(_ context: EvaluationContext) -> Bool {
        guard let filter else { return true }
        return filter.expression.evaluate(context).isTrue
    }
}
