import Foundation
import MapData
import MapRaster

/// A failure of a render request, not of the server: answered as it says.
struct RenderRequestFault: Error {
    let response: HTTPResponse
}

extension MapServer {
    /// `/styles/{id}.json`, `/styles/{id}/style.json`, `/styles/{id}[/{256|512}]/{z}/{x}/{y}[@Nx].{format}`,
    /// `/styles/{id}/static/{area}/{w}x{h}[@Nx].{format}`.
    func styleRoute(_ parts: [String], _ request: HTTPRequest) -> (String, HTTPResponse) {
        if parts.count == 1, parts[0].hasSuffix(".json") {
            let id = String(parts[0].dropLast(5))
            guard let entry = configuration.styles.first(where: { $0.id == id }) else {
                return ("tilejson", unknownStyle(id))
            }
            return ("tilejson", json(tileJSON(entry, request)))
        }
        guard let id = parts.first, let entry = configuration.styles.first(where: { $0.id == id }) else {
            return ("styles", unknownStyle(parts.first ?? ""))
        }
        let rest = Array(parts.dropFirst())
        if rest == ["style.json"] {
            return ("style", json(servedStyle(entry, request)))
        }
        if rest == ["wmts.xml"] { return ("wmts", wmtsCapabilities(entry, request)) }
        if rest.first == "sources" { return ("data", styleSourceRoute(entry, Array(rest.dropFirst()), request)) }
        if rest.count == 1, rest[0].hasPrefix("sprite@") || rest[0].hasPrefix("sprite.") {
            return ("sprite", spriteFile(entry, spriteID: "default", file: String(rest[0].dropFirst(6))))
        }
        if rest.count == 2, rest[0] == "sprite" {
            let name = rest[1]
            let cut = name.firstIndex(where: { $0 == "@" || $0 == "." }) ?? name.endIndex
            return ("sprite", spriteFile(entry, spriteID: String(name[..<cut]), file: String(name[cut...])))
        }
        if rest.first == "static" {
            guard rest.count == 3 else {
                return (
                    "static",
                    .error(404, "use /styles/\(id)/static/{area}/{width}x{height}[@2x].png", parameter: "path")
                )
            }
            var effective = request
            if request.method == "POST" {
                do { effective = try Self.mergingStaticBody(request) } catch {
                    return ("static", error.response)
                }
            }
            let key = cacheKey(effective)
            return ("static", cached(key) { staticImage(entry, area: rest[1], size: rest[2], request: effective) })
        }
        if rest.count == 3 || rest.count == 4 {
            return ("tile", cached(request.path) { tile(entry, rest) })
        }
        return ("styles", .error(404, "no such path under /styles/\(id)", parameter: "path"))
    }

    func unknownStyle(_ id: String) -> HTTPResponse {
        .error(
            404, "no style '\(id)'; styles: " + configuration.styles.map(\.id).joined(separator: ", "),
            parameter: "style")
    }

    /// TileJSON 3.0 for a style's raster tiles.
    func tileJSON(_ entry: ServerConfiguration.StyleEntry, _ request: HTTPRequest) -> JSONValue {
        let attribution = entry.style.attribution.joined(separator: " | ")
        return .object([
            ("tilejson", .string("3.0.0")), ("name", .string(entry.style.name ?? entry.id)),
            ("tiles", .array([.string("\(baseURL(request))/styles/\(entry.id)/{z}/{x}/{y}.png")])),
            ("minzoom", .number(0)), ("maxzoom", .number(MapViewport.maximumZoomLevel)),
            ("bounds", .array([.number(-180), .number(-85.0511), .number(180), .number(85.0511)])),
            ("attribution", .string(attribution)), ("format", .string("png")), ("scheme", .string("xyz")),
        ])
    }

    /// The image format named by a file extension (`png`, `jpg`/`jpeg`, `webp`), or the error response.
    func format(_ name: String) -> (format: ImageFormat?, error: HTTPResponse?) {
        guard let format = ImageFormat(pathExtension: "x." + name) else {
            return (nil, .error(400, "unknown image format '\(name)'; use png, jpg or webp", parameter: "format"))
        }
        return (format, nil)
    }

    /// `NAME[@Nx].FORMAT` split: the name, the scale and the format.
    func splitScaleAndFormat(_ last: String) -> (name: String, scale: Int, format: String)? {
        guard let dot = last.lastIndex(of: ".") else { return nil }
        let format = String(last[last.index(after: dot)...])
        var name = String(last[..<dot])
        var scale = 1
        if let at = name.lastIndex(of: "@") {
            let suffix = name[name.index(after: at)...]
            guard suffix.hasSuffix("x"), let n = Int(suffix.dropLast()) else { return nil }
            scale = n
            name = String(name[..<at])
        }
        return (name, scale, format)
    }

