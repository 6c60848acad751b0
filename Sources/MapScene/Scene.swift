import Foundation
import MapAnnotations
import MapBaseMap
import MapData
import MapGeometry
import MapGraphics
import MapOverlays
import MapRender
import MapStyle

/// A map described in a JSON file: the area, the image size, and GeoJSON features that become
/// annotations and overlays styled with the simplestyle-spec properties.
///
/// ```json
/// { "center": [60.17, 24.94], "meters": 2000, "size": [800, 600], "scale": 2,
///   "features": { "type": "FeatureCollection", "features": [
///     { "type": "Feature", "geometry": { "type": "Point", "coordinates": [24.94, 60.17] },
///       "properties": { "title": "Helsinki", "marker-color": "#00aa00" } } ] } }
/// ```
///
/// Top-level members: `center` ([lat, lon] or {latitude, longitude}) with one of `span` ([dLat, dLon] or
/// {latitudeDelta, longitudeDelta}), `meters` (a square region) or `zoom`; or `bbox` ([west, south, east,
/// north]); `size` ([width, height] in points, or "WxH"); `scale` (1, 2, 3); `mapType`; `attribution`
/// (bool); `camera` ({heading, pitch, altitude}, ``SceneCamera``); `features` (a GeoJSON FeatureCollection). Points become pins (`title`, `subtitle`,
/// `marker-color`, `marker-size` small/medium/large, `marker-symbol` drawn on the pin), except Points with a `radius` in meters, which
/// become circles. LineStrings become polylines (great circles with `"geodesic": true`) and Polygons
/// polygons (holes from inner rings), styled by `stroke`, `stroke-width`, `stroke-opacity`,
/// `stroke-dasharray`, `fill` and `fill-opacity`.
///
/// Annotations: Point properties `marker-image`, `marker-image-scale`, `marker-offset`, `pin-color`,
/// `selected`, `callout-left-image`, `callout-right-image`, `clustering-identifier`, `display-priority` and
/// `collision-mode` (see ``MarkerOptions``);
/// top-level `userLocation` (see ``SceneUserLocation``) and `fitAnnotations` (true, or
/// `{"padding": points or [top, left, bottom, right]}`: show every annotation's whole view, overriding the
/// area). A scene with no area positions itself from its content: see ``showContent(in:edgePadding:)``.
/// Static-map parameters (``StaticMapParameters``) add markers, paths and visible points.
public struct Scene {
    /// The area, if the file gives one.
    public var area: MapArea?
    /// The image size in points, if given.
    public var size: Size?
    /// Device pixels per point, if given.
    public var scale: Double?
    /// The map type, if given.
    public var mapType: MapType?
    /// Whether to print the attribution, if given.
    public var showsAttribution: Bool?
    /// Pins, with their look.
    public var annotations: [(annotation: PointAnnotation, pin: PinStyle)] = []
    /// Overlays with their look, back to front.
    public var overlays: [(overlay: Overlay, style: ShapeStyle)] = []
    /// The user location to show, if given (`userLocation`).
    public var userLocation: SceneUserLocation?
    /// Whether to fit the view to the annotations, and with what edge padding (`fitAnnotations`).
    public var fitAnnotations: EdgeInsets?
    /// Marker images by resolved path, loaded when the file was decoded.
    public var markerImages: [String: ImageSurface] = [:]
    /// Points the image must show (the static-map `visible` parameter): part of the implicit fit, and
    /// checked by ``checkVisibleCoordinates(in:)`` when an area is given.
    public var visibleCoordinates: [LocationCoordinate2D] = []
    /// The camera's heading, pitch and altitude, if given (`camera`, ``SceneCamera``).
    public var camera: SceneCamera?
    /// Which points of interest are drawn, if given (`pointOfInterestFilter`: the text form of
    /// ``PointOfInterestFilter/init(parsing:)``, e.g. `"including:restaurant,cafe"` or `"excludingAll"`).
    public var pointOfInterestFilter: PointOfInterestFilter?
    /// Whether buildings are drawn, if given (`showsBuildings`).
    public var showsBuildings: Bool?
    /// Whether labels of different style sources keep out of each other, if given
    /// (`crossSourceCollisions`, MapLibre's map option).
    public var crossSourceCollisions: Bool?
    /// The appearance, if given (`appearance`: `"light"` or `"dark"`).
    public var userInterfaceStyle: UserInterfaceStyle?

