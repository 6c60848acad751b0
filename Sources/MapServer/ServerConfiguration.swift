import Foundation
import MapData
import MapRaster
import MapStorage

/// What `mapraster serve` serves and within which limits: command-line flags for the simple case, or a
/// JSON file in the spirit of tileserver-gl's `config.json`:
///
/// ```json
/// {"options": {"bind": "127.0.0.1", "port": 8080, "maxSize": 2048, "maxScaleFactor": 3, "workers": 2,
///              "queue": 32, "renderTimeout": 30, "accessLog": "common", "cacheBytes": 67108864, "cacheControl": "public, max-age=3600",
///              "cors": "*", "publicUrl": "https://maps.example.com/", "paths": {"fonts": "fonts"}},
///  "styles": {"streets": {"style": "styles/streets.json"}},
///  "data": {"omt": {"mbtiles": "tiles/planet.mbtiles"}}}
/// ```
///
/// Paths are relative to the configuration file. A style's source written `mbtiles://{omt}` or
/// `pmtiles://{omt}` reads data `omt`, as in tileserver-gl, and so does a source `omt` whose `url` or `tiles`
/// is a network location (the published OpenMapTiles styles, served over local tiles as they are). A style
/// entry may give `"sprite": PATH`, a local
/// sprite (`PATH.json`, `PATH.png`, `PATH@2x.*`) read instead of the style's own (a network one, say).
/// `options.fonts` is a folder of font files (.ttf, .otf) text is drawn with; `options.paths.fonts` a folder of
/// glyph PBFs served to GL clients (tileserver-gl's).
public struct ServerConfiguration: Sendable {
    /// A style served under an id.
    public struct StyleEntry: Sendable {
        /// The id in URLs (`/styles/{id}/...`).
        public var id: String
        /// The decoded style.
        public var style: Style
        /// The style file's JSON as served at `/styles/{id}/style.json`.
        public var json: Data
        /// The style prepared for drawing once (its files checked), shared by every render.
        public var baseMap: StyledBaseMap

        /// An entry for `style`, checking its files and fonts; with `glyphs` (the server's glyph folder) its
        /// labels are drawn from those SDF glyphs, the ones GL clients get at `/fonts`, as tileserver-gl draws
        /// with its fonts folder.
        ///
        /// - Throws: ``RenderError/missingData(name:reason:)`` naming what is missing.
        public init(
            id: String, style: Style, json: Data, fonts: FontCatalog = .default,
            glyphs: (any GlyphRangeProvider)? = nil
        ) throws {
            self.id = id
            self.style = style
            self.json = json
            baseMap = try StyledBaseMap(style: style, fonts: fonts, glyphs: glyphs)
        }
    }

    /// A tile file served under an id (`/data/{id}/...`).
    public struct DataEntry: Sendable {
        /// The id in URLs.
        public var id: String
        /// The `.mbtiles` or `.pmtiles` file, or a `{z}/{x}/{y}` template.
        public var location: String
        /// The file, opened once.
        public var source: any TileSource
    }