    /// One raster tile: `{z}/{x}/{y}` are 256-point tiles of zoom z; with a leading 512 the same tile is
    /// drawn 512 points wide (one zoom more detail), as tileserver-gl serves them.
    func tile(_ entry: ServerConfiguration.StyleEntry, _ parts: [String]) -> HTTPResponse {
        var parts = parts
        var tileSize = 256
        if parts.count == 4 {
            guard let size = Int(parts[0]), size == 256 || size == 512 else {
                return .error(400, "tile size must be 256 or 512, got '\(parts[0])'", parameter: "tileSize")
            }
            tileSize = size
            parts.removeFirst()
        }
        guard let last = splitScaleAndFormat(parts[2]), let z = Int(parts[0]), let x = Int(parts[1]),
            let y = Int(last.name)
        else { return .error(404, "a tile is /{z}/{x}/{y}[@2x].png with whole numbers", parameter: "path") }
        // `@1x` is no suffix (tileserver-gl's tests expect 400 for it).
        guard (1...configuration.maximumScale).contains(last.scale), last.scale > 1 || !parts[2].contains("@") else {
            return .error(
                400, "scale @\(last.scale)x is not in 2...\(configuration.maximumScale) (no suffix: 1)",
                parameter: "scale")
        }
        let chosen = format(last.format)
        guard let imageFormat = chosen.format else { return chosen.error! }
        guard (0...Int(MapViewport.maximumZoomLevel)).contains(z), let id = try? TileID(z: z, x: x, y: y) else {
            return .error(
                400, "no tile \(z)/\(x)/\(y): zoom \(MapViewport.zoomRangeText), x and y in 0..<2^zoom",
                parameter: "tile")
        }
        // Scales the pyramid's grid has (1 and 2) come from metatiles, as `mapraster tiles` draws them.
        if last.scale <= 2 {
            return onWorker(contentType: imageFormat.mediaType) { deadline in
                try metatiles.tile(
                    id, of: entry, tileSize: tileSize, scale: last.scale, format: imageFormat,
                    metatileSize: configuration.metatileSize, compressionLevel: configuration.compressionLevel,
                    deadline: deadline)
            }
        }
        var options = MapSnapshotter.Options(
            size: Size(width: Double(tileSize), height: Double(tileSize)), scale: Double(last.scale))
        options.visibleMapRect = id.mapRect
        options.showsAttribution = false
        return render(options, format: imageFormat) { $0.baseMap = entry.baseMap }
    }

    /// Renders on a worker slot within the render deadline; `503` when no slot frees up in time or the
    /// render runs past the deadline. A request the options or the scene make impossible (an area needing a
    /// zoom past the limit, visible points outside the image) is a `400`; any other failure is a `500`,
    /// counted in `/metrics` as a server fault.
    func render(
        _ options: MapSnapshotter.Options, format: ImageFormat, populate: (MapSnapshotter) throws -> Void,
        metadata: Bool = false
    ) -> HTTPResponse {
        onWorker(contentType: metadata ? "application/json; charset=utf-8" : format.mediaType) { deadline in
            var options = options
            options.deadline = deadline
            let snapshotter: MapSnapshotter
            do { snapshotter = try MapSnapshotter(options: options) } catch {
                throw RenderRequestFault(response: .error(400, "\(error)", parameter: "area"))
            }
            try populate(snapshotter)
            let snapshot = try snapshotter.snapshot()
            if metadata { return Data(snapshot.metadata().serialized(pretty: false).utf8) }
            return try snapshot.image.encoded(as: format, compressionLevel: configuration.compressionLevel)
        }
    }

