import Foundation
import MapData
import MapGeometry

/// Decodes the style-spec subset. Strict, every unknown member is an error naming it; lenient (MapLibre's
/// way), unknown members, layer types and properties, unsupported source types and network locations are
/// warnings (``StyleWarningLog``) and are left out.
struct StyleDecoder {
    let source: String
    let baseURL: URL
    var options = StyleLoadOptions()
    let log = StyleWarningLog()
    /// The defaults of the style's `state` member, which `global-state` reads.
    var globalState: [String: StyleValue] = [:]

    init(source: String, baseURL: URL, options: StyleLoadOptions = StyleLoadOptions()) {
        self.source = source
        self.baseURL = baseURL
        self.options = options
    }

    static let topLevelKeys = [
        "version", "name", "metadata", "sources", "layers", "center", "zoom", "bearing", "pitch", "glyphs", "sprite",
        "light", "state",
    ]
    /// Root members of the specification that say nothing about the pixels (identity, editing and animation
    /// state): kept for writing the style back, without a warning, as MapLibre ignores them.
    static let descriptiveKeys: Set<String> = [
        "id", "owner", "created", "modified", "draft", "transition",
    ]
    static let unusedKeys: Set<String> = ["center", "zoom", "bearing", "pitch", "glyphs", "sprite"]
    /// At most this many sprites in the array form of `sprite`.
    static let maximumSprites = 64
    static let layerKeys = [
        "id", "type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout", "paint", "metadata",
    ]

    func invalid(_ path: String, _ message: String) -> StyleError {
        .invalid(source: source, path: path, message: message)
    }

    /// Something MapLibre ignores that this version does not know or support: an error when strict
    /// (`message`), otherwise a warning (`lenient`, or `message` and "ignored") recorded once per `key`.
    func unsupported(_ path: String, _ message: String, lenient: String? = nil, key: String, repeats: String = "layers")
        throws
    {
        if options.strict { throw invalid(path, message) }
        log.add(key: key, "\(path): \(lenient ?? message + "; ignored")", repeats: repeats)
    }

    /// A warning that is never an error, strict or not.
    func warn(_ path: String, _ message: String, key: String) {
        log.add(key: key, "\(path): \(message)")
    }

    static func isRemote(_ location: String) -> Bool { StyleSource.isNetworkLocation(location) }

    /// The network location a source reads from, if it does: `url`, the first of `tiles`, or GeoJSON `data`.
    static func remoteLocation(of json: JSONValue) -> (member: String, location: String)? {
        if let url = json["url"]?.string, isRemote(url) { return ("url", url) }
        if let tiles = json["tiles"]?.array, let first = tiles.first?.string, isRemote(first) {
            return ("tiles", first)
        }
        if let data = json["data"]?.string, isRemote(data) { return ("data", data) }
        return nil
    }