    /// A pin's look.
    public struct PinStyle: Sendable, Equatable {
        public var color: Color
        public var sizeFactor: Double
        /// Image marker, selection, clustering, priority and collision mode.
        public var marker = MarkerOptions()
        /// Text drawn on the pin's head (a letter, digit or up to 3 characters), from simplestyle's
        /// `marker-symbol` or a static-map `label:`.
        public var label: String?
    }

    /// A shape's look, from simplestyle-spec properties (the same reading as ``GeoJSONDecoder``'s).
    public typealias ShapeStyle = SimpleStyle

    /// Creates an empty scene.
    public init() {}

    static let topLevelKeys: Set<String> = [
        "center", "span", "meters", "zoom", "bbox", "size", "scale", "mapType", "attribution", "features",
        "userLocation", "fitAnnotations", "camera", "pointOfInterestFilter", "showsBuildings", "appearance",
        "crossSourceCollisions",
    ]

    /// Decodes a scene file.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - source: the file's name for error messages.
    ///   - resolvePlace: turns a place name into a coordinate (a geocoder's best match), for a `center`
    ///     given as a name and for features with `"geometry": null` and a `place` property; nil refuses
    ///     names.
    /// - Throws: ``SceneError`` (with line and column for JSON syntax errors), ``GeoJSONError`` or
    ///   ``GeometryError``, each naming the file and the bad value.
    public static func decode(_ data: Data, source: String, resolvePlace: PlaceResolver? = nil) throws -> Scene {
        try decode(
            try parse(data, source: source), source: source, loadImage: AnnotationView.loadImage(path:),
            resolvePlace: resolvePlace)
    }

    /// Turns a place name into a coordinate; throws when there is no such place.
    public typealias PlaceResolver = @Sendable (String) throws -> LocationCoordinate2D

    static func parse(_ data: Data, source: String) throws -> JSONValue {
        do { return try JSONValue.parse(data) } catch let error as JSONError {
            throw SceneError.syntax(source: source, error)
        }
    }

    static func decode(
        _ json: JSONValue, source: String, loadImage: @escaping (String) throws -> ImageSurface,
        resolvePlace: PlaceResolver?
    ) throws -> Scene {
        let d = SceneDecoder(source: source, loadImage: loadImage, resolvePlace: resolvePlace)
        guard let members = json.members else {
            throw d.invalid("(top level)", "expected a JSON object, got \(json.kindName)")
        }
        for (key, _) in members where !topLevelKeys.contains(key) {
            throw d.invalid(key, "unknown member; expected one of \(topLevelKeys.sorted().joined(separator: ", "))")
        }
        var scene = Scene()
        if let camera = json["camera"] { scene.camera = try SceneCamera.decode(camera, d) }
        scene.area = try d.area(json, altitude: scene.camera?.altitude != nil)
        if let scale = json["scale"] {
            guard let value = scale.number, MapViewport.isValidScale(value) else {
                throw d.invalid("scale", "must be \(MapViewport.validScalesText)")
            }
            scene.scale = value
        }
        if let size = json["size"] {
            let points = try d.size(size)
            _ = try d.checked("size") { try PixelSize(points: points, scale: scene.scale ?? 1) }
            scene.size = points
        }
        if let type = json["mapType"] {
            guard let name = type.string, let mapType = MapType(rawValue: name) else {
                throw d.invalid("mapType", "must be \"standard\", \"satellite\" or \"hybrid\"")
            }
            scene.mapType = mapType
        }
        if let attribution = json["attribution"] {
            guard let flag = attribution.bool else { throw d.invalid("attribution", "must be true or false") }
            scene.showsAttribution = flag
        }
        try d.mapContent(json, into: &scene)
        if let features = json["features"] {
            for feature in try GeoJSON.decodeFeatures(features, source: source, path: "features") {
                try d.add(feature, to: &scene)
            }
        }
        try d.annotationSettings(json, into: &scene)
        return scene
    }

