import Foundation
import MapData
import MapGeometry

/// The `sources` of a style: each source object, its tile set or TileJSON, and paths relative to the style.
extension StyleDecoder {
    func source(_ json: JSONValue, path: String) throws -> StyleSource {
        guard let members = json.members else { throw invalid(path, "a source must be an object") }
        guard let type = json["type"]?.string else {
            throw invalid(path + ".type", "missing; supported source types: geojson, raster, vector")
        }
        let allowed: [String]
        switch type {
        case "geojson": allowed = ["type", "data", "attribution", "maxzoom", "promoteId", "lineMetrics"]
        case "raster":
            allowed = ["type", "url", "tiles", "minzoom", "maxzoom", "scheme", "attribution", "bounds", "tileSize"]
        case "vector":
            allowed = ["type", "url", "tiles", "minzoom", "maxzoom", "scheme", "attribution", "bounds", "promoteId"]
        case "image": allowed = ["type", "url", "coordinates", "attribution"]
        default:
            throw invalid(path + ".type", "unknown source type \"\(type)\"; supported: geojson, raster, vector, image")
        }
        for (key, _) in members where !allowed.contains(key) {
            try unsupported(
                path + "." + key, "unknown member of a \(type) source; supported: " + allowed.joined(separator: ", "),
                key: "\(type) source member \(key)", repeats: "sources")
        }
        var attribution: String?
        if let a = json["attribution"] {
            guard let s = a.string else { throw invalid(path + ".attribution", "must be a string, got \(a.kindName)") }
            attribution = s
        }
        let promoteID = try self.promoteID(json["promoteId"], path: path + ".promoteId")
        switch type {
        case "image":
            guard let url = json["url"]?.string, !url.isEmpty else {
                throw invalid(path + ".url", "missing; an image source needs the path of its image")
            }
            return StyleSource(
                kind: .image(resolve(url), corners: try imageCorners(json["coordinates"], path: path + ".coordinates")),
                attribution: attribution, json: json)
        case "geojson":
            guard let data = json["data"] else {
                throw invalid(path + ".data", "missing; give a file path relative to the style or inline GeoJSON")
            }
            if let file = data.string {
                return StyleSource(
                    kind: .geojsonFile(resolve(file)), attribution: attribution, promoteID: promoteID, json: json)
            }
            guard data.members != nil else {
                throw invalid(path + ".data", "must be a file path string or a GeoJSON object, got \(data.kindName)")
            }
            return StyleSource(kind: .geojsonInline(data), attribution: attribution, promoteID: promoteID, json: json)
        case "vector":
            let (tiles, credit) = try tileSet(json, path: path, raster: false)
            return StyleSource(
                kind: .vector(tiles), attribution: attribution ?? credit, promoteID: promoteID, json: json)
        default:
            if json["tiles"] == nil, let url = json["url"]?.string, url.lowercased().hasSuffix(".png") {
                return StyleSource(kind: .raster(resolve(url)), attribution: attribution, json: json)
            }
            let (tiles, credit) = try tileSet(json, path: path, raster: true)
            return StyleSource(kind: .rasterTiles(tiles), attribution: attribution ?? credit, json: json)
        }
    }

    /// An image source's `coordinates`: four `[longitude, latitude]` pairs, longitudes within +-540 (an image
    /// may reach across the antimeridian), latitudes within +-90.
    func imageCorners(_ json: JSONValue?, path: String) throws -> [LocationCoordinate2D] {
        guard let corners = json?.array, corners.count == 4 else {
            throw invalid(
                path, "must be four [longitude, latitude] corners: top left, top right, bottom right, bottom left")
        }
        return try corners.enumerated().map { k, corner in
            guard let pair = corner.array, pair.count == 2, let lon = pair[0].number, let lat = pair[1].number,
                abs(lon) <= 540, abs(lat) <= 90
            else {
                throw invalid("\(path)[\(k)]", "must be [longitude within +-540, latitude within +-90]")
            }
            return LocationCoordinate2D(latitude: lat, longitude: lon)
        }
    }

    /// `promoteId`: a property name, or an object of property names by source layer.
    func promoteID(_ json: JSONValue?, path: String) throws -> StyleSource.PromoteID? {
        guard let json else { return nil }
        if let name = json.string { return .property(name) }
        guard let members = json.members else {
            throw invalid(path, "must be a property name or an object of property names by source layer")
        }
        var names: [String: String] = [:]
        for (layer, value) in members {
            guard let name = value.string else {
                throw invalid(path + "." + layer, "must be a property name string, got \(value.kindName)")
            }
            names[layer] = name
        }
        return .perSourceLayer(names)
    }

