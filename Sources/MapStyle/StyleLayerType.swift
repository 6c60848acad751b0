import MapGeometry

/// The kinds of style layer this version draws. Mirrors the MapLibre style specification's layer types.
public enum StyleLayerType: String, Sendable, CaseIterable {
    case background, fill, line, circle, symbol, raster
    case fillExtrusion = "fill-extrusion"

    /// The paint and layout properties a layer of this type accepts.
    public var properties: [StylePropertySpec] { Self.tables[self]! }

    /// The property named `name` of this type, or nil.
    public func property(named name: String) -> StylePropertySpec? { Self.byName[self]![name] }

    /// The type's `*-sort-key` property, if it has one.
    public var sortKey: StylePropertyName? {
        switch self {
        case .fill: return .fillSortKey
        case .line: return .lineSortKey
        case .circle: return .circleSortKey
        case .symbol: return .symbolSortKey
        case .background, .raster, .fillExtrusion: return nil
        }
    }

    /// The property `key` of this type, or nil when this type has no such property.
    public func property(_ key: StylePropertyName) -> StylePropertySpec? {
        // Read for every property of every feature drawn: two String-hashed dictionary lookups were 7 % of a
        // warm street view's instructions; the table is indexed by the cases' positions instead.
        guard let index = key.index, let table = Self.byIndex else { return Self.byName[self]![key.rawValue] }
        return table[position][index]
    }

    /// This type's properties by ``StylePropertyName/index`` (nil where the type has none), or nil when the
    /// names' tags are not their indices.
    var propertiesByIndex: [StylePropertySpec?]? { Self.byIndex?[position] }

    /// The case's position in ``allCases``.
    private var position: Int {
        switch self {
        case .background: return 0
        case .fill: return 1
        case .line: return 2
        case .circle: return 3
        case .symbol: return 4
        case .raster: return 5
        case .fillExtrusion: return 6
        }
    }

    /// Per type (by ``position``), per property (by ``StylePropertyName/index``); nil if the positions are
    /// not those of ``allCases``.
    private static let byIndex: [[StylePropertySpec?]]? = {
        guard allCases.enumerated().allSatisfy({ $0.element.position == $0.offset }),
            StylePropertyName.allCases.enumerated().allSatisfy({ $0.element.index == $0.offset })
        else { return nil }
        return allCases.map { type in StylePropertyName.allCases.map { type.property(named: $0.rawValue) } }
    }()