    /// Creates snapshot options from the scene, with `defaults` for what it leaves out.
    public func options(defaults: MapSnapshotter.Options) throws -> MapSnapshotter.Options {
        var options = defaults
        if let size { options.size = size }
        if let scale { options.scale = scale }
        if let mapType { options.mapType = mapType }
        if let showsAttribution { options.showsAttribution = showsAttribution }
        if let pointOfInterestFilter { options.pointOfInterestFilter = pointOfInterestFilter }
        if let showsBuildings { options.showsBuildings = showsBuildings }
        if let crossSourceCollisions { options.crossSourceCollisions = crossSourceCollisions }
        if let userInterfaceStyle { options.userInterfaceStyle = userInterfaceStyle }
        try (area ?? .world).apply(to: &options)
        if let camera {
            switch area {
            case .centerAltitude(let center)?:
                options.camera = camera.mapCamera(center: center)
            case .world?, nil:
                // The whole world, turned; the content fit may replace it.
                options.visibleMapRect = .world
                options.camera = camera.mapCamera(center: LocationCoordinate2D(latitude: 0, longitude: 0))
            case .boundingBox(let box)?:
                // Fitted as the turned view sees it: the camera that shows the box.
                var viewport = try MapViewport(size: options.size, scale: options.scale)
                try viewport.setHeading(camera.heading ?? 0, pitch: camera.pitch ?? 0)
                viewport.setVisibleMapRect(box.mapRect)
                options.visibleMapRect = nil
                var fitted = viewport.camera
                fitted.heading = camera.heading ?? 0
                options.camera = fitted
            default:
                options.camera = camera.mapCamera(center: LocationCoordinate2D(latitude: 0, longitude: 0))
            }
        }
        return options
    }

    /// Adds the scene's annotations and overlays to a snapshotter, with view and renderer providers that
    /// give them their simplestyle look.
    public func populate(_ snapshotter: MapSnapshotter) {
        var pins: [ObjectIdentifier: PinStyle] = [:]
        for (annotation, pin) in annotations {
            pins[ObjectIdentifier(annotation)] = pin
            snapshotter.addAnnotation(annotation)
        }
        var styles: [ObjectIdentifier: ShapeStyle] = [:]
        for (overlay, style) in overlays {
            styles[ObjectIdentifier(overlay)] = style
            snapshotter.addOverlay(overlay)
        }
        snapshotter.viewProvider = { annotation in
            guard let pin = pins[ObjectIdentifier(annotation)] else { return nil }
            return self.makeView(pin)
        }
        snapshotter.rendererProvider = { overlay in
            styles[ObjectIdentifier(overlay)]?.makeRenderer(for: overlay)
        }
        applyAnnotationSettings(to: snapshotter)
    }
}

/// A scene file that is not valid (see ``DocumentError``).
public typealias SceneError = DocumentError

struct SceneDecoder {
    let source: String
    /// Loads a marker or callout image file (``AnnotationView/loadImage(path:)``, or a shared cache).
    let loadImage: (String) throws -> ImageSurface
    /// Turns place names into coordinates; nil refuses names.
    let resolvePlace: Scene.PlaceResolver?

    /// The coordinate of a place name, the error naming the member.
    func place(_ name: String, _ path: String) throws -> LocationCoordinate2D {
        guard let resolvePlace else {
            throw invalid(path, "a place name (\"\(name)\") needs a geocoder; give coordinates")
        }
        do { return try resolvePlace(name) } catch { throw invalid(path, "\(error)") }
    }

    func invalid(_ path: String, _ message: String) -> SceneError {
        .invalid(source: source, path: path, message: message)
    }

    func number(_ json: JSONValue?, _ path: String) throws -> Double {
        guard let value = json?.number else {
            throw invalid(path, "expected a number, got \(json?.kindName ?? "nothing")")
        }
        return value
    }

    func pair(_ json: JSONValue, _ path: String, keys: (String, String)) throws -> (Double, Double) {
        if let array = json.array, array.count == 2 {
            return (try number(array[0], "\(path)[0]"), try number(array[1], "\(path)[1]"))
        }
        if json.members != nil {
            return (try number(json[keys.0], "\(path).\(keys.0)"), try number(json[keys.1], "\(path).\(keys.1)"))
        }
        throw invalid(path, "expected [\(keys.0), \(keys.1)] or {\"\(keys.0)\": ..., \"\(keys.1)\": ...}")
    }

