import Foundation
import MapData
import MapRaster
import MapStorage

/// Tile files that styles read but the configuration does not serve as data, opened on first request.
private let styleTileSources = OnceCache<String, TileSourceBox>(capacity: 256)

private final class TileSourceBox: Sendable {
    let source: any TileSource
    init(_ source: any TileSource) { self.source = source }
}

extension MapServer {
    /// The style as a MapLibre GL client needs it (tileserver-gl does the same), every URL absolute (from the
    /// public URL or the request's host):
    /// - a vector or raster tile source reads `/data/{id}.json` when a configured data file holds it, else
    ///   `/styles/{style}/sources/{source}.json` (the file the style names, served as is);
    /// - a GeoJSON file source reads `/files/{style}/{source}.geojson`;
    /// - `sprite` is `/styles/{style}/sprite` (or one `/styles/{style}/sprite/{id}` per sprite);
    /// - MapRaster's equirectangular image source (a `raster` source naming a `.png`) has no GL equivalent: it
    ///   is left out with the layers that draw it.
    /// - `glyphs` is `/fonts/{fontstack}/{range}.pbf` (the fonts folder's PBFs, or glyphs made from the
    ///   installed fonts).
    func servedStyle(_ entry: ServerConfiguration.StyleEntry, _ request: HTTPRequest) -> JSONValue {
        guard let json = try? JSONValue.parse(entry.json), var members = json.members else { return .object([]) }
        let base = baseURL(request)
        let served = Dictionary(
            configuration.data.map { (Self.normalized($0.location), $0.id) }, uniquingKeysWith: { first, _ in first })
        var dropped: Set<String> = []
        if let index = members.firstIndex(where: { $0.0 == "sources" }), var sources = members[index].1.members {
            for i in sources.indices {
                let (id, value) = sources[i]
                guard var source = value.members else { continue }
                switch entry.style.sources[id]?.kind {
                case .vector(let tiles)?, .rasterTiles(let tiles)?:
                    source.removeAll { $0.0 == "url" || $0.0 == "tiles" }
                    let url =
                        served[Self.normalized(tiles.location)].map { "\(base)/data/\($0).json" }
                        ?? "\(base)/styles/\(entry.id)/sources/\(id).json"
                    source.append(("url", .string(url)))
                case .geojsonFile?:
                    source.removeAll { $0.0 == "data" }
                    source.append(("data", .string("\(base)/files/\(entry.id)/\(id).geojson")))
                case .raster?:
                    dropped.insert(id)
                    continue
                default: continue
                }
                sources[i] = (id, .object(source))
            }
            sources.removeAll { dropped.contains($0.0) }
            members[index] = ("sources", .object(sources))
        }
        if let index = members.firstIndex(where: { $0.0 == "layers" }), let layers = members[index].1.array {
            members[index] = (
                "layers", .array(layers.filter { !dropped.contains($0["source"]?.string ?? "") })
            )
        }
        members.removeAll { $0.0 == "sprite" || $0.0 == "glyphs" }
        members.append(("glyphs", .string("\(base)/fonts/{fontstack}/{range}.pbf")))
        let sprites = entry.style.sprites
        if sprites.count == 1, sprites[0].id == "default" {
            members.append(("sprite", .string("\(base)/styles/\(entry.id)/sprite")))
        } else if !sprites.isEmpty {
            members.append(
                (
                    "sprite",
                    .array(
                        sprites.map {
                            .object([
                                ("id", .string($0.id)), ("url", .string("\(base)/styles/\(entry.id)/sprite/\($0.id)")),
                            ])
                        })
                ))
        }
        return .object(members)
    }

    static func normalized(_ location: String) -> String {
        var path = location
        for prefix in ["mbtiles://", "pmtiles://"] where path.hasPrefix(prefix) { path.removeFirst(prefix.count) }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// `/styles/{style}/sources/{source}.json` (TileJSON) and `.../sources/{source}/{z}/{x}/{y}.{ext}`: the tile
    /// file a style's source names, when no configured data file holds it.
    func styleSourceRoute(_ entry: ServerConfiguration.StyleEntry, _ parts: [String], _ request: HTTPRequest)
        -> HTTPResponse
    {
        let name = parts.first.map { $0.hasSuffix(".json") && parts.count == 1 ? String($0.dropLast(5)) : $0 } ?? ""
        let location: String
        switch entry.style.sources[name]?.kind {
        case .vector(let tiles)?, .rasterTiles(let tiles)?: location = tiles.location
        default: return .error(404, "style '\(entry.id)' has no tile source '\(name)'", parameter: "source")
        }
        let source: any TileSource
        do {
            source = try styleTileSources.value(Self.normalized(location)) {
                TileSourceBox(try openTileSource(at: Self.normalized(location)))
            }.source
        } catch { return .error(404, "the tiles of source '\(name)' cannot be read", parameter: "source") }
        let data = ServerConfiguration.DataEntry(id: name, location: location, source: source)
        if parts.count == 1 {
            var tileJSON = dataTileJSON(data, source.info, request)
            if case .object(var members) = tileJSON, let index = members.firstIndex(where: { $0.0 == "tiles" }) {
                let url =
                    "\(baseURL(request))/styles/\(entry.id)/sources/\(name)/{z}/{x}/{y}."
                    + Self.fileExtension(source.info.format)
                members[index] = ("tiles", .array([.string(url)]))
                tileJSON = .object(members)
            }
            return json(tileJSON)
        }
        return dataTile(data, Array(parts.dropFirst()))
    }
}
