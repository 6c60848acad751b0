import Foundation
import MapData
import MapRaster
import MapStorage

/// tileserver-gl's list and client endpoints: `/styles.json`, `/rendered.json`, `/data.json`, WMTS capabilities,
/// sprites and the style's GeoJSON files, so that a MapLibre GL client can load `/styles/{id}/style.json` from
/// this server alone.
extension MapServer {
    /// `/styles.json`: every style, as tileserver-gl lists them (`version`, `name`, `id`, `url` of its style.json).
    func stylesList(_ request: HTTPRequest) -> JSONValue {
        let base = baseURL(request)
        return .array(
            configuration.styles.map { entry in
                .object([
                    ("version", .number(8)), ("name", .string(entry.style.name ?? entry.id)),
                    ("id", .string(entry.id)), ("url", .string("\(base)/styles/\(entry.id)/style.json")),
                ])
            })
    }

    /// `/rendered.json`: the TileJSON of every style's raster tiles.
    func renderedList(_ request: HTTPRequest) -> JSONValue {
        .array(configuration.styles.map { withID(tileJSON($0, request), $0.id) })
    }

    /// `/data.json`: the TileJSON of every data file.
    func dataList(_ request: HTTPRequest) -> JSONValue {
        .array(configuration.data.map { withID(dataTileJSON($0, $0.source.info, request), $0.id) })
    }

    private func withID(_ json: JSONValue, _ id: String) -> JSONValue {
        guard var members = json.members else { return json }
        members.insert(("id", .string(id)), at: 0)
        return .object(members)
    }

    /// `/styles/{id}/sprite[@2x].{json,png}` (the style's `default` sprite) and
    /// `/styles/{id}/sprite/{sprite}[@2x].{json,png}` (one of several): the sprite files the style names,
    /// and only those.
    func spriteFile(_ entry: ServerConfiguration.StyleEntry, spriteID: String, file: String) -> HTTPResponse {
        guard let sprite = entry.style.sprites.first(where: { $0.id == spriteID }) else {
            return .error(404, "style '\(entry.id)' has no sprite '\(spriteID)'", parameter: "sprite")
        }
        let suffixes = ["json": "application/json; charset=utf-8", "png": "image/png"]
        guard let dot = file.lastIndex(of: "."), let type = suffixes[String(file[file.index(after: dot)...])] else {
            return .error(404, "a sprite file is sprite[@2x].json or sprite[@2x].png", parameter: "path")
        }
        let stem = file[..<dot]
        guard stem == "" || stem == "@2x" else {
            return .error(404, "a sprite file is sprite[@2x].json or sprite[@2x].png", parameter: "path")
        }
        let path = sprite.base.path + stem + "." + file[file.index(after: dot)...]
        guard let data = try? FileReader.read(URL(fileURLWithPath: path), limit: 16 << 20) else {
            return .error(404, "the sprite file of style '\(entry.id)' cannot be read", parameter: "sprite")
        }
        return .data(data, contentType: type)
    }

    /// The GeoJSON files the styles' sources name, by `{style}/{source}.geojson`: what `/files/` serves.
    func geoJSONFile(_ parts: [String]) -> HTTPResponse {
        guard parts.count == 2, parts[1].hasSuffix(".geojson"),
            let entry = configuration.styles.first(where: { $0.id == parts[0] }),
            case .geojsonFile(let url)? = entry.style.sources[String(parts[1].dropLast(8))]?.kind
        else { return .error(404, "no such file; /files/ serves the styles' GeoJSON sources", parameter: "path") }
        guard let data = try? FileReader.read(url, limit: 256 << 20) else {
            return .error(404, "the GeoJSON file cannot be read", parameter: "path")
        }
        return .data(data, contentType: "application/geo+json")
    }