    /// Runs `work` on a worker slot with the request's render deadline (waiting counts) and answers its bytes
    /// as `contentType`, or the error it ends in, as ``render(_:format:populate:metadata:)`` says.
    func onWorker(contentType: String, _ work: (DispatchTime) throws -> Data) -> HTTPResponse {
        // On a worker the deadline runs from when the request was queued: waiting counts.
        let deadline = RequestContext.deadline ?? DispatchTime.now() + configuration.renderTimeout
        let outcome: Result<Data, Error>? = gate.run(until: deadline) {
            let start = DispatchTime.now().uptimeNanoseconds
            defer { metrics.rendered(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
            return Result { try work(deadline) }
        }
        switch outcome {
        case nil:
            metrics.refused(.busy)
            return .busy()
        case .failure(GraphicsError.deadlineExceeded)?:
            metrics.refused(.deadline)
            return .busy(
                "the render took longer than the \(configuration.renderTimeout) s deadline; retry, or ask for a "
                    + "smaller image")
        case .success(let data)?:
            return .data(data, contentType: contentType)
        case .failure(let error)?:
            if let fault = error as? RenderRequestFault { return fault.response }
            if let geometry = error as? GeometryError { return .error(400, geometry.description, parameter: "area") }
            if let visible = error as? SceneVisibilityError {
                return .error(400, visible.description, parameter: "visible")
            }
            if case RenderError.invalidOptions(let message)? = error as? RenderError {
                return .error(400, message, parameter: "area")
            }
            return .error(500, "rendering failed: \(error)", parameter: nil)
        }
    }

    /// `/styles/{id}/static/{lon},{lat},{zoom}/...`, `/static/{minx},{miny},{maxx},{maxy}/...` (zooms are
    /// tileserver-gl's and MapLibre's: 512-point tiles, one less than MapRaster's).
    func staticImage(
        _ entry: ServerConfiguration.StyleEntry, area: String, size: String, request: HTTPRequest
    ) -> HTTPResponse {
        guard let last = splitScaleAndFormat(size) else {
            return .error(400, "the size must be {width}x{height}[@2x].png, got '\(size)'", parameter: "size")
        }
        let dims = last.name.split(separator: "x", omittingEmptySubsequences: false)
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]) else {
            return .error(400, "the size must be {width}x{height}, got '\(last.name)'", parameter: "size")
        }
        let limit = configuration.maximumSize
        guard (1...limit).contains(w), (1...limit).contains(h) else {
            return .error(400, "width and height must be in 1...\(limit), got \(w)x\(h)", parameter: "size")
        }
        guard last.scale > 1 || !size.contains("@") else {
            return .error(404, "no @1x suffix: give none for scale 1", parameter: "scale")
        }
        guard (1...configuration.maximumScale).contains(last.scale) else {
            return .error(400, "scale @\(last.scale)x is not in 1...\(configuration.maximumScale)", parameter: "scale")
        }
        let chosen = format(last.format)
        guard let imageFormat = chosen.format else { return chosen.error! }
        let size = Size(width: Double(w), height: Double(h))
        let (parameters, parameterError) = tileserverParameters(request)
        guard let parameters else { return parameterError! }
        let (padding, paddingError) = tileserverPadding(request, size: size)
        guard let padding else { return paddingError! }
        let (maximumZoom, maximumZoomError) = tileserverMaximumZoom(request)
        guard let maximumZoom else { return maximumZoomError! }
        let (parsedArea, areaError) = Self.staticArea(area)
        guard let chosenArea = parsedArea else { return areaError! }
        if case .content = chosenArea, parameters.markers.isEmpty, parameters.paths.isEmpty {
            return .error(
                400, "static/auto fits the map to its marker= and path= parameters: give some", parameter: "area")
        }
        let (baseMap, contentError) = withMapContent(entry.baseMap, styleID: entry.id, request: request)
        if let contentError { return contentError }
        return staticMap(
            baseMap: baseMap, size: size, scale: Double(last.scale), area: chosenArea, parameters: parameters,
            padding: padding, maximumZoomLevel: maximumZoom, format: imageFormat)
    }