    /// Runs `body`, turning a ``GeometryError`` into an error that names the file and the member.
    func checked<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as GeometryError {
            throw invalid(path, error.description)
        }
    }

    func area(_ json: JSONValue, altitude: Bool = false) throws -> MapArea? {
        if let bbox = json["bbox"] {
            guard json["center"] == nil else { throw invalid("bbox", "give either bbox or center, not both") }
            guard let values = bbox.array, values.count == 4 else {
                throw invalid("bbox", "expected [west, south, east, north]")
            }
            let v = try values.enumerated().map { try number($1, "bbox[\($0)]") }
            return .boundingBox(
                try checked("bbox") { try GeoBoundingBox(validatingWest: v[0], south: v[1], east: v[2], north: v[3]) })
        }
        guard let centerJSON = json["center"] else {
            for key in ["span", "meters", "zoom"] where json[key] != nil {
                throw invalid(key, "needs a \"center\"")
            }
            if altitude { throw invalid("camera.altitude", "needs a \"center\"") }
            return nil
        }
        let center: LocationCoordinate2D
        if let name = centerJSON.string {
            center = try place(name, "center")
        } else {
            let (lat, lon) = try pair(centerJSON, "center", keys: ("latitude", "longitude"))
            center = try checked("center") { try LocationCoordinate2D(validatingLatitude: lat, longitude: lon) }
        }
        let given = ["span", "meters", "zoom"].filter { json[$0] != nil }
        if altitude {
            guard given.isEmpty else {
                throw invalid(given[0], "give either \"\(given[0])\" or camera.altitude, not both")
            }
            return .centerAltitude(center)
        }
        guard given.count == 1 else {
            throw invalid(
                "center",
                "needs exactly one of \"span\", \"meters\" or \"zoom\", got \(given.isEmpty ? "none" : given.joined(separator: ", "))"
            )
        }
        switch given[0] {
        case "span":
            let (dLat, dLon) = try pair(json["span"]!, "span", keys: ("latitudeDelta", "longitudeDelta"))
            let span = try checked("span") { try CoordinateSpan(validatingLatitudeDelta: dLat, longitudeDelta: dLon) }
            guard min(dLat, dLon) >= CoordinateSpan.minimumDrawableDelta else {
                throw invalid(
                    "span",
                    "each delta must be at least 0.000001 degrees (zoom \(Int(MapViewport.maximumZoomLevel))), got "
                        + "\(dLat), \(dLon)")
            }
            return .region(CoordinateRegion(center: center, span: span))
        case "meters":
            let meters = try number(json["meters"], "meters")
            guard meters.isFinite, meters > 0 else {
                throw invalid("meters", GeometryError.invalidDistance(meters: meters).description)
            }
            return .region(CoordinateRegion(center: center, latitudinalMeters: meters, longitudinalMeters: meters))
        default:
            let zoom = try number(json["zoom"], "zoom")
            guard MapViewport.isValidZoomLevel(zoom) else {
                throw invalid("zoom", GeometryError.invalidZoom(zoom).description)
            }
            return .centerZoom(center, zoomLevel: zoom)
        }
    }

    func size(_ json: JSONValue) throws -> Size {
        if let text = json.string {
            let parts = text.split(separator: "x")
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
                throw invalid("size", "expected \"WIDTHxHEIGHT\" such as \"800x600\", got \"\(text)\"")
            }
            return Size(width: w, height: h)
        }
        let (w, h) = try pair(json, "size", keys: ("width", "height"))
        return Size(width: w, height: h)
    }

    func optionalNumber(_ properties: JSONValue, _ key: String, _ path: String, range: ClosedRange<Double>) throws
        -> Double?
    {
        guard let value = properties[key] else { return nil }
        guard let n = value.number, range.contains(n) else {
            throw invalid(
                "\(path).properties.\(key)",
                "expected a number in \(range.lowerBound)...\(range.upperBound), got \(value.serialized(pretty: false))"
            )
        }
        return n
    }

    /// Adds a feature through the one GeoJSON converter (``GeoJSONDecoder``): pins get the scene's marker
    /// options, shapes the feature's simplestyle look.
    func add(_ feature: GeoJSONFeature, to scene: inout Scene) throws {
        var feature = feature
        if feature.geometry == nil, let name = feature.properties["place"]?.string {
            // A marker placed by name: the geocoder's best match.
            feature.geometry = .point(try place(name, "\(feature.location).properties.place"))
        }
        let converted = try GeoJSONDecoder().convert(feature, source: source)
        let p = feature.properties
        let path = feature.location
        if !converted.annotations.isEmpty {
            // The simplestyle marker color; else the scene's pin color; else MapKit's red pin.
            let color =
                p["marker-color"] != nil
                ? converted.style.markerColor : try pinColor(p, path) ?? PinAnnotationView.PinColor.red.color
            let marker = try markerOptions(p, path, images: &scene.markerImages)
            for annotation in converted.annotations {
                scene.annotations.append(
                    (
                        annotation,
                        Scene.PinStyle(
                            color: color, sizeFactor: converted.style.markerSizeFactor, marker: marker,
                            label: converted.style.markerSymbol)
                    ))
            }
        }
        for overlay in converted.overlays { scene.overlays.append((overlay, converted.style)) }
    }
}