    func style(_ json: JSONValue) throws -> Style {
        guard let members = json.members else { throw invalid("(top level)", "a style must be a JSON object") }
        var unknown: [String: JSONValue] = [:]
        for (key, value) in members where Self.descriptiveKeys.contains(key) { unknown[key] = value }
        for (key, value) in members where !Self.topLevelKeys.contains(key) && !Self.descriptiveKeys.contains(key) {
            try unsupported(
                key, "unknown style member; supported: " + Self.topLevelKeys.joined(separator: ", "),
                key: "member \(key)")
            unknown[key] = value
        }
        guard let version = json["version"] else { throw invalid("version", "missing; a style needs \"version\": 8") }
        guard version.number == 8 else { throw invalid("version", "must be 8, got \(describe(version))") }
        var style = Style()
        if let name = json["name"] {
            guard let s = name.string else { throw invalid("name", "must be a string, got \(name.kindName)") }
            style.name = s
        }
        style.metadata = json["metadata"]
        for (key, value) in members where Self.unusedKeys.contains(key) { style.unused[key] = value }
        style.unused.merge(unknown) { first, _ in first }
        style.sprites = try sprites(json["sprite"])
        style.light = try light(json["light"])
        if let value = json["light"] { style.unused["light"] = value }
        if let glyphs = json["glyphs"]?.string, Self.isRemote(glyphs) {
            warn(
                "glyphs", "network glyphs (\(glyphs)) are not downloaded; text is drawn with the installed fonts",
                key: "glyphs")
        } else if var glyphs = json["glyphs"]?.string, glyphs.contains("{fontstack}"), glyphs.contains("{range}") {
            if glyphs.hasPrefix("file://") { glyphs = String(glyphs.dropFirst("file://".count)) }
            // The placeholders are kept as written (a URL would percent-encode the braces).
            style.glyphs = glyphs.hasPrefix("/") ? glyphs : baseURL.standardizedFileURL.path + "/" + glyphs
        }
        let sourcesJSON = json["sources"] ?? .object([])
        guard let sourceMembers = sourcesJSON.members else {
            throw invalid("sources", "must be an object of sources by id, got \(sourcesJSON.kindName)")
        }
        for id in options.sources.keys.sorted() where !sourceMembers.contains(where: { $0.0 == id }) {
            throw StyleError.invalid(
                source: "--source \(id)=\(options.sources[id] ?? "")", path: "sources.\(id)",
                message: "no such source; the style's sources: "
                    + sourceMembers.map(\.0).sorted().joined(separator: ", "))
        }
        // Sources that cannot be drawn (a network location, an unsupported type): their layers are left out.
        var unavailable: [String: Int] = [:]
        for (id, value) in sourceMembers {
            let path = "sources.\(id)"
            if let file = options.sources[id] {
                style.sources[id] = try Self.replacement(of: value, id: id, with: file, relativeTo: options.base)
                continue
            }
            if let (member, location) = Self.remoteLocation(of: value) {
                try unsupported(
                    "\(path).\(member)",
                    "a network location (\(location)) is not downloaded (no network); give --source \(id)=PATH "
                        + "(.mbtiles, .pmtiles, a {z}/{x}/{y} template, TileJSON or GeoJSON)",
                    lenient: "a network location (\(location)) is not downloaded: the layers of source \"\(id)\" are "
                        + "not drawn; give --source \(id)=PATH (.mbtiles, .pmtiles, a {z}/{x}/{y} template, TileJSON "
                        + "or GeoJSON)",
                    key: "source \(id)")
                unavailable[id] = 0
                continue
            }
            if let type = value["type"]?.string, !Self.sourceTypes.contains(type) {
                try unsupported(
                    "\(path).type", "unknown source type \"\(type)\"; supported: geojson, raster, vector, image",
                    lenient:
                        "unsupported source type \"\(type)\" (supported: geojson, raster, vector, image): the layers "
                        + "of source \"\(id)\" are not drawn",
                    key: "source \(id)")
                unavailable[id] = 0
                continue
            }
            style.sources[id] = try self.source(value, path: path)
        }
        guard let layersJSON = json["layers"] else {
            throw invalid("layers", "missing; a style needs a \"layers\" array")
        }
        guard let layers = layersJSON.array else {
            throw invalid("layers", "must be an array, got \(layersJSON.kindName)")
        }
        var ids = Set<String>()
        var decoder = self
        decoder.globalState = try stateDefaults(json["state"])
        for (i, layerJSON) in layers.enumerated() {
            if let name = layerJSON["source"]?.string, unavailable[name] != nil {
                unavailable[name, default: 0] += 1
                continue
            }
            guard let layer = try decoder.layer(layerJSON, path: "layers[\(i)]", sources: style.sources) else {
                continue
            }
            guard ids.insert(layer.id).inserted else {
                throw invalid("layers[\(i)].id", "duplicate layer id \"\(layer.id)\"")
            }
            style.layers.append(layer)
        }
        for (id, count) in unavailable where count > 0 {
            log.amend(key: "source \(id)", " (\(count) layer\(count == 1 ? "" : "s") left out)")
        }
        if json["sprite"] == nil, style.sprites.isEmpty,
            let i = style.layers.firstIndex(where: { $0.type == .symbol && $0.properties["icon-image"] != nil })
        {
            warn(
                "sprite",
                "missing: the style has no sprite, so icon-image (first in layer \"\(style.layers[i].id)\") "
                    + "draws nothing; give --sprite PATH", key: "sprite")
        }
        style.unreadSources = unavailable.filter { $0.value > 0 }.keys.sorted()
        style.isStrict = options.strict
        style.warnings = log.warnings
        if let message = style.nothingToDraw, !options.allowsNothingToDraw { throw invalid("sources", message) }
        return style
    }