    private static let tables: [StyleLayerType: [StylePropertySpec]] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, $0.makeProperties()) })
    private static let byName: [StyleLayerType: [String: StylePropertySpec]] = Dictionary(
        uniqueKeysWithValues: allCases.map { type in
            (type, Dictionary(uniqueKeysWithValues: type.makeProperties().map { ($0.name, $0) }))
        })

    private func makeProperties() -> [StylePropertySpec] {
        let zeroPair = StyleValue.array([.number(0), .number(0)])
        let translateRange = -StyleLimits.maximumTranslate...StyleLimits.maximumTranslate
        let visibility = StylePropertySpec(
            .visibility, .layout, .enumeration(["visible", "none"]), .string("visible"))
        switch self {
        case .background:
            return [
                visibility,
                .init(.backgroundColor, .paint, .color, .color(.black)),
                .init(.backgroundOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.backgroundPattern, .paint, .string, .null),
            ]
        case .fill:
            return [
                visibility,
                .init(.fillColor, .paint, .color, .color(.black)),
                .init(.fillOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.fillOutlineColor, .paint, .color, .null),
                .init(.fillAntialias, .paint, .boolean, .bool(true)),
                .init(.fillPattern, .paint, .string, .null),
                .init(.fillTranslate, .paint, .numberArray, zeroPair, range: translateRange),
                .init(.fillTranslateAnchor, .paint, .enumeration(["map", "viewport"]), .string("map")),
                .init(.fillSortKey, .layout, .number, .null, range: StyleLimits.sortKeys),
            ]
        case .line:
            return [
                visibility,
                .init(.lineColor, .paint, .color, .color(.black)),
                .init(.lineWidth, .paint, .number, .number(1), range: 0...StyleLimits.maximumWidth),
                .init(.lineOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.lineDasharray, .paint, .numberArray, .null, range: 0...StyleLimits.maximumWidth),
                .init(.lineGapWidth, .paint, .number, .number(0), range: 0...StyleLimits.maximumWidth),
                .init(.lineCap, .layout, .enumeration(["butt", "round", "square"]), .string("butt")),
                .init(.lineJoin, .layout, .enumeration(["bevel", "round", "miter"]), .string("miter")),
                .init(.lineMiterLimit, .layout, .number, .number(2), range: 0...1000),
                .init(.lineGradient, .paint, .color, .null),
                .init(.linePattern, .paint, .string, .null),
                .init(.lineRoundLimit, .layout, .number, .number(1.05), range: 0...1000),
                .init(
                    .lineOffset, .paint, .number, .number(0),
                    range: -StyleLimits.maximumWidth...StyleLimits.maximumWidth),
                .init(.lineBlur, .paint, .number, .number(0), range: 0...StyleLimits.maximumWidth),
                .init(.lineTranslate, .paint, .numberArray, zeroPair, range: translateRange),
                .init(.lineTranslateAnchor, .paint, .enumeration(["map", "viewport"]), .string("map")),
                .init(.lineSortKey, .layout, .number, .null, range: StyleLimits.sortKeys),
            ]
        case .circle:
            return [
                visibility,
                .init(.circleRadius, .paint, .number, .number(5), range: 0...StyleLimits.maximumWidth),
                .init(.circleColor, .paint, .color, .color(.black)),
                .init(.circleOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.circleStrokeWidth, .paint, .number, .number(0), range: 0...StyleLimits.maximumWidth),
                .init(.circleStrokeColor, .paint, .color, .color(.black)),
                .init(.circleStrokeOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.circleBlur, .paint, .number, .number(0), range: -1...StyleLimits.maximumWidth),
                .init(.circleTranslate, .paint, .numberArray, zeroPair, range: translateRange),
                .init(.circleTranslateAnchor, .paint, .enumeration(["map", "viewport"]), .string("map")),
                .init(.circlePitchScale, .paint, .enumeration(["map", "viewport"]), .string("map")),
                .init(.circlePitchAlignment, .paint, .enumeration(["map", "viewport"]), .string("viewport")),
                .init(.circleSortKey, .layout, .number, .null, range: StyleLimits.sortKeys),
            ]
        case .symbol:
            return [
                visibility,
                .init(.textField, .layout, .string, .string("")),
                .init(.textFont, .layout, .stringArray, .array([.string("DejaVu Sans")])),
                .init(.textSize, .layout, .number, .number(16), range: 0...StyleLimits.maximumTextSize),
                .init(
                    .textAnchor, .layout,
                    .enumeration([
                        "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left",
                        "bottom-right",
                    ]), .string("center")),
                .init(
                    .textOffset, .layout, .numberArray, .array([.number(0), .number(0)]),
                    range: -StyleLimits.maximumOffset...StyleLimits.maximumOffset),
                .init(.textMaxWidth, .layout, .number, .number(10), range: 0...1000),
                .init(.textLineHeight, .layout, .number, .number(1.2), range: 0...100),
                .init(.textTransform, .layout, .enumeration(["none", "uppercase", "lowercase"]), .string("none")),
                .init(.symbolPlacement, .layout, .enumeration(["point", "line", "line-center"]), .string("point")),
                .init(.symbolSortKey, .layout, .number, .null, range: StyleLimits.sortKeys),
                .init(.symbolSpacing, .layout, .number, .number(250), range: 1...100_000),
                .init(.textAllowOverlap, .layout, .boolean, .bool(false)),
                .init(.textPadding, .layout, .number, .number(2), range: 0...1000),
                .init(.textMaxAngle, .layout, .number, .number(45), range: 0...360),
                .init(.textColor, .paint, .color, .color(.black)),
                .init(.textHaloColor, .paint, .color, .color(.clear)),
                .init(.textHaloWidth, .paint, .number, .number(0), range: 0...StyleLimits.maximumHaloWidth),
                .init(.textOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.textHaloBlur, .paint, .number, .number(0), range: 0...StyleLimits.maximumHaloWidth),
                .init(.textOptional, .layout, .boolean, .bool(false)),
                .init(.textVariableAnchor, .layout, .stringArray, .null),
                .init(
                    .textRadialOffset, .layout, .number, .number(0),
                    range: -StyleLimits.maximumOffset...StyleLimits.maximumOffset),
                .init(.textJustify, .layout, .enumeration(["auto", "left", "center", "right"]), .string("center")),
                .init(.textLetterSpacing, .layout, .number, .number(0), range: -100...100),
                .init(
                    .textRotate, .layout, .number, .number(0),
                    range: -StyleLimits.maximumAngle...StyleLimits.maximumAngle),
                .init(.textKeepUpright, .layout, .boolean, .bool(true)),
                .init(.textIgnorePlacement, .layout, .boolean, .bool(false)),
                .init(.textWritingMode, .layout, .stringArray, .null),
                .init(.textOverlap, .layout, .enumeration(["never", "always", "cooperative"]), .null),
                .init(
                    .textRotationAlignment, .layout, .enumeration(["map", "viewport", "auto", "viewport-glyph"]),
                    .string("auto")),
                .init(.textPitchAlignment, .layout, .enumeration(["map", "viewport", "auto"]), .string("auto")),
                .init(
                    .textVariableAnchorOffset, .layout, .variableAnchorOffset, .null,
                    range: -StyleLimits.maximumOffset...StyleLimits.maximumOffset),
                .init(.textTranslate, .paint, .numberArray, zeroPair, range: translateRange),
                .init(.textTranslateAnchor, .paint, .enumeration(["map", "viewport"]), .string("map")),
                .init(.iconImage, .layout, .string, .string("")),
                .init(.iconSize, .layout, .number, .number(1), range: 0...StyleLimits.maximumIconSize),
                .init(
                    .iconRotate, .layout, .number, .number(0),
                    range: -StyleLimits.maximumAngle...StyleLimits.maximumAngle),
                .init(
                    .iconRotationAlignment, .layout, .enumeration(["map", "viewport", "auto"]), .string("auto")),
                .init(.iconPitchAlignment, .layout, .enumeration(["map", "viewport", "auto"]), .string("auto")),
                .init(
                    .iconOffset, .layout, .numberArray, zeroPair,
                    range: -StyleLimits.maximumIconOffset...StyleLimits.maximumIconOffset),
                .init(
                    .iconAnchor, .layout,
                    .enumeration([
                        "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left",
                        "bottom-right",
                    ]), .string("center")),
                .init(.iconPadding, .layout, .padding, .number(2), range: -1000...1000),
                .init(.iconAllowOverlap, .layout, .boolean, .bool(false)),
                .init(.iconIgnorePlacement, .layout, .boolean, .bool(false)),
                .init(.iconOverlap, .layout, .enumeration(["never", "always", "cooperative"]), .null),
                .init(.iconOptional, .layout, .boolean, .bool(false)),
                .init(.iconKeepUpright, .layout, .boolean, .bool(false)),
                .init(.iconTextFit, .layout, .enumeration(["none", "width", "height", "both"]), .string("none")),
                .init(
                    .iconTextFitPadding, .layout, .numberArray,
                    .array([.number(0), .number(0), .number(0), .number(0)]),
                    range: -StyleLimits.maximumIconOffset...StyleLimits.maximumIconOffset),
                .init(.symbolZOrder, .layout, .enumeration(["auto", "viewport-y", "source"]), .string("auto")),
                .init(.symbolAvoidEdges, .layout, .boolean, .bool(false)),
                .init(.iconOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.iconColor, .paint, .color, .color(.black)),
                .init(.iconHaloColor, .paint, .color, .color(.clear)),
                .init(.iconHaloWidth, .paint, .number, .number(0), range: 0...StyleLimits.maximumHaloWidth),
                .init(.iconHaloBlur, .paint, .number, .number(0), range: 0...StyleLimits.maximumHaloWidth),
                .init(.iconTranslate, .paint, .numberArray, zeroPair, range: translateRange),
                .init(.iconTranslateAnchor, .paint, .enumeration(["map", "viewport"]), .string("map")),
            ]
        case .raster:
            return [
                visibility,
                .init(.rasterOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.rasterResampling, .paint, .enumeration(["linear", "nearest"]), .string("linear")),
                .init(.rasterBrightnessMin, .paint, .number, .number(0), range: 0...1),
                .init(.rasterBrightnessMax, .paint, .number, .number(1), range: 0...1),
                .init(.rasterSaturation, .paint, .number, .number(0), range: -1...1),
                .init(.rasterContrast, .paint, .number, .number(0), range: -1...1),
                .init(.rasterHueRotate, .paint, .number, .number(0), range: -360_000...360_000),
                // Accepted and ignored: a static image has no fade-in.
                .init(.rasterFadeDuration, .paint, .number, .number(300), range: 0...1_000_000),
            ]
        case .fillExtrusion:
            let heights = 0...StyleLimits.maximumExtrusionHeight
            return [
                visibility,
                .init(.fillExtrusionOpacity, .paint, .number, .number(1), range: 0...1),
                .init(.fillExtrusionColor, .paint, .color, .color(.black)),
                .init(.fillExtrusionTranslate, .paint, .numberArray, zeroPair, range: translateRange),
                .init(.fillExtrusionTranslateAnchor, .paint, .enumeration(["map", "viewport"]), .string("map")),
                .init(.fillExtrusionPattern, .paint, .string, .null),
                .init(.fillExtrusionHeight, .paint, .number, .number(0), range: heights),
                .init(.fillExtrusionBase, .paint, .number, .number(0), range: heights),
                .init(.fillExtrusionVerticalGradient, .paint, .boolean, .bool(true)),
            ]
        }
    }
}