    /// WMTS 1.0.0 capabilities of a style's raster tiles (GoogleMapsCompatible, 256- and 512-point tiles), as
    /// tileserver-gl's `/styles/{id}/wmts.xml`, with absolute URLs.
    func wmtsCapabilities(_ entry: ServerConfiguration.StyleEntry, _ request: HTTPRequest) -> HTTPResponse {
        let base = baseURL(request)
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let title = escaped(entry.style.name ?? entry.id)
        let id = escaped(entry.id)
        var matrices256 = ""
        var matrices512 = ""
        let maxZoom = Int(MapViewport.maximumZoomLevel)
        for z in 0...maxZoom {
            let n = 1 << z
            // 0.28 mm pixels (OGC): the scale denominator of a 256-pixel tile at zoom z.
            let denominator256 = 559_082_264.028_717_8 / Double(n)
            matrices256 += matrixXML(id: z, denominator: denominator256, size: 256, count: n)
            if z < maxZoom {
                matrices512 += matrixXML(id: z, denominator: denominator256 / 2, size: 512, count: n)
            }
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" \
            xmlns:xlink="http://www.w3.org/1999/xlink" version="1.0.0">
            <ows:ServiceIdentification><ows:Title>\(title)</ows:Title><ows:ServiceType>OGC WMTS</ows:ServiceType>\
            <ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion></ows:ServiceIdentification>
            <ows:OperationsMetadata><ows:Operation name="GetCapabilities"><ows:DCP><ows:HTTP>\
            <ows:Get xlink:href="\(base)/styles/\(id)/wmts.xml"><ows:Constraint name="GetEncoding">\
            <ows:AllowedValues><ows:Value>RESTful</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get>\
            </ows:HTTP></ows:DCP></ows:Operation><ows:Operation name="GetTile"><ows:DCP><ows:HTTP>\
            <ows:Get xlink:href="\(base)/styles/"><ows:Constraint name="GetEncoding"><ows:AllowedValues>\
            <ows:Value>RESTful</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get></ows:HTTP></ows:DCP>\
            </ows:Operation></ows:OperationsMetadata>
            <Contents>
            \(layerXML(id: id, title: title, set: "GoogleMapsCompatible_256", size: 256, base: base))
            \(layerXML(id: id + "-512", title: title, set: "GoogleMapsCompatible_512", size: 512, base: base, style: id))
            <TileMatrixSet><ows:Title>GoogleMapsCompatible_256</ows:Title>\
            <ows:Identifier>GoogleMapsCompatible_256</ows:Identifier>\
            <ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS>\
            <WellKnownScaleSet>urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible</WellKnownScaleSet>
            \(matrices256)</TileMatrixSet>
            <TileMatrixSet><ows:Title>GoogleMapsCompatible_512</ows:Title>\
            <ows:Identifier>GoogleMapsCompatible_512</ows:Identifier>\
            <ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS>
            \(matrices512)</TileMatrixSet>
            </Contents>
            <ServiceMetadataURL xlink:href="\(base)/styles/\(id)/wmts.xml"/>
            </Capabilities>

            """
        return .data(Data(xml.utf8), contentType: "text/xml; charset=utf-8")
    }

    private func matrixXML(id: Int, denominator: Double, size: Int, count: Int) -> String {
        "<TileMatrix><ows:Identifier>\(id)</ows:Identifier><ScaleDenominator>\(denominator)</ScaleDenominator>"
            + "<TopLeftCorner>-20037508.34 20037508.34</TopLeftCorner><TileWidth>\(size)</TileWidth>"
            + "<TileHeight>\(size)</TileHeight><MatrixWidth>\(count)</MatrixWidth><MatrixHeight>\(count)</MatrixHeight>"
            + "</TileMatrix>\n"
    }

    private func layerXML(
        id: String, title: String, set: String, size: Int, base: String, style: String? = nil
    ) -> String {
        let path = "\(base)/styles/\(style ?? id)/\(size)/{TileMatrix}/{TileCol}/{TileRow}.png"
        return "<Layer><ows:Title>\(title)</ows:Title><ows:Identifier>\(id)</ows:Identifier>"
            + "<ows:WGS84BoundingBox><ows:LowerCorner>-180 -85.051128779807</ows:LowerCorner>"
            + "<ows:UpperCorner>180 85.051128779807</ows:UpperCorner></ows:WGS84BoundingBox>"
            + "<Style isDefault=\"true\"><ows:Identifier>default</ows:Identifier></Style>"
            + "<Format>image/png</Format><TileMatrixSetLink><TileMatrixSet>\(set)</TileMatrixSet>"
            + "</TileMatrixSetLink><ResourceURL format=\"image/png\" resourceType=\"tile\" template=\"\(path)\"/>"
            + "</Layer>"
    }
}

/// A request refused before its route ran, with the answer.
struct RequestRefusal: Error {
    let response: HTTPResponse
}

extension MapServer {
    /// The parameters a POST static map may give in a JSON object body (`path`, `marker`, `latlng`, `padding`, `maxzoom`), as tileserver-gl reads them: each a
    /// string, a number, a boolean or an array of those (several paths or markers); other members are ignored.
    static let staticBodyParameters: Set<String> = ["path", "marker", "latlng", "padding", "maxzoom"]

    /// `request` with the static-map parameters of its JSON body appended to its query (the query's first).
    ///
    /// - Throws: ``RequestRefusal``: `400` for a body that is not a JSON object or holds nested objects.
    static func mergingStaticBody(_ request: HTTPRequest) throws(RequestRefusal) -> HTTPRequest {
        guard !request.body.isEmpty else { return request }
        let json: JSONValue
        do { json = try JSONValue.parse(request.body) } catch {
            throw RequestRefusal(response: .error(400, "Invalid JSON body: \(error)", parameter: "body"))
        }
        guard let members = json.members else {
            throw RequestRefusal(
                response: .error(400, "Invalid data: the body must be a JSON object", parameter: "body"))
        }
        func text(_ value: JSONValue, _ key: String) throws(RequestRefusal) -> String? {
            switch value {
            case .string(let s): return s
            case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case .bool(let b): return b ? "true" : "false"
            case .null: return nil
            case .array, .object:
                throw RequestRefusal(
                    response: .error(400, "'\(key)': nested objects are not allowed", parameter: key))
            }
        }
        var merged = request
        for (key, value) in members where staticBodyParameters.contains(key) {
            if case .array(let items) = value {
                for item in items {
                    if let t = try text(item, key) { merged.query.append((key, t)) }
                }
            } else if let t = try text(value, key) {
                merged.query.append((key, t))
            }
        }
        return merged
    }
}