    static let sourceTypes: Set<String> = ["geojson", "raster", "vector", "image"]

    /// The defaults of a style's `state` member (`{"name": {"default": value}}`), which `global-state` reads.
    func stateDefaults(_ json: JSONValue?) throws -> [String: StyleValue] {
        guard let json else { return [:] }
        guard let members = json.members else {
            throw invalid("state", "must be an object of properties, got \(json.kindName)")
        }
        var result: [String: StyleValue] = [:]
        for (name, spec) in members { result[name] = spec["default"].map(StyleValue.init) ?? .null }
        return result
    }

    /// The source `id` (written `json`) read from `path` instead, as `--source id=path` asks: an
    /// `.mbtiles`/`.pmtiles` file, a `{z}/{x}/{y}` template or a TileJSON file for a tiled source, a GeoJSON
    /// file for a GeoJSON source. It keeps its type, attribution, `promoteId`, `tileSize` and `scheme`; its
    /// own location is not looked at.
    static func replacement(of json: JSONValue, id: String, with path: String, relativeTo base: URL) throws
        -> StyleSource
    {
        guard !path.isEmpty else {
            throw StyleError.invalid(source: "--source", path: id, message: "needs a file path after '='")
        }
        var members: [(String, JSONValue)] = []
        let keep: Set<String> = ["type", "attribution", "promoteId", "tileSize", "scheme"]
        for (key, value) in json.members ?? [] where keep.contains(key) { members.append((key, value)) }
        if json["type"]?.string == "geojson" {
            members.append(("data", .string(path)))
        } else if path.contains("{z}") || path.contains("%7B") {
            members.append(("tiles", .array([.string(path)])))
        } else {
            members.append(("url", .string(path)))
        }
        let decoder = StyleDecoder(
            source: "--source \(id)=\(path)", baseURL: base, options: StyleLoadOptions(strict: true))
        return try decoder.source(.object(members), path: "sources.\(id)")
    }

    /// `sprite`: one path (relative to the style, or absolute, `file://` allowed) or an array of
    /// `{"id", "url"}` objects with distinct ids; ``StyleLoadOptions/sprites`` replace them by id.
    func sprites(_ json: JSONValue?) throws -> [SpriteLocation] {
        var result = try styleSprites(json)
        for id in options.sprites.keys.sorted() {
            guard let path = options.sprites[id], !path.isEmpty else {
                throw StyleError.invalid(source: "--sprite", path: id, message: "needs a sprite path (without .json)")
            }
            let base = path.hasPrefix("/") ? URL(fileURLWithPath: path) : options.base.appendingPathComponent(path)
            let location = SpriteLocation(id: id, base: base.standardizedFileURL)
            if let i = result.firstIndex(where: { $0.id == id }) {
                result[i] = location
            } else {
                result.append(location)
            }
        }
        return result
    }

    func styleSprites(_ json: JSONValue?) throws -> [SpriteLocation] {
        guard let json else { return [] }
        // Network locations (https://...) are kept in the style but not loaded (no network): one warning, and
        // their icons and patterns are not drawn, unless --sprite gives a local copy.
        func location(_ value: JSONValue?, path: String, id: String) throws -> URL? {
            guard var text = value?.string, !text.isEmpty else {
                throw invalid(path, "must be the path of a sprite (without .json or .png) relative to the style")
            }
            if text.hasPrefix("file://") { text = String(text.dropFirst("file://".count)) }
            guard text.contains("://") else { return resolve(text) }
            if options.sprites[id] == nil {
                warn(
                    path,
                    "the network sprite \(text) is not downloaded: its icons and patterns are not drawn; give --sprite "
                        + (id == "default" ? "" : "\(id)=") + "PATH (PATH.json, PATH.png, PATH@2x.json, PATH@2x.png)",
                    key: "sprite \(id)")
            }
            return nil
        }
        if json.string != nil {
            return try location(json, path: "sprite", id: "default").map { [SpriteLocation(id: "default", base: $0)] }
                ?? []
        }
        guard let items = json.array else {
            throw invalid("sprite", "must be a path string or an array of {\"id\", \"url\"} objects")
        }
        guard items.count <= Self.maximumSprites else {
            throw invalid("sprite", "at most \(Self.maximumSprites) sprites, got \(items.count)")
        }
        var result: [SpriteLocation] = []
        for (i, item) in items.enumerated() {
            guard let id = item["id"]?.string, !id.isEmpty else {
                throw invalid("sprite[\(i)].id", "missing; each sprite needs an id string")
            }
            guard !result.contains(where: { $0.id == id }) else {
                throw invalid("sprite[\(i)].id", "duplicate sprite id \"\(id)\"")
            }
            if let base = try location(item["url"], path: "sprite[\(i)].url", id: id) {
                result.append(SpriteLocation(id: id, base: base))
            }
        }
        return result
    }