    /// The address to listen on: 127.0.0.1 unless told otherwise.
    public var address = "127.0.0.1"
    /// The TCP port (0: any free port).
    public var port = 8080
    /// Styles in the order given.
    public var styles: [StyleEntry] = []
    /// Tile files in the order given.
    public var data: [DataEntry] = []
    /// The largest width or height of an image, in points (tileserver-gl's `maxSize`).
    public var maximumSize = 2048
    /// The largest `@Nx` scale (tileserver-gl's `maxScaleFactor`).
    public var maximumScale = 3
    /// Images rendered at once.
    public var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Requests that may wait for a worker; more get `503` with `Retry-After`.
    public var queueLimit = 32
    /// The render deadline, in seconds: a request that has waited for a worker and rendered this long in all
    /// gets `503` with `Retry-After`; a render past it stops between layers.
    public var renderTimeout = 30.0
    /// The access log's format (one line per request, on standard error for `mapraster serve`).
    public var accessLog = AccessLogFormat.common
    /// Bytes of rendered images and tiles kept in memory (least recently used first out).
    public var cacheBytes = 64 << 20
    /// Tiles per side of the metatiles raster tiles are drawn in (as `mapraster tiles --metatile`): a tile is
    /// cut from its metatile, drawn once for all its tiles, so that a served tile is byte-identical to the tile
    /// `mapraster tiles` writes with the same metatile size. Halved while a metatile would be over
    /// ``maximumMetatilePixels`` a side; 1 draws every tile on its own.
    public var metatileSize = 8
    /// The zlib level (0...9) of the PNG images the server draws: static maps and tiles (as `mapraster tiles
    /// --compression`, so served tiles stay byte-identical to written ones). 6 by default; 1 is MapLibre
    /// Native's effort and takes about a sixth of the encoding time for files about a fifth larger.
    public var compressionLevel = 6
    /// The largest side of a metatile's image, in device pixels.
    public static let maximumMetatilePixels = 4096
    /// `Cache-Control` of images, tiles and JSON.
    public var cacheControl = "public, max-age=3600"
    /// `Access-Control-Allow-Origin`, or nil for none.
    public var cors: String? = "*"
    /// The server's public URL for TileJSON `tiles`; nil uses the request's `Host`.
    public var publicURL: String?
    /// The largest request body (`POST /render`), in bytes.
    public var bodyLimit = 1 << 20
    /// The longest query, in bytes; longer is `414`.
    public var queryLimit = 16_384
    /// The most query parameters; more is `414`.
    public var parameterLimit = 256
    /// Connections open at once (`connectionLimit`, `--max-connections`), at most what the process's
    /// file-descriptor limit (`RLIMIT_NOFILE`, raised to its hard limit at start) leaves after a reserve of 128.
    /// A connection over the limit gets `503` with `Retry-After` and is closed.
    public var connectionLimit = 10_000
    /// Connections open at once from one client address (`connectionsPerClient`); more are closed at once.
    /// 0: no limit (behind a reverse proxy every client has the proxy's address).
    public var connectionsPerClient = 256
    /// Seconds a connection has to send a complete request head, from its opening or from its previous
    /// response (`headTimeout`): a client that sends a byte at a time cannot keep a connection forever.
    public var headTimeout = 10
    /// Seconds without a byte received or sent before a connection is closed (`keepAliveTimeout`): the idle
    /// time allowed between requests on a kept-alive connection.
    public var keepAliveTimeout = 5
    /// Threads reading and writing connections (`ioThreads`), each an epoll loop; renders never run on them.
    public var ioThreads = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// The folder of marker icons that tileserver-gl markers (`marker=LNG,LAT|NAME.png`) may name, by file
    /// name only; nil refuses icons (tileserver-gl's `paths.icons`).
    public var iconsDirectory: String?
    /// How styles are read (``addStyle(id:path:sprite:)``): strict or lenient (the default, MapLibre's).
    public var styleOptions = StyleLoadOptions()
    /// What lenient reads of the styles left out, one line each (at most 20 per style).
    public var styleWarnings: [String] = []
    /// The fonts the styles' `text-font` stacks resolve to (set before ``addStyle(id:path:sprite:)``).
    public var fonts: FontCatalog = .default
    /// A folder of glyph PBFs (`{font}/{start}-{end}.pbf`, tileserver-gl's `paths.fonts`) served at
    /// `/fonts/{fontstack}/{range}.pbf` before glyphs made from ``fonts``; nil serves made glyphs only. Styles
    /// added after it is set draw their labels from it (MapLibre's SDF text), as tileserver-gl renders with its
    /// fonts folder.
    public var glyphFolder: GlyphFolder?
    /// Where Leaflet is (Debian's libjs-leaflet) for the viewer page.
    public var leafletDirectory = "/usr/share/javascript/leaflet"

    /// An empty configuration (add styles and data).
    public init() {}

    /// The shipped styles (`standard`, `satellite`, `hybrid`, `muted`, `streets` and the dark `standard-dark` and
    /// `streets-dark`): what `serve` with no arguments serves.
    public static func shippedStyles() throws -> [StyleEntry] {
        try ShippedStyle.allCases.map { shipped in
            guard let url = shipped.url else {
                throw ServerError.invalidConfiguration("the shipped style '\(shipped.rawValue)' is not installed")
            }
            return try StyleEntry(id: shipped.rawValue, style: try shipped.style(), json: try FileReader.read(url))
        }
    }

