/// The kinds of style layer this version draws. Mirrors the MapLibre style specification's layer types.
public enum StyleLayerType: String, Sendable, CaseIterable {
    case background, fill, line, circle, symbol, raster

    /// The paint and layout properties a layer of this type accepts.
    public var properties: [StylePropertySpec] { Self.tables[self]! }

    /// The property named `name` of this type, or nil.
    public func property(named name: String) -> StylePropertySpec? { Self.byName[self]![name] }

    private static let tables: [StyleLayerType: [StylePropertySpec]] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, $0.makeProperties()) })
    private static let byName: [StyleLayerType: [String: StylePropertySpec]] = Dictionary(
        uniqueKeysWithValues: allCases.map { type in
            (type, Dictionary(uniqueKeysWithValues: type.makeProperties().map { ($0.name, $0) }))
        })

    private func makeProperties() -> [StylePropertySpec] {
        let visibility = StylePropertySpec(
            "visibility", .layout, .enumeration(["visible", "none"]), .string("visible"))
        switch self {
        case .background:
            return [
                visibility,
                .init("background-color", .paint, .color, .color(.black)),
                .init("background-opacity", .paint, .number, .number(1)),
            ]
        case .fill:
            return [
                visibility,
                .init("fill-color", .paint, .color, .color(.black)),
                .init("fill-opacity", .paint, .number, .number(1)),
                .init("fill-outline-color", .paint, .color, .null),
                .init("fill-sort-key", .layout, .number, .null),
            ]
        case .line:
            return [
                visibility,
                .init("line-color", .paint, .color, .color(.black)),
                .init("line-width", .paint, .number, .number(1)),
                .init("line-opacity", .paint, .number, .number(1)),
                .init("line-dasharray", .paint, .numberArray, .null),
                .init("line-gap-width", .paint, .number, .number(0)),
                .init("line-cap", .layout, .enumeration(["butt", "round", "square"]), .string("butt")),
                .init("line-join", .layout, .enumeration(["bevel", "round", "miter"]), .string("miter")),
                .init("line-miter-limit", .layout, .number, .number(2)),
                .init("line-sort-key", .layout, .number, .null),
            ]
        case .circle:
            return [
                visibility,
                .init("circle-radius", .paint, .number, .number(5)),
                .init("circle-color", .paint, .color, .color(.black)),
                .init("circle-opacity", .paint, .number, .number(1)),
                .init("circle-stroke-width", .paint, .number, .number(0)),
                .init("circle-stroke-color", .paint, .color, .color(.black)),
                .init("circle-stroke-opacity", .paint, .number, .number(1)),
                .init("circle-sort-key", .layout, .number, .null),
            ]
        case .symbol:
            return [
                visibility,
                .init("text-field", .layout, .string, .string("")),
                .init("text-font", .layout, .stringArray, .array([.string("DejaVu Sans")])),
                .init("text-size", .layout, .number, .number(16)),
                .init(
                    "text-anchor", .layout,
                    .enumeration([
                        "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left",
                        "bottom-right",
                    ]), .string("center")),
                .init("text-offset", .layout, .numberArray, .array([.number(0), .number(0)])),
                .init("text-max-width", .layout, .number, .number(10)),
                .init("text-line-height", .layout, .number, .number(1.2)),
                .init("text-transform", .layout, .enumeration(["none", "uppercase", "lowercase"]), .string("none")),
                .init("symbol-placement", .layout, .enumeration(["point", "line"]), .string("point")),
                .init("symbol-sort-key", .layout, .number, .null),
                .init("symbol-spacing", .layout, .number, .number(250)),
                .init("text-allow-overlap", .layout, .boolean, .bool(false)),
                .init("text-padding", .layout, .number, .number(2)),
                .init("text-max-angle", .layout, .number, .number(45)),
                .init("text-color", .paint, .color, .color(.black)),
                .init("text-halo-color", .paint, .color, .color(.clear)),
                .init("text-halo-width", .paint, .number, .number(0)),
                .init("text-opacity", .paint, .number, .number(1)),
            ]
        case .raster:
            return [visibility, .init("raster-opacity", .paint, .number, .number(1))]
        }
    }
}

/// One paint or layout property a layer type accepts: its name, group, value kind and default.
public struct StylePropertySpec: Sendable, Equatable {
    /// Where the property is written.
    public enum Group: String, Sendable {
        case paint, layout
    }
    /// What values the property takes.
    public enum Kind: Sendable, Equatable {
        case number, color, string, boolean, numberArray, stringArray
        case enumeration([String])

        var name: String {
            switch self {
            case .number: return "a number"
            case .color: return "a color string"
            case .string: return "a string"
            case .boolean: return "true or false"
            case .numberArray: return "an array of numbers"
            case .stringArray: return "an array of strings"
            case .enumeration(let values): return "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
            }
        }
    }

    /// The property's name, such as `fill-color`.
    public var name: String
    /// `paint` or `layout`.
    public var group: Group
    /// The values it takes.
    public var kind: Kind
    /// The value when the style does not set the property (null: not drawn).
    public var defaultValue: StyleValue

    /// Creates a property description.
    public init(_ name: String, _ group: Group, _ kind: Kind, _ defaultValue: StyleValue) {
        self.name = name
        self.group = group
        self.kind = kind
        self.defaultValue = defaultValue
    }

    /// Whether a value fits the kind; colors given as strings are accepted when they parse.
    func accepts(_ value: StyleValue) -> Bool {
        switch (kind, value) {
        case (_, .null): return true
        case (.number, .number), (.string, .string), (.boolean, .bool), (.color, .color): return true
        case (.string, .number): return true
        case (.color, .string(let s)): return (try? Color(parsing: s)) != nil
        case (.numberArray, .array(let items)): return items.allSatisfy { $0.number != nil }
        case (.stringArray, .array(let items)): return items.allSatisfy { $0.string != nil }
        case (.enumeration(let values), .string(let s)): return values.contains(s)
        default: return false
        }
    }
}