    /// A tiled source (vector or raster): `url` (`mbtiles://` or `pmtiles://` and a path relative to the
    /// style, a `.mbtiles`/`.pmtiles` path, or a TileJSON file whose members fill in what the style leaves
    /// out) or `tiles` (one path template), zooms 0...24, the row scheme, `bounds` and, for raster, `tileSize`.
    /// Also returns the TileJSON's attribution.
    func tileSet(_ json: JSONValue, path: String, raster: Bool) throws -> (StyleSource.TileSet, String?) {
        var members = json
        var location: String?
        var credit: String?
        var templateBase = baseURL
        var templatePath = path + ".tiles"
        if json["tiles"] == nil, let url = json["url"]?.string, !url.isEmpty {
            let prefix = ["mbtiles://", "pmtiles://"].first { url.hasPrefix($0) } ?? ""
            let file = String(url.dropFirst(prefix.count))
            guard !file.hasPrefix("http://"), !file.hasPrefix("https://") else {
                throw invalid(
                    path + ".url",
                    "must be mbtiles://PATH, pmtiles://PATH, a .mbtiles/.pmtiles path or a TileJSON file (no network)")
            }
            if prefix != "" || file.hasSuffix(".mbtiles") || file.hasSuffix(".pmtiles") {
                location = prefix + resolve(file).path
            } else {
                // A TileJSON file: the style's own members win over the file's.
                let tileJSONURL = resolve(file)
                let tileJSON = try self.tileJSON(tileJSONURL, path: path + ".url")
                var merged = tileJSON.members ?? []
                for (key, value) in json.members ?? [] where key != "url" {
                    merged.removeAll { $0.0 == key }
                    merged.append((key, value))
                }
                members = .object(merged)
                credit = tileJSON["attribution"]?.string
                templateBase = tileJSONURL.deletingLastPathComponent()
                templatePath = path + ".url (TileJSON \(tileJSONURL.path)).tiles"
            }
        }
        if location == nil {
            guard let tiles = members["tiles"] else {
                throw invalid(
                    path + ".url",
                    "missing; give url (mbtiles://, pmtiles://, a TileJSON file) or tiles (a {z}/{x}/{y} template)")
            }
            guard let template = tiles.array?.first?.string, !template.isEmpty else {
                throw invalid(templatePath, "must be an array of {z}/{x}/{y} path templates")
            }
            guard !template.hasPrefix("http://"), !template.hasPrefix("https://") else {
                throw invalid(templatePath, "must be a file path template with {z}/{x}/{y} (no network)")
            }
            let prefix = ["mbtiles://", "pmtiles://"].first { template.hasPrefix($0) } ?? ""
            let file = String(template.dropFirst(prefix.count))
            location = prefix + (file.hasPrefix("/") ? file : templateBase.path + "/" + file)
        }
        let resolved = (location ?? "").replacingOccurrences(of: "%7B", with: "{")
            .replacingOccurrences(of: "%7D", with: "}")
        func zoom(_ key: String) throws -> Int? {
            guard let value = members[key] else { return nil }
            guard let z = value.number, z >= 0, z <= 24, z == z.rounded() else {
                throw invalid(path + "." + key, "must be a whole number in 0...24, got \(describe(value))")
            }
            return Int(z)
        }
        let scheme = members["scheme"]?.string ?? "xyz"
        guard scheme == "xyz" || scheme == "tms" else { throw invalid(path + ".scheme", "must be \"xyz\" or \"tms\"") }
        var bounds: GeoBoundingBox?
        if let value = members["bounds"] {
            guard let items = value.array?.compactMap(\.number), items.count == 4 else {
                throw invalid(path + ".bounds", "must be [west, south, east, north] in degrees")
            }
            // MapLibre clamps latitudes to the Web Mercator square; the box must still be a box.
            let south = max(-90, min(90, items[1]))
            let north = max(-90, min(90, items[3]))
            do {
                bounds = try GeoBoundingBox(
                    validatingWest: max(-180, min(180, items[0])), south: south, east: max(-180, min(180, items[2])),
                    north: north)
            } catch {
                throw invalid(
                    path + ".bounds", "must be [west, south, east, north] with south < north and west != east")
            }
        }
        var tileSize = 512
        if raster, let value = members["tileSize"] {
            guard let size = value.number, [64.0, 128, 256, 512, 1024].contains(size) else {
                throw invalid(path + ".tileSize", "must be 64, 128, 256, 512 or 1024, got \(describe(value))")
            }
            tileSize = Int(size)
        }
        let minZoom = try zoom("minzoom")
        let maxZoom = try zoom("maxzoom")
        if let minZoom, let maxZoom, minZoom > maxZoom {
            throw invalid(path + ".maxzoom", "must be at least minzoom (\(minZoom)), got \(maxZoom)")
        }
        return (
            StyleSource.TileSet(
                location: resolved, minZoom: minZoom, maxZoom: maxZoom, scheme: scheme, bounds: bounds,
                tileSize: tileSize),
            credit
        )
    }

    /// Reads a TileJSON file (at most 1 MB).
    func tileJSON(_ url: URL, path: String) throws -> JSONValue {
        let json: JSONValue
        do {
            json = try JSONValue.parse(try FileReader.read(url, limit: 1 << 20))
        } catch let error as FileReadError {
            throw invalid(path, "cannot read the TileJSON file: \(error.localizedDescription)")
        } catch {
            throw invalid(path, "the TileJSON file \(url.path) is not valid JSON: \(error)")
        }
        guard json.members != nil else { throw invalid(path, "the TileJSON file \(url.path) must hold a JSON object") }
        return json
    }

    func resolve(_ path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseURL.appendingPathComponent(path).standardizedFileURL
    }

}