    /// Adds the style file at `path` as `id`, reading `mbtiles://{name}` sources from this configuration's data,
    /// with ``styleOptions`` (strict or lenient) and `sprite` (a local sprite path replacing the style's).
    /// What a lenient read leaves out is added to ``styleWarnings``.
    ///
    /// - Throws: ``ServerError/invalidConfiguration(_:)`` for a bad id, a duplicate, or a style that does not load.
    public mutating func addStyle(id: String, path: String, sprite: String? = nil) throws {
        try Self.checkID(id, kind: "style")
        guard !styles.contains(where: { $0.id == id }) else {
            throw ServerError.invalidConfiguration("the style id '\(id)' is given twice")
        }
        let url = URL(fileURLWithPath: path)
        let raw: Data
        do { raw = try FileReader.read(url) } catch {
            throw ServerError.invalidConfiguration("style '\(id)': cannot read \(path): \(error.problem)")
        }
        var text = String(decoding: raw, as: UTF8.self)
        for entry in data {
            let absolute = URL(fileURLWithPath: entry.location).standardizedFileURL.path
            for scheme in ["mbtiles", "pmtiles"] {
                text = text.replacingOccurrences(of: "\(scheme)://{\(entry.id)}", with: "\(scheme)://\(absolute)")
            }
        }
        do {
            var options = styleOptions
            if let sprite { options.sprites["default"] = sprite }
            // A network source named like a data entry reads it: a published style served over local tiles.
            for (name, source) in (try? JSONValue.parse(Data(text.utf8)))?["sources"]?.members ?? [] {
                guard options.sources[name] == nil, let entry = data.first(where: { $0.id == name }),
                    let location = source["url"]?.string ?? source["tiles"]?.array?.first?.string,
                    StyleSource.isNetworkLocation(location)
                else { continue }
                options.sources[name] = entry.location
            }
            let style = try Style.decode(
                Data(text.utf8), source: path, baseURL: url.deletingLastPathComponent(), options: options)
            styleWarnings += style.warnings.lines(limit: 20).map { "style '\(id)': \(path): \($0)" }
            styles.append(try StyleEntry(id: id, style: style, json: raw, fonts: fonts, glyphs: glyphFolder))
        } catch {
            throw ServerError.invalidConfiguration("style '\(id)': \(error)")
        }
    }

    /// Adds a tile file as `id`.
    ///
    /// - Throws: ``ServerError/invalidConfiguration(_:)`` for a bad id, a duplicate, or a file that does not open.
    public mutating func addData(id: String, path: String) throws {
        try Self.checkID(id, kind: "data")
        guard !data.contains(where: { $0.id == id }) else {
            throw ServerError.invalidConfiguration("the data id '\(id)' is given twice")
        }
        let source: any TileSource
        do { source = try openTileSource(at: path) } catch {
            throw ServerError.invalidConfiguration("data '\(id)': \(error)")
        }
        data.append(DataEntry(id: id, location: path, source: source))
    }

    /// Ids appear in URLs: letters, digits, `-`, `_` and `.` only, 1 to 64 of them.
    static func checkID(_ id: String, kind: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard (1...64).contains(id.count), id.allSatisfy(allowed.contains), id != ".", id != ".." else {
            throw ServerError.invalidConfiguration(
                "\(kind) id '\(id)' must be 1 to 64 letters, digits, '-', '_' or '.'")
        }
    }