    func describe(_ json: JSONValue) -> String {
        switch json {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return StyleValue.number(n).text
        default: return json.kindName
        }
    }

    /// A layer, or nil when a lenient read leaves it out (a layer type this version does not draw).
    func layer(_ json: JSONValue, path: String, sources: [String: StyleSource]) throws -> StyleLayer? {
        guard let members = json.members else { throw invalid(path, "a layer must be an object") }
        for (key, _) in members where !Self.layerKeys.contains(key) {
            try unsupported(
                path + "." + key, "unknown layer member; supported: " + Self.layerKeys.joined(separator: ", "),
                key: "layer member \(key)")
        }
        guard let id = json["id"]?.string, !id.isEmpty else {
            throw invalid(path + ".id", "missing; a layer needs an id string")
        }
        guard let typeName = json["type"]?.string else {
            throw invalid(
                path + ".type", "missing; supported: " + StyleLayerType.allCases.map(\.rawValue).joined(separator: ", ")
            )
        }
        guard let type = StyleLayerType(rawValue: typeName) else {
            let supported = StyleLayerType.allCases.map(\.rawValue).joined(separator: ", ")
            try unsupported(
                path + ".type", "unknown layer type \"\(typeName)\"; supported: " + supported,
                lenient: "layer \"\(id)\": the layer type \"\(typeName)\" is not supported (supported: \(supported)); "
                    + "the layer is not drawn",
                key: "layer type \(typeName)")
            return nil
        }
        var layer = StyleLayer(id: id, type: type)
        layer.metadata = json["metadata"]
        if let sourceJSON = json["source"] {
            guard let name = sourceJSON.string else { throw invalid(path + ".source", "must be a source id string") }
            guard let source = sources[name] else {
                throw invalid(
                    path + ".source",
                    "no source \"\(name)\" in the style; sources: " + sources.keys.sorted().joined(separator: ", "))
            }
            let isRasterSource: Bool
            switch source.kind {
            case .raster, .rasterTiles, .image: isRasterSource = true
            default: isRasterSource = false
            }
            if case .vector = source.kind {
                guard let sourceLayer = json["source-layer"]?.string, !sourceLayer.isEmpty else {
                    throw invalid(path + ".source-layer", "missing; a layer of the vector source \"\(name)\" needs one")
                }
                layer.sourceLayer = sourceLayer
            }
            if isRasterSource != (type == .raster) {
                throw invalid(
                    path + ".source",
                    "a \(type.rawValue) layer cannot draw the \(isRasterSource ? "raster" : "geojson") source \"\(name)\""
                )
            }
            layer.source = name
        } else if type != .background {
            throw invalid(path + ".source", "missing; a \(type.rawValue) layer needs a source")
        }
        for key in ["minzoom", "maxzoom"] {
            guard let v = json[key] else { continue }
            guard let n = v.number, n >= 0, n <= 24 else {
                throw invalid(path + "." + key, "must be a number in 0...24")
            }
            if key == "minzoom" { layer.minZoom = n } else { layer.maxZoom = n }
        }
        if let filter = json["filter"] {
            guard
                let expression = try supportedExpression(
                    filter, path: path + ".filter", leaving: "layer \"\(id)\" is not drawn",
                    {
                        try ExpressionDecoder(source: source, globalState: globalState).filter(
                            filter, path: path + ".filter")
                    })
            else { return nil }
            layer.filter = StyleProperty(json: filter, expression: expression)
        }
        for group in [StylePropertySpec.Group.layout, .paint] {
            guard let groupJSON = json[group.rawValue] else { continue }
            guard let properties = groupJSON.members else {
                throw invalid(path + "." + group.rawValue, "must be an object, got \(groupJSON.kindName)")
            }
            let specs = type.properties.filter { $0.group == group }
            for (name, value) in properties {
                let ppath = "\(path).\(group.rawValue).\(name)"
                guard let spec = specs.first(where: { $0.name == name }) else {
                    try unsupported(
                        ppath,
                        "unknown \(group.rawValue) property \"\(name)\" for a \(type.rawValue) layer; supported: "
                            + specs.map(\.name).joined(separator: ", "),
                        lenient: "the \(group.rawValue) property \"\(name)\" is unknown or not supported for a "
                            + "\(type.rawValue) layer; ignored",
                        key: "\(type.rawValue) \(group.rawValue) \(name)")
                    continue
                }
                do {
                    // `text-variable-anchor-offset` literals are arrays that start with an anchor name.
                    let expression =
                        spec.kind == .variableAnchorOffset && value.array?.first?.string != nil
                            && value.array?.first?.string != "literal"
                            && !StyleExpression.supportedOperators.contains(value.array?.first?.string ?? "")
                        ? .literal(StyleValue(value))
                        : try supportedExpression(
                            value, path: ppath, leaving: "the property is ignored (its default applies)",
                            {
                                try ExpressionDecoder(source: source, globalState: globalState).value(
                                    value, path: ppath)
                            })
                    guard let expression else { continue }
                    layer.properties[name] = StyleProperty(json: value, expression: try check(expression, spec, ppath))
                } catch DocumentError.invalid(let source, let path, let message) {
                    // Name the layer by its id too: "layers[3]" alone is hard to find in a long style.
                    throw DocumentError.invalid(source: source, path: path, message: message + " (layer \"\(id)\")")
                }
            }
        }
        return layer
    }