/// The name of every paint and layout property the style subset supports: typed, so that a misspelt
/// property cannot compile (renderers read `layer.number(.lineWidth, context)`), and one table
/// (``StyleLayerType/properties``) gives each its group, kind, default and range.
public enum StylePropertyName: String, Sendable, CaseIterable {
    /// The case's position in ``allCases``, read from the case's tag (a case-only enum of at most 256
    /// cases is one byte holding its declaration index) without hashing its name; nil if that layout ever
    /// changes (the tables that use it then fall back to lookups by name).
    var index: Int? { Self.tagsAreIndices ? Int(unsafeBitCast(self, to: UInt8.self)) : nil }

    private static let tagsAreIndices =
        MemoryLayout<StylePropertyName>.size == 1
        && allCases.enumerated().allSatisfy { Int(unsafeBitCast($0.element, to: UInt8.self)) == $0.offset }

    case visibility
    case backgroundColor = "background-color"
    case backgroundOpacity = "background-opacity"
    case backgroundPattern = "background-pattern"
    case fillColor = "fill-color"
    case fillOpacity = "fill-opacity"
    case fillOutlineColor = "fill-outline-color"
    case fillSortKey = "fill-sort-key"
    case fillAntialias = "fill-antialias"
    case fillPattern = "fill-pattern"
    case fillTranslate = "fill-translate"
    case fillTranslateAnchor = "fill-translate-anchor"
    case lineColor = "line-color"
    case lineWidth = "line-width"
    case lineOpacity = "line-opacity"
    case lineDasharray = "line-dasharray"
    case lineGapWidth = "line-gap-width"
    case lineCap = "line-cap"
    case lineJoin = "line-join"
    case lineMiterLimit = "line-miter-limit"
    case lineSortKey = "line-sort-key"
    case lineRoundLimit = "line-round-limit"
    case lineGradient = "line-gradient"
    case linePattern = "line-pattern"
    case lineOffset = "line-offset"
    case lineBlur = "line-blur"
    case lineTranslate = "line-translate"
    case lineTranslateAnchor = "line-translate-anchor"
    case circleRadius = "circle-radius"
    case circleColor = "circle-color"
    case circleOpacity = "circle-opacity"
    case circleStrokeWidth = "circle-stroke-width"
    case circleStrokeColor = "circle-stroke-color"
    case circleStrokeOpacity = "circle-stroke-opacity"
    case circleSortKey = "circle-sort-key"
    case circleBlur = "circle-blur"
    case circleTranslate = "circle-translate"
    case circleTranslateAnchor = "circle-translate-anchor"
    case circlePitchScale = "circle-pitch-scale"
    case circlePitchAlignment = "circle-pitch-alignment"
    case textField = "text-field"
    case textFont = "text-font"
    case textSize = "text-size"
    case textAnchor = "text-anchor"
    case textOffset = "text-offset"
    case textMaxWidth = "text-max-width"
    case textLineHeight = "text-line-height"
    case textTransform = "text-transform"
    case symbolPlacement = "symbol-placement"
    case symbolSortKey = "symbol-sort-key"
    case symbolSpacing = "symbol-spacing"
    case textAllowOverlap = "text-allow-overlap"
    case textPadding = "text-padding"
    case textMaxAngle = "text-max-angle"
    case textColor = "text-color"
    case textHaloColor = "text-halo-color"
    case textHaloWidth = "text-halo-width"
    case textOpacity = "text-opacity"
    case textHaloBlur = "text-halo-blur"
    case textOptional = "text-optional"
    case textVariableAnchor = "text-variable-anchor"
    case textRadialOffset = "text-radial-offset"
    case textJustify = "text-justify"
    case textLetterSpacing = "text-letter-spacing"
    case textRotate = "text-rotate"
    case textKeepUpright = "text-keep-upright"
    case textIgnorePlacement = "text-ignore-placement"
    case textWritingMode = "text-writing-mode"
    case textOverlap = "text-overlap"
    case textRotationAlignment = "text-rotation-alignment"
    case textPitchAlignment = "text-pitch-alignment"
    case textVariableAnchorOffset = "text-variable-anchor-offset"
    case textTranslate = "text-translate"
    case textTranslateAnchor = "text-translate-anchor"
    case iconImage = "icon-image"
    case iconSize = "icon-size"
    case iconRotate = "icon-rotate"
    case iconRotationAlignment = "icon-rotation-alignment"
    case iconPitchAlignment = "icon-pitch-alignment"
    case iconOffset = "icon-offset"
    case iconAnchor = "icon-anchor"
    case iconPadding = "icon-padding"
    case iconAllowOverlap = "icon-allow-overlap"
    case iconIgnorePlacement = "icon-ignore-placement"
    case iconOverlap = "icon-overlap"
    case iconOptional = "icon-optional"
    case iconKeepUpright = "icon-keep-upright"
    case iconTextFit = "icon-text-fit"
    case iconTextFitPadding = "icon-text-fit-padding"
    case symbolZOrder = "symbol-z-order"
    case symbolAvoidEdges = "symbol-avoid-edges"
    case iconOpacity = "icon-opacity"
    case iconColor = "icon-color"
    case iconHaloColor = "icon-halo-color"
    case iconHaloWidth = "icon-halo-width"
    case iconHaloBlur = "icon-halo-blur"
    case iconTranslate = "icon-translate"
    case iconTranslateAnchor = "icon-translate-anchor"
    case rasterOpacity = "raster-opacity"
    case rasterResampling = "raster-resampling"
    case rasterBrightnessMin = "raster-brightness-min"
    case rasterBrightnessMax = "raster-brightness-max"
    case rasterSaturation = "raster-saturation"
    case rasterContrast = "raster-contrast"
    case rasterHueRotate = "raster-hue-rotate"
    case rasterFadeDuration = "raster-fade-duration"
    case fillExtrusionOpacity = "fill-extrusion-opacity"
    case fillExtrusionColor = "fill-extrusion-color"
    case fillExtrusionTranslate = "fill-extrusion-translate"
    case fillExtrusionTranslateAnchor = "fill-extrusion-translate-anchor"
    case fillExtrusionPattern = "fill-extrusion-pattern"
    case fillExtrusionHeight = "fill-extrusion-height"
    case fillExtrusionBase = "fill-extrusion-base"
    case fillExtrusionVerticalGradient = "fill-extrusion-vertical-gradient"