    /// tileserver-gl's static area: `auto`, `{lon},{lat},{zoom}[@{bearing}[,{pitch}]]` (its zoom: MapLibre's),
    /// Mapbox's `{lon},{lat},{zoom},{bearing},{pitch}`, or `{minx},{miny},{maxx},{maxy}`. A bearing is turned
    /// into 0..<360 and a pitch clamped to 0...60, as MapLibre Native's map does (tileserver-gl's tests ask for
    /// `@390,120` and `@15,80` and expect a map). A text that is none of these is no such path (`404`, as tileserver-gl's
    /// routes answer: a negative zoom, a trailing comma); numbers out of range are `400`. A box reaching past
    /// ±85.0511° is cut there (tileserver-gl draws `-180,-90,180,90`), one wholly beyond is a `400`; a box
    /// whose west is east of its east, or given past ±180° (`-280,-80,0,80`), crosses the antimeridian.
    static func staticArea(_ area: String) -> (StaticArea?, HTTPResponse?) {
        if area == "auto" { return (.content, nil) }
        let noSuchPath = HTTPResponse.error(
            404, "the area must be {lon},{lat},{zoom}, {minx},{miny},{maxx},{maxy} or auto, got '\(area)'",
            parameter: "area")
        var text = Substring(area)
        var camera: [Double] = []
        if let at = text.firstIndex(of: "@") {
            let parts = text[text.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false)
            let values = parts.map { Double($0) }
            guard (1...2).contains(values.count), values.allSatisfy({ $0?.isFinite == true }) else {
                return (nil, noSuchPath)
            }
            camera = values.compactMap { $0 }
            text = text[..<at]
        }
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { part -> Double? in
            // tileserver-gl's route has digits, '.' and '-' only ('nan', 'inf' and '1e5' are no path).
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }) else {
                return nil
            }
            return Double(part)
        }
        guard numbers.allSatisfy({ $0 != nil }), (3...5).contains(numbers.count) else {
            return (nil, noSuchPath)
        }
        var values = numbers.compactMap { $0 }
        if values.count == 5 {
            // Mapbox's form: the bearing and pitch follow the zoom.
            guard camera.isEmpty else { return (nil, noSuchPath) }
            camera = Array(values[3...])
            values = Array(values[..<3])
        }
        if values.count == 3 {
            let (lon, lat, zoom) = (values[0], values[1], values[2])
            guard zoom >= 0 else { return (nil, noSuchPath) }
            let bearing = camera.first ?? 0
            // The remainder is exact however large the bearing; -0 and 360 are north.
            let turn = bearing.truncatingRemainder(dividingBy: 360)
            let heading = turn < 0 ? turn + 360 : turn
            let pitch = min(
                max(camera.count > 1 ? camera[1] : 0, MapCamera.pitchRange.lowerBound),
                MapCamera.pitchRange.upperBound)
            guard abs(lat) <= 85.0511, abs(lon) <= 180, MapViewport.isValidZoomLevel(zoom + 1) else {
                return (
                    nil,
                    .error(
                        400,
                        "center longitude -180...180, latitude -85.0511...85.0511 and zoom 0..."
                            + "\(Int(MapViewport.maximumZoomLevel) - 1)", parameter: "area")
                )
            }
            return (
                .centerZoom(
                    LocationCoordinate2D(latitude: lat, longitude: lon), zoom + 1,
                    heading: heading < 360 ? heading + 0 : 0,
                    pitch: pitch), nil
            )
        }
        guard camera.isEmpty else { return (nil, noSuchPath) }
        var (west, south, east, north) = (values[0], values[1], values[2], values[3])
        let limit = 85.0511
        guard abs(west) <= 540, abs(east) <= 540, abs(south) <= 90, abs(north) <= 90, south < north,
            south < limit, north > -limit
        else {
            return (
                nil,
                .error(
                    400,
                    "the box must be minLon,minLat,maxLon,maxLat with latitudes overlapping -85.0511...85.0511 "
                        + "(Web Mercator), got '\(area)'", parameter: "area")
            )
        }
        south = max(south, -limit)
        north = min(north, limit)
        if east - west >= 360 {
            (west, east) = (-180, 180)
        } else {
            while west < -180 { west += 360 }
            while west > 180 { west -= 360 }
            while east < -180 { east += 360 }
            while east > 180 { east -= 360 }
        }
        do {
            return (.box(try GeoBoundingBox(validatingWest: west, south: south, east: east, north: north)), nil)
        } catch {
            return (nil, .error(400, "the box must be minLon,minLat,maxLon,maxLat: \(error)", parameter: "area"))
        }
    }

    /// `POST /render`: a scene file (the command line's format) in the body; the image, or with
    /// `?metadata=1` the metadata JSON (annotation frames, clusters).
    func renderScene(_ request: HTTPRequest) -> HTTPResponse {
        let scene: Scene
        do { scene = try Scene.decode(request.body, source: "request body") } catch {
            return .error(400, "\(error)", parameter: "body")
        }
        let defaults = MapSnapshotter.Options(size: Size(width: 512, height: 512))
        var baseMap: StyledBaseMap?
        if let id = request.parameter("style") {
            guard let entry = configuration.styles.first(where: { $0.id == id }) else { return unknownStyle(id) }
            baseMap = entry.baseMap
        }
        let options: MapSnapshotter.Options
        do { options = try scene.options(defaults: defaults) } catch {
            return .error(400, "\(error)", parameter: "body")
        }
        let limit = Double(configuration.maximumSize)
        guard options.size.width <= limit, options.size.height <= limit,
            options.scale <= Double(configuration.maximumScale)
        else {
            return .error(
                400,
                "size must be at most \(configuration.maximumSize) points a side and scale at most "
                    + "\(configuration.maximumScale)", parameter: "size")
        }
        let metadata = request.parameter("metadata") == "1"
        return render(
            options, format: .png,
            populate: { snapshotter in
                if let baseMap { snapshotter.baseMap = baseMap }
                scene.populate(snapshotter)
            }, metadata: metadata)
    }
}
