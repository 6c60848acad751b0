import MapData
import MapStyle

extension Style {
    /// The style with its points of interest filtered and, unless `showsBuildings`, no buildings: what
    /// `MapSnapshotter.Options.pointOfInterestFilter` and `showsBuildings` draw.
    ///
    /// - POI layers (of any type: symbols, circles) are those of the OpenMapTiles `poi` source layer, matched
    ///   by `class` and `subclass` (``PointOfInterestCategory``); `aerodrome_label` layers (every feature an
    ///   airport: ``PointOfInterestCategory/airport``), shown or hidden whole; and layers whose `metadata`
    ///   has `"mapraster:poi-keys": [KEY, ...]` (GeoJSON of OpenStreetMap tags), matched by those keys'
    ///   values. An including filter keeps a feature of a listed category, an excluding one drops it; the
    ///   condition is added to the layer's filter (`["all", filter, condition]`). A filter that lists nothing
    ///   to keep hides the layers (`visibility` `none`).
    /// - Building layers (hidden when `showsBuildings` is false, 2D fills, outlines and extrusions alike) are
    ///   those of the OpenMapTiles `building` source layer and those whose `metadata` has
    ///   `"mapraster:buildings": true`.
    ///
    /// Other layers and styles of other schemas are unchanged.
    ///
    /// - Parameters:
    ///   - pointOfInterestFilter: nil or ``PointOfInterestFilter/includingAll`` keeps every POI.
    ///   - showsBuildings: false hides the building layers.
    /// - Returns: the changed style.
    public func applying(pointOfInterestFilter: PointOfInterestFilter?, showsBuildings: Bool) -> Style {
        let filter = pointOfInterestFilter == .includingAll ? nil : pointOfInterestFilter
        guard filter != nil || !showsBuildings else { return self }
        var style = self
        for index in style.layers.indices {
            let layer = style.layers[index]
            if !showsBuildings, Self.isBuildingLayer(layer) {
                style.layers[index].hide()
            } else if let filter, let condition = Self.condition(filter, for: layer) {
                if let condition {
                    style.layers[index].addFilter(condition)
                } else {
                    style.layers[index].hide()
                }
            }
        }
        return style
    }

    static func isBuildingLayer(_ layer: StyleLayer) -> Bool {
        layer.sourceLayer == "building" || layer.metadata?["mapraster:buildings"]?.bool == true
    }

    /// The condition (MapLibre expression JSON) a POI layer's features must meet: nil when the layer is not a
    /// POI layer, `.some(nil)` when none of its features may be drawn.
    static func condition(_ filter: PointOfInterestFilter, for layer: StyleLayer) -> JSONValue?? {
        if layer.sourceLayer == "aerodrome_label" {
            return filter.includes(.airport) ? .some(.bool(true)) : .some(nil)
        }
        let fields: [(key: String, subclass: Bool)]
        if layer.sourceLayer == "poi" {
            fields = [("class", false), ("subclass", true)]
        } else if let keys = layer.metadata?["mapraster:poi-keys"]?.array?.compactMap(\.string), !keys.isEmpty {
            fields = keys.map { ($0, true) } + keys.map { ($0, false) }
        } else {
            return nil
        }
        if filter.isIncluding && filter.categories.isEmpty { return .some(nil) }
        var alternatives: [JSONValue] = []
        for (key, subclass) in fields {
            let values = Set(
                filter.categories.flatMap { subclass ? $0.openMapTilesSubclasses : $0.openMapTilesClasses }
            ).sorted()
            guard !values.isEmpty else { continue }
            alternatives.append(
                .array([
                    .string("match"), .array([.string("get"), .string(key)]), .array(values.map(JSONValue.string)),
                    .bool(true), .bool(false),
                ]))
        }
        let listed: JSONValue = .array([.string("any")] + alternatives)
        return .some(filter.isIncluding ? listed : .array([.string("!"), listed]))
    }
}

extension StyleLayer {
    /// Sets `visibility` to `none`.
    mutating func hide() {
        properties["visibility"] = StyleProperty(json: .string("none"), expression: .literal(.string("none")))
    }

    /// Adds `condition` (a MapLibre expression that decodes: built by this module) to the layer's filter.
    mutating func addFilter(_ condition: JSONValue) {
        guard condition != .bool(true) else { return }
        // Built here from fixed operators and category names: it always decodes.
        guard let expression = try? StyleExpression.decodeFilter(condition, path: "\(id).filter") else {
            preconditionFailure("a point-of-interest condition does not decode: \(condition)")
        }
        if let old = filter {
            filter = StyleProperty(
                json: .array([.string("all"), old.json, condition]), expression: .all([old.expression, expression]))
        } else {
            filter = StyleProperty(json: condition, expression: expression)
        }
    }
}