    /// The layer type whose table lists the property (nil for `visibility`, which every type has).
    public var layerType: StyleLayerType? {
        if rawValue.hasPrefix("fill-extrusion-") { return .fillExtrusion }
        let prefix = rawValue.prefix { $0 != "-" }
        switch prefix {
        case "background": return .background
        case "fill": return .fill
        case "line": return .line
        case "circle": return .circle
        case "text", "symbol", "icon": return .symbol
        case "raster": return .raster
        default: return nil
        }
    }
}

/// The documented limits of numeric style values: a style cannot ask for more work or memory than an
/// image of its size needs. Values outside a property's range are refused in a style file and clamped
/// when an expression computes them.
public enum StyleLimits {
    /// Line widths, gap widths, circle radii and stroke widths, in points.
    public static let maximumWidth = 1000.0
    /// `fill-extrusion-height` and `-base`, in metres (100 km: above any building or mountain).
    public static let maximumExtrusionHeight = 100_000.0
    /// The properties capped, when drawn, at the image's ceiling (``widthCeiling(width:height:)``).
    public static let widthProperties: Set<StylePropertyName> = [
        .lineWidth, .lineGapWidth, .circleRadius, .circleStrokeWidth,
    ]
    /// Whether `key` is one of ``widthProperties`` (by the key's index, without hashing its name).
    static func isWidth(_ key: StylePropertyName) -> Bool {
        guard let index = key.index else { return widthProperties.contains(key) }
        return widthFlags[index]
    }
    private static let widthFlags = StylePropertyName.allCases.map(widthProperties.contains)
    /// The margin, in points, around an image within which circle centres are drawn.
    public static let circleMargin = 64.0