    /// Reads a configuration file (see the type's documentation).
    ///
    /// - Throws: ``ServerError/invalidConfiguration(_:)`` naming the member that is wrong.
    public static func load(
        contentsOf url: URL, styleOptions: StyleLoadOptions = StyleLoadOptions()
    ) throws -> ServerConfiguration {
        let json: JSONValue
        do { json = try JSONValue.parse(try FileReader.read(url, limit: 1 << 20)) } catch {
            throw ServerError.invalidConfiguration("\(url.path): \(error)")
        }
        let base = url.deletingLastPathComponent()
        func path(_ value: String) -> String {
            value.hasPrefix("/") ? value : base.appendingPathComponent(value).standardizedFileURL.path
        }
        var config = ServerConfiguration()
        config.styleOptions = styleOptions
        let known: Set<String> = ["options", "styles", "data"]
        for (key, _) in json.members ?? [] where !known.contains(key) {
            throw ServerError.invalidConfiguration("\(url.path): unknown member '\(key)'; use options, styles, data")
        }
        if let options = json["options"] {
            guard let members = options.members else {
                throw ServerError.invalidConfiguration("options: must be an object")
            }
            for (key, value) in members {
                func integer(_ range: ClosedRange<Int>) throws -> Int {
                    guard let n = value.number, n == n.rounded(), let i = Int(exactly: n), range.contains(i) else {
                        throw ServerError.invalidConfiguration(
                            "options.\(key): must be a whole number in \(range.lowerBound)...\(range.upperBound)")
                    }
                    return i
                }
                func string() throws -> String {
                    guard let s = value.string else {
                        throw ServerError.invalidConfiguration("options.\(key): must be a string")
                    }
                    return s
                }
                switch key {
                case "bind": config.address = try string()
                case "port": config.port = try integer(0...65_535)
                case "maxSize": config.maximumSize = try integer(1...16_384)
                case "maxScaleFactor": config.maximumScale = try integer(1...4)
                case "workers": config.workers = try integer(1...256)
                case "queue": config.queueLimit = try integer(0...100_000)
                case "connectionLimit": config.connectionLimit = try integer(1...1_000_000)
                case "connectionsPerClient": config.connectionsPerClient = try integer(0...1_000_000)
                case "headTimeout": config.headTimeout = try integer(1...3_600)
                case "keepAliveTimeout": config.keepAliveTimeout = try integer(1...3_600)
                case "ioThreads": config.ioThreads = try integer(1...64)
                case "maxParameters": config.parameterLimit = try integer(1...10_000)
                case "renderTimeout":
                    guard let seconds = value.number, (0.05...3_600).contains(seconds) else {
                        throw ServerError.invalidConfiguration("options.renderTimeout: must be seconds in 0.05...3600")
                    }
                    config.renderTimeout = seconds
                case "accessLog":
                    let name = try string()
                    guard let format = AccessLogFormat(rawValue: name) else {
                        throw ServerError.invalidConfiguration(
                            "options.accessLog: '\(name)' is not common, json or off")
                    }
                    config.accessLog = format
                case "cacheBytes": config.cacheBytes = try integer(0...(1 << 40))
                case "metatile": config.metatileSize = try integer(1...64)
                case "cacheControl": config.cacheControl = try string()
                case "cors": config.cors = value == .null ? nil : try string()
                case "publicUrl": config.publicURL = try string()
                case "maxBodyBytes": config.bodyLimit = try integer(1...(256 << 20))
                case "leaflet": config.leafletDirectory = path(try string())
                case "icons": config.iconsDirectory = path(try string())
                case "paths":
                    for (name, folder) in value.members ?? [] {
                        guard name == "fonts", let folder = folder.string else {
                            throw ServerError.invalidConfiguration(
                                "options.paths.\(name): only paths.fonts (a folder of glyph PBFs) is read")
                        }
                        do { config.glyphFolder = try GlyphFolder(directory: path(folder)) } catch {
                            throw ServerError.invalidConfiguration("options.paths.fonts: \(error.description)")
                        }
                    }
                case "fonts":
                    do { config.fonts = try FontCatalog(directories: [path(try string())]) } catch let error
                        as GraphicsError
                    {
                        throw ServerError.invalidConfiguration("options.fonts: \(error.description)")
                    }
                default:
                    throw ServerError.invalidConfiguration(
                        "options.\(key): unknown option; known: bind, port, maxSize, maxScaleFactor, workers, queue, "
                            + "connectionLimit, connectionsPerClient, headTimeout, keepAliveTimeout, ioThreads, "
                            + "maxParameters, renderTimeout, accessLog, cacheBytes, metatile, cacheControl, cors, publicUrl, "
                            + "maxBodyBytes, leaflet, icons, fonts, paths"
                    )
                }
            }
        }
        for (id, value) in json["data"]?.members ?? [] {
            guard let file = value["mbtiles"]?.string ?? value["pmtiles"]?.string ?? value["tiles"]?.string else {
                throw ServerError.invalidConfiguration("data.\(id): give {\"mbtiles\": PATH} or {\"pmtiles\": PATH}")
            }
            try config.addData(id: id, path: path(file))
        }
        for (id, value) in json["styles"]?.members ?? [] {
            guard let file = value["style"]?.string else {
                throw ServerError.invalidConfiguration("styles.\(id): give {\"style\": PATH}")
            }
            try config.addStyle(id: id, path: path(file), sprite: value["sprite"]?.string.map(path))
        }
        return config
    }
}
