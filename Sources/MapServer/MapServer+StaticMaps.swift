import Foundation
import MapGeocoding
import MapRaster

/// The geocoder for place names in `center=`, loaded on first use (about 160 MB, under a second).
private let placeGeocoder = OnceCache<Int, Geocoder>()

/// Where a static map looks: a center and zoom (MapRaster's zoom), a box, or everything it draws.
enum StaticArea {
    /// A center and zoom (MapRaster's), turned to `heading` and tilted to `pitch` (degrees).
    case centerZoom(LocationCoordinate2D, Double, heading: Double = 0, pitch: Double = 0)
    case box(GeoBoundingBox)
    case content
}

extension MapServer {
    /// Renders a static map of `baseMap` with the markers, paths and visible points of `parameters`, on a
    /// worker slot. With ``StaticArea/content`` the view fits everything drawn with `padding` points to spare,
    /// as Google's implicit positioning does, at most at `maximumZoomLevel` (MapRaster's zoom). Visible points
    /// outside the image are a `400` naming `visible`.
    func staticMap(
        baseMap: StyledBaseMap?, size: Size, scale: Double, area: StaticArea, parameters: StaticMapParameters,
        padding: Double, maximumZoomLevel: Double = Scene.contentMaximumZoomLevel, format: ImageFormat
    ) -> HTTPResponse {
        var scene = Scene()
        let iconLoader: ((String) throws -> ImageSurface)?
        if configuration.iconsDirectory != nil {
            iconLoader = { name in try self.loadIcon(name) }
        } else {
            iconLoader = nil
        }
        do { try parameters.add(to: &scene, loadIcon: iconLoader) } catch let error as StaticMapParameterError {
            return .error(400, error.description, parameter: error.parameter)
        } catch { return .error(400, "\(error)", parameter: "marker") }
        if case .content = area, !scene.positionsFromContent {
            return .error(
                400, "with no center and zoom (or box) the map fits its markers, paths and visible points: give some",
                parameter: "center")
        }
        var options = MapSnapshotter.Options(size: size, scale: scale)
        switch area {
        case .centerZoom(let center, let zoom, let heading, let pitch):
            do {
                options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: zoom).visibleMapRect
                if heading != 0 || pitch != 0 {
                    let distance = MapCamera.distance(
                        forZoomLevel: zoom, latitude: center.latitude, height: size.height)
                    options.camera = try MapCamera(
                        lookingAtCenter: center, fromDistance: distance, pitch: pitch, heading: heading)
                }
            } catch { return .error(400, "\(error)", parameter: "zoom") }
        case .box(let box): options.visibleMapRect = box.mapRect
        case .content: break
        }
        let inset = EdgeInsets(top: padding, left: padding, bottom: padding, right: padding)
        return render(options, format: format) { snapshotter in
            if let baseMap { snapshotter.baseMap = baseMap }
            scene.populate(snapshotter)
            if case .content = area {
                try scene.showContent(in: snapshotter, edgePadding: inset, maximumZoomLevel: maximumZoomLevel)
            }
            try scene.checkVisibleCoordinates(in: snapshotter)
        }
    }

    /// A marker icon from the configured icons folder: a plain PNG file name (no folders), at most 1 MiB and
    /// 512 pixels a side.
    func loadIcon(_ name: String) throws -> ImageSurface {
        guard let folder = configuration.iconsDirectory, !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
            name.lowercased().hasSuffix(".png")
        else {
            throw ServerError.invalidConfiguration(
                "marker icon '\(name)': give the file name of a PNG in the icons folder")
        }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes?[.size] as? Int, size <= 1 << 20 else {
            throw ServerError.invalidConfiguration(
                "marker icon '\(name)': no such PNG of at most 1 MiB in the icons folder")
        }
        let image = try AnnotationView.loadImage(path: path)
        guard image.width <= 512, image.height <= 512 else {
            throw ServerError.invalidConfiguration("marker icon '\(name)': at most 512 pixels a side")
        }
        return image
    }

    /// The markers and paths of a tileserver-gl static request (`marker=`, `path=`, `latlng=1` for
    /// latitude-first points), parsed by the same parser as the command line's `--marker`/`--path`.
    func tileserverParameters(_ request: HTTPRequest) -> (StaticMapParameters?, HTTPResponse?) {
        let latitudeFirst = ["1", "true"].contains(request.parameter("latlng") ?? "")
        do {
            let markers = try StaticMapParameters(
                markers: request.parameters("marker"), syntax: .tileserverGL(latitudeFirst: latitudeFirst))
            // The query-wide path options, which each path's own override.
            let defaults = PathParameter.Defaults(
                stroke: request.parameter("stroke"), width: request.parameter("width"), fill: request.parameter("fill"),
                border: request.parameter("border"), borderWidth: request.parameter("borderwidth"),
                lineCap: request.parameter("linecap"), lineJoin: request.parameter("linejoin"))
            let paths = try StaticMapParameters(
                paths: request.parameters("path"), syntax: .tileserverGL(latitudeFirst: latitudeFirst),
                pathDefaults: defaults)
            var both = markers
            both.paths = paths.paths
            let total = both.paths.reduce(0) { $0 + $1.coordinates.count }
            guard total <= StaticMapParameters.maximumPathPoints else {
                return (
                    nil,
                    .error(400, "more than \(StaticMapParameters.maximumPathPoints) path points", parameter: "path")
                )
            }
            return (both, nil)
        } catch let error as StaticMapParameterError {
            return (nil, .error(400, error.description, parameter: error.parameter))
        } catch { return (nil, .error(400, "\(error)", parameter: "path")) }
    }

    /// tileserver-gl's `padding`: a share of the image's smaller side left free around fitted content
    /// (0...0.5, default 0.1), in points.
    func tileserverPadding(_ request: HTTPRequest, size: Size) -> (Double?, HTTPResponse?) {
        guard let text = request.parameter("padding") else { return (0.1 * min(size.width, size.height), nil) }
        guard let ratio = Double(text), ratio.isFinite, (0...0.5).contains(ratio) else {
            return (
                nil,
                .error(400, "padding must be a number in 0...0.5 (a share of the image size)", parameter: "padding")
            )
        }
        return (ratio * min(size.width, size.height), nil)
    }

    /// tileserver-gl's `maxzoom` for a fitted map (`static/auto`): the highest zoom the fit may choose, in its
    /// zoom (512-point tiles), so MapRaster's limit is one more and never above the content limit. As in
    /// tileserver-gl, a value of 0 or less sets no limit; a value that is not a finite number is a `400`.
    func tileserverMaximumZoom(_ request: HTTPRequest) -> (Double?, HTTPResponse?) {
        guard let text = request.parameter("maxzoom") else { return (Scene.contentMaximumZoomLevel, nil) }
        guard let zoom = Double(text), zoom.isFinite else {
            return (
                nil, .error(400, "maxzoom must be a number (a zoom level, as tileserver-gl's)", parameter: "maxzoom")
            )
        }
        return (zoom > 0 ? min(Scene.contentMaximumZoomLevel, zoom + 1) : Scene.contentMaximumZoomLevel, nil)
    }

    /// Google Static Maps' `/staticmap?center=&zoom=&size=&scale=&maptype=&format=&markers=&path=&visible=`
    /// (a documented subset; `style=ID` picks a configured style, `maptype` a shipped one). Without
    /// `center` and `zoom` the map fits its markers, paths and visible points.
    func googleStaticMap(_ request: HTTPRequest) -> HTTPResponse {
        guard let sizeText = request.parameter("size") else {
            return .error(400, "size is required: size=WIDTHxHEIGHT", parameter: "size")
        }
        let dims = sizeText.split(separator: "x", omittingEmptySubsequences: false)
        let limit = configuration.maximumSize
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]), (1...limit).contains(w),
            (1...limit).contains(h)
        else {
            return .error(400, "size must be WIDTHxHEIGHT, each 1...\(limit), got '\(sizeText)'", parameter: "size")
        }
        var scale = 1
        if let text = request.parameter("scale") {
            guard let s = Int(text), [1, 2, 4].contains(s), s <= max(configuration.maximumScale, 1) || s == 1 else {
                return .error(
                    400, "scale must be 1, 2 or 4 (at most \(configuration.maximumScale))", parameter: "scale")
            }
            scale = s
        }
        let formatName = (request.parameter("format") ?? "png").lowercased()
        let chosen = format(
            ["png8", "png32"].contains(formatName) ? "png" : formatName == "jpg-baseline" ? "jpg" : formatName)
        guard let imageFormat = chosen.format else { return chosen.error! }
        // The base map: style=ID of the configuration, else maptype's shipped style if configured.
        var baseMap: StyledBaseMap?
        var styleID: String?
        if let id = request.parameter("style") {
            guard let entry = configuration.styles.first(where: { $0.id == id }) else { return unknownStyle(id) }
            baseMap = entry.baseMap
            styleID = id
        } else {
            let maptype = request.parameter("maptype") ?? "roadmap"
            let names = ["roadmap": "standard", "terrain": "standard", "satellite": "satellite", "hybrid": "hybrid"]
            guard let name = names[maptype] else {
                return .error(400, "maptype must be roadmap, satellite, hybrid or terrain", parameter: "maptype")
            }
            let entry = configuration.styles.first { $0.id == name } ?? configuration.styles.first
            baseMap = entry?.baseMap
            styleID = entry?.id
        }
        let (contentMap, contentError) = withMapContent(baseMap, styleID: styleID, request: request)
        if let contentError { return contentError }
        baseMap = contentMap
        let parameters: StaticMapParameters
        do {
            parameters = try StaticMapParameters(
                markers: request.parameters("markers"), paths: request.parameters("path"),
                visible: request.parameters("visible"), syntax: .google)
        } catch let error as StaticMapParameterError {
            return .error(400, error.description, parameter: error.parameter)
        } catch { return .error(400, "\(error)", parameter: "markers") }
        let area: StaticArea
        switch (request.parameter("center"), request.parameter("zoom")) {
        case (nil, nil): area = .content
        case (let center?, let zoomText?):
            let parts = center.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            var coordinate: LocationCoordinate2D
            if parts.count == 2, let lat = parts[0], let lon = parts[1] {
                coordinate = LocationCoordinate2D(latitude: lat, longitude: lon)
            } else {
                // A place name, as Google accepts ("Brooklyn Bridge,New York,NY"): the offline geocoder's best match.
                guard center.count <= 200,
                    let geocoder = try? placeGeocoder.value(0, make: { try Geocoder(language: .english) }),
                    let best = try? geocoder.geocode(center, limit: 1).first
                else {
                    return .error(
                        400, "center must be LAT,LNG in degrees or a known place name; no place '\(center)'",
                        parameter: "center")
                }
                coordinate = best.coordinate
            }
            guard abs(coordinate.latitude) <= 85.0511, abs(coordinate.longitude) <= 180 else {
                return .error(
                    400, "center latitude must be within 85.0511 and longitude within 180", parameter: "center")
            }
            let lat = coordinate.latitude
            let lon = coordinate.longitude
            guard let zoom = Double(zoomText), zoom == zoom.rounded(), MapViewport.isValidZoomLevel(zoom) else {
                return .error(400, "zoom must be a whole number in \(MapViewport.zoomRangeText)", parameter: "zoom")
            }
            area = .centerZoom(LocationCoordinate2D(latitude: lat, longitude: lon), zoom)
        case (nil, _): return .error(400, "zoom needs center", parameter: "center")
        case (_, nil): return .error(400, "center needs zoom", parameter: "zoom")
        }
        return staticMap(
            baseMap: baseMap, size: Size(width: Double(w), height: Double(h)), scale: Double(scale), area: area,
            parameters: parameters, padding: 16, format: imageFormat)
    }
}