    /// The largest width drawn in an image of `width` x `height` points: twice the image's diagonal plus
    /// the circle margin, at most ``maximumWidth``.
    ///
    /// A stroke (or gap, or disc) that wide around a line or point within ``circleMargin`` of the image
    /// covers the whole image, so any wider one draws the same pixels there; the cap bounds the work of
    /// stroking (Cairo's cost grows with the width) by the image's size. Features farther outside the
    /// image than the margin are not drawn, as before.
    public static func widthCeiling(width: Double, height: Double) -> Double {
        let diagonal = (width * width + height * height).squareRoot()
        guard diagonal.isFinite else { return maximumWidth }
        return min(maximumWidth, 2 * (diagonal + circleMargin))
    }
    /// Text size in points.
    public static let maximumTextSize = 256.0
    /// `icon-size` (a factor of the image's size).
    public static let maximumIconSize = 100.0
    /// `icon-offset` entries, in points before `icon-size` scales them.
    public static let maximumIconOffset = 10_000.0
    /// Rotations (`icon-rotate`), in degrees.
    public static let maximumAngle = 360_000.0
    /// Text halo width in points.
    public static let maximumHaloWidth = 64.0
    /// Text offsets, in ems.
    public static let maximumOffset = 1000.0
    /// Sort keys (any finite number in this range).
    public static let sortKeys = -1e15...1e15
    /// `*-translate` offsets, in points (each of x and y).
    public static let maximumTranslate = 10_000.0
    /// Entries of a dash array.
    public static let maximumDashCount = 64
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
        /// A number, or 1 to 4 numbers as CSS gives them (all; vertical, horizontal; top, horizontal,
        /// bottom; top, right, bottom, left): MapLibre's `padding` type.
        case padding
        case enumeration([String])
        /// Anchor names each followed by an `[x, y]` offset in ems (`text-variable-anchor-offset`).
        case variableAnchorOffset