    /// Checks the literals in output positions against the property's kind; colors are parsed once here.
    func check(_ e: StyleExpression, _ spec: StylePropertySpec, _ path: String) throws -> StyleExpression {
        func fix(_ e: StyleExpression) throws -> StyleExpression {
            switch e {
            case .literal(let v):
                if spec.kind == .color, let s = v.string {
                    do { return .literal(.color(try Color(parsing: s))) } catch let error as ColorError {
                        throw invalid(path, error.description)
                    }
                }
                guard spec.accepts(v) else {
                    throw invalid(path, "must be \(spec.kind.name), got \(describe(v))")
                }
                if let range = spec.range {
                    let numbers = v.number.map { [$0] } ?? v.array?.compactMap(\.number) ?? []
                    if let bad = numbers.first(where: { !range.contains($0) }) {
                        throw invalid(
                            path,
                            "must be in \(StyleValue.number(range.lowerBound).text)...\(StyleValue.number(range.upperBound).text)"
                                + " (see styles/README.md, Limits), got \(StyleValue.number(bad).text)")
                    }
                    if let count = v.array?.count, count > StyleLimits.maximumDashCount {
                        throw invalid(path, "must have at most \(StyleLimits.maximumDashCount) numbers, got \(count)")
                    }
                }
                return e
            case .interpolate(let kind, let input, let stops):
                return .interpolate(kind, input, try stops.map { .init(input: $0.input, output: try fix($0.output)) })
            case .interpolateIn(let space, let kind, let input, let stops):
                return .interpolateIn(
                    space, kind, input, try stops.map { .init(input: $0.input, output: try fix($0.output)) })
            case .step(let input, let base, let stops):
                return .step(
                    input, base: try fix(base), try stops.map { .init(input: $0.input, output: try fix($0.output)) })
            case .match(let input, let branches, let fallback):
                return .match(
                    input, try branches.map { .init(labels: $0.labels, output: try fix($0.output)) },
                    fallback: try fix(fallback))
            case .cond(let branches, let fallback):
                return .cond(
                    try branches.map { .init(condition: $0.condition, output: try fix($0.output)) },
                    fallback: try fix(fallback))
            case .coalesce(let list): return .coalesce(try list.map(fix))
            default: return e
            }
        }
        return try fix(e)
    }

    func describe(_ v: StyleValue) -> String {
        switch v {
        case .string(let s): return "\"\(s)\""
        case .number: return "the number \(v.text)"
        case .bool(let b): return "\(b)"
        case .array: return "an array"
        case .color(let c): return "the color \(c.hexString)"
        case .null: return "null"
        case .formatted: return "formatted text"
        case .collator: return "a collator"
        case .object: return "an object"
        }
    }
}
