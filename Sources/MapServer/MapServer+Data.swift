import Foundation
import MapData
import MapRaster
import MapStorage

extension MapServer {
    /// `/data/{id}.json` (TileJSON of a tile file) and `/data/{id}/{z}/{x}/{y}.{pbf|png|jpg|webp}` (its tiles
    /// as stored, inflated when gzipped).
    func dataRoute(_ parts: [String], _ request: HTTPRequest) -> (String, HTTPResponse) {
        if parts.count == 1, parts[0].hasSuffix(".json") {
            let id = String(parts[0].dropLast(5))
            guard let entry = configuration.data.first(where: { $0.id == id }) else { return ("data", unknownData(id)) }
            return ("data", json(dataTileJSON(entry, entry.source.info, request)))
        }
        guard parts.count == 4, let entry = configuration.data.first(where: { $0.id == parts[0] }) else {
            return ("data", parts.isEmpty ? unknownData("") : unknownData(parts[0]))
        }
        return ("data", dataTile(entry, Array(parts.dropFirst())))
    }

    /// One tile of `entry` from `{z}/{x}/{y}.{ext}`, as stored: `404` outside the file's zooms and the tile grid,
    /// `204` (no content) for a vector tile missing within them (tileserver-gl's answer: an empty area).
    func dataTile(_ entry: ServerConfiguration.DataEntry, _ parts: [String]) -> HTTPResponse {
        guard parts.count == 3, let dot = parts[2].lastIndex(of: "."), let z = Int(parts[0]), let x = Int(parts[1]),
            let y = Int(parts[2][..<dot]), let tile = try? TileID(z: z, x: x, y: y)
        else { return .error(404, "a tile is /data/{id}/{z}/{x}/{y}.{ext}", parameter: "tile") }
        let source = entry.source
        guard (source.info.minZoom...max(source.info.minZoom, source.info.maxZoom)).contains(z) else {
            return .error(
                404,
                "no tile \(z)/\(x)/\(y): data '\(entry.id)' has zooms \(source.info.minZoom)...\(source.info.maxZoom)",
                parameter: "tile")
        }
        do {
            guard let data = try source.tile(tile) else {
                if source.info.format == .mvt { return HTTPResponse(status: 204) }
                return .error(404, "no tile \(z)/\(x)/\(y) in data '\(entry.id)'", parameter: "tile")
            }
            return .data(data, contentType: Self.contentType(source.info.format))
        } catch {
            return .error(500, "data '\(entry.id)' tile \(z)/\(x)/\(y): \(error)", parameter: nil)
        }
    }

    func unknownData(_ id: String) -> HTTPResponse {
        .error(404, "no data '\(id)'; data: " + configuration.data.map(\.id).joined(separator: ", "), parameter: "data")
    }

    static func contentType(_ format: TileDataFormat) -> String {
        switch format {
        case .mvt: return "application/x-protobuf"
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .webp: return "image/webp"
        default: return "application/octet-stream"
        }
    }

    static func fileExtension(_ format: TileDataFormat) -> String {
        switch format {
        case .mvt: return "pbf"
        case .png: return "png"
        case .jpeg: return "jpg"
        case .webp: return "webp"
        default: return "bin"
        }
    }

    func dataTileJSON(_ entry: ServerConfiguration.DataEntry, _ info: TileSourceInfo, _ request: HTTPRequest)
        -> JSONValue
    {
        var members: [(String, JSONValue)] = [
            ("tilejson", .string("3.0.0")), ("name", .string(info.name ?? entry.id)),
            (
                "tiles",
                .array([.string("\(baseURL(request))/data/\(entry.id)/{z}/{x}/{y}.\(Self.fileExtension(info.format))")])
            ),
            ("minzoom", .number(Double(info.minZoom))), ("maxzoom", .number(Double(info.maxZoom))),
            ("format", .string(Self.fileExtension(info.format))),
        ]
        if let bounds = info.bounds { members.append(("bounds", .array(bounds.map { .number($0) }))) }
        if let attribution = info.attribution { members.append(("attribution", .string(attribution))) }
        if !info.vectorLayers.isEmpty {
            members.append(("vector_layers", .array(info.vectorLayers.map { .object([("id", .string($0))]) })))
        }
        return .object(members)
    }

    // MARK: - Viewer

    /// `/`: the styles, each opening a Leaflet map over the server's raster tiles, and a static-map URL builder.
    func viewerPage(_ request: HTTPRequest) -> HTTPResponse {
        let options = configuration.styles.map { "<option value=\"\($0.id)\">\($0.id)</option>" }.joined()
        let html = ViewerPage.html.replacingOccurrences(of: "{{STYLE_OPTIONS}}", with: options)
        return .data(Data(html.utf8), contentType: "text/html; charset=utf-8")
    }

    /// Leaflet's script, stylesheet and images from Debian's libjs-leaflet (only these files).
    func leafletFile(_ parts: [String]) -> HTTPResponse {
        let allowed: [String: String] = [
            "leaflet.js": "application/javascript", "leaflet.css": "text/css",
            "images/marker-icon.png": "image/png", "images/marker-shadow.png": "image/png",
            "images/layers.png": "image/png",
        ]
        let name = parts.joined(separator: "/")
        guard let type = allowed[name] else { return .error(404, "no such file", parameter: "path") }
        let url = URL(fileURLWithPath: configuration.leafletDirectory).appendingPathComponent(name)
        guard let data = try? FileReader.read(url, limit: 4 << 20) else {
            return .error(
                404, "Leaflet is not installed at \(configuration.leafletDirectory) (Debian package libjs-leaflet)",
                parameter: "path")
        }
        return .data(data, contentType: type)
    }
}