        var name: String {
            switch self {
            case .number: return "a number"
            case .color: return "a color string"
            case .string: return "a string"
            case .boolean: return "true or false"
            case .numberArray: return "an array of numbers"
            case .padding: return "a number or an array of 1 to 4 numbers"
            case .stringArray: return "an array of strings"
            case .variableAnchorOffset: return "anchor names each followed by an [x, y] offset"
            case .enumeration(let values): return "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
            }
        }
    }

    /// The property's key.
    public var key: StylePropertyName
    /// The property's name, such as `fill-color`.
    public var name: String { key.rawValue }
    /// `paint` or `layout`.
    public var group: Group
    /// The values it takes.
    public var kind: Kind
    /// The value when the style does not set the property (null: not drawn).
    public var defaultValue: StyleValue
    /// The range of a number (each element of a number array); nil for other kinds.
    public var range: ClosedRange<Double>?

    /// Creates a property description.
    public init(
        _ key: StylePropertyName, _ group: Group, _ kind: Kind, _ defaultValue: StyleValue,
        range: ClosedRange<Double>? = nil
    ) {
        self.key = key
        self.group = group
        self.kind = kind
        self.defaultValue = defaultValue
        self.range = range
    }

    /// A number moved into the range (a non-finite number becomes the default, or the range's lower end).
    public func clamp(_ v: Double) -> Double {
        guard let range else { return v.isFinite ? v : (defaultValue.number ?? 0) }
        guard v.isFinite else { return defaultValue.number ?? range.lowerBound }
        return min(max(v, range.lowerBound), range.upperBound)
    }

    /// Whether a value fits the kind; colors given as strings are accepted when they parse.
    func accepts(_ value: StyleValue) -> Bool {
        switch (kind, value) {
        case (_, .null): return true
        case (.number, .number), (.string, .string), (.boolean, .bool), (.color, .color): return true
        case (.string, .number), (.string, .formatted): return true
        case (.color, .string(let s)): return (try? Color(parsing: s)) != nil
        case (.numberArray, .array(let items)): return items.allSatisfy { $0.number != nil }
        case (.padding, .number): return true
        case (.padding, .array(let items)):
            return (1...4).contains(items.count) && items.allSatisfy { $0.number != nil }
        case (.stringArray, .array(let items)): return items.allSatisfy { $0.string != nil }
        case (.variableAnchorOffset, .array(let items)):
            let anchors: Set<String> = [
                "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right",
            ]
            return items.count % 2 == 0 && items.count <= 18
                && stride(from: 0, to: items.count, by: 2).allSatisfy { i in
                    items[i].string.map(anchors.contains) == true && items[i + 1].array?.count == 2
                        && items[i + 1].array?.allSatisfy { $0.number != nil } == true
                }
        case (.enumeration(let values), .string(let s)): return values.contains(s)
        default: return false
        }
    }
}
