import Foundation
import MapAnnotations
import MapBaseMap
import MapData
import MapGeometry
import MapGraphics
import MapOverlays
import MapRender
import MapStyle

/// What a scene file says about a Point's annotation beyond its pin color and size: an image marker,
/// selection, clustering, priority and collision mode.
///
/// Feature properties: `marker-image` (a PNG path, relative to the scene file's folder), `marker-image-scale`
/// (pixels per point, default 1), `marker-offset` ([dx, dy] in points: the view's `centerOffset`),
/// `pin-color` ("red", "green" or "purple"), `selected` (bool), `callout-left-image` and `callout-right-image`
/// (PNG paths for the callout's accessory images), `clustering-identifier` (string),
/// `display-priority` ("required", "high", "low" or 0...1000) and `collision-mode` ("rectangle", "circle",
/// "none").
public struct MarkerOptions: Sendable, Equatable {
    /// The resolved path of the marker image, or nil for a pin.
    public var imagePath: String?
    /// The resolved path of the callout's left accessory image, if any.
    public var leftCalloutImagePath: String?
    /// The resolved path of the callout's right accessory image, if any.
    public var rightCalloutImagePath: String?
    /// Image pixels per point.
    public var imageScale = 1.0
    /// The view's center offset in points.
    public var centerOffset = Point.zero
    /// Whether the annotation is selected (the first selected one in the file wins).
    public var isSelected = false
    /// The view's clustering identifier.
    public var clusteringIdentifier: String?
    /// The view's display priority.
    public var displayPriority = DisplayPriority.required
    /// The view's collision mode.
    public var collisionMode = CollisionMode.rectangle

    /// Creates default options: a required, rectangle-colliding pin.
    public init() {}

    /// Applies the options to a view.
    public func apply(to view: AnnotationView) {
        view.clusteringIdentifier = clusteringIdentifier
        view.displayPriority = displayPriority
        view.collisionMode = collisionMode
    }
}

extension SceneDecoder {
    /// Resolves a marker image path against the scene file's folder (the current folder for a scene read
    /// from standard input).
    func resolve(imagePath: String) -> String {
        if imagePath.hasPrefix("/") || source.isEmpty || source == "-" { return imagePath }
        return URL(fileURLWithPath: source).deletingLastPathComponent().appendingPathComponent(imagePath).path
    }

    /// Reads the annotation properties of a Point feature; loads its marker image into `images`.
    func markerOptions(_ p: JSONValue, _ path: String, images: inout [String: ImageSurface]) throws -> MarkerOptions {
        var options = MarkerOptions()
        func key(_ k: String) -> String { "\(path).properties.\(k)" }
        // Errors name the annotation's title too, when it has one.
        let who = p["title"]?.string.map { "annotation '\($0)': " } ?? ""
        // Loads an image property into `images`; returns its resolved path.
        func image(_ property: String) throws -> String? {
            guard let value = p[property] else { return nil }
            guard let text = value.string, !text.isEmpty else {
                throw invalid(key(property), "expected the path of a PNG file, got \(value.kindName)")
            }
            let resolved = resolve(imagePath: text)
            if images[resolved] == nil {
                do { images[resolved] = try loadImage(resolved) } catch let error
                    as AnnotationError
                {
                    throw invalid(key(property), who + error.description)
                }
            }
            return resolved
        }
        options.imagePath = try image("marker-image")
        options.leftCalloutImagePath = try image("callout-left-image")
        options.rightCalloutImagePath = try image("callout-right-image")
        if let scale = try optionalNumber(p, "marker-image-scale", path, range: 0.01...100) {
            options.imageScale = scale
        }
        if let offset = p["marker-offset"] {
            let (dx, dy) = try pair(offset, key("marker-offset"), keys: ("x", "y"))
            guard dx.isFinite, dy.isFinite else { throw invalid(key("marker-offset"), "expected finite numbers") }
            options.centerOffset = Point(x: dx, y: dy)
        }
        if let selected = p["selected"] {
            guard let flag = selected.bool else { throw invalid(key("selected"), "must be true or false") }
            options.isSelected = flag
        }
        if let id = p["clustering-identifier"] {
            guard let text = id.string, !text.isEmpty else {
                throw invalid(key("clustering-identifier"), "expected a non-empty string, got \(id.kindName)")
            }
            options.clusteringIdentifier = text
        }
        if let priority = p["display-priority"] {
            switch (priority.string, priority.number) {
            case ("required"?, _): options.displayPriority = .required
            case ("high"?, _): options.displayPriority = .defaultHigh
            case ("low"?, _): options.displayPriority = .defaultLow
            case (nil, let n?) where n >= 0 && n <= 1000: options.displayPriority = DisplayPriority(n)
            default:
                throw invalid(
                    key("display-priority"),
                    "expected \"required\", \"high\", \"low\" or a number in 0...1000, got "
                        + priority.serialized(pretty: false))
            }
        }
        if let mode = p["collision-mode"] {
            guard let name = mode.string, let value = CollisionMode(rawValue: name) else {
                throw invalid(key("collision-mode"), "expected \"rectangle\", \"circle\" or \"none\"")
            }
            options.collisionMode = value
        }
        return options
    }

    /// The pin color of a `pin-color` property, if any.
    func pinColor(_ p: JSONValue, _ path: String) throws -> Color? {
        guard let value = p["pin-color"] else { return nil }
        guard let name = value.string else {
            throw invalid("\(path).properties.pin-color", "expected \"red\", \"green\" or \"purple\"")
        }
        do { return try PinAnnotationView.PinColor(named: name).color } catch let error as AnnotationError {
            let who = p["title"]?.string.map { "annotation '\($0)': " } ?? ""
            throw invalid("\(path).properties.pin-color", who + error.description)
        }
    }

    /// Reads the top-level `userLocation` and `fitAnnotations` members.
    func annotationSettings(_ json: JSONValue, into scene: inout Scene) throws {
        if let user = json["userLocation"] {
            guard user.members != nil else {
                throw invalid("userLocation", "expected {\"coordinate\": [lat, lon], \"accuracy\": meters, ...}")
            }
            for (k, _) in user.members! where !["coordinate", "accuracy", "heading", "tracking"].contains(k) {
                throw invalid("userLocation.\(k)", "unknown member; expected accuracy, coordinate, heading, tracking")
            }
            guard let c = user["coordinate"] else { throw invalid("userLocation.coordinate", "is missing") }
            let (lat, lon) = try pair(c, "userLocation.coordinate", keys: ("latitude", "longitude"))
            let coordinate = try checked("userLocation.coordinate") {
                try LocationCoordinate2D(validatingLatitude: lat, longitude: lon)
            }
            var accuracy = 0.0
            if let a = user["accuracy"] {
                guard let n = a.number, n >= 0, n.isFinite else {
                    throw invalid("userLocation.accuracy", "expected meters >= 0, got \(a.serialized(pretty: false))")
                }
                accuracy = n
            }
            var heading: Double?
            if let h = user["heading"] {
                guard let n = h.number, n.isFinite else {
                    throw invalid("userLocation.heading", "expected degrees clockwise from north")
                }
                heading = n
            }
            var tracking = UserTrackingMode.none
            if let t = user["tracking"] {
                guard let name = t.string, let mode = UserTrackingMode(rawValue: name) else {
                    throw invalid("userLocation.tracking", "expected \"none\", \"follow\" or \"followWithHeading\"")
                }
                tracking = mode
            }
            scene.userLocation = SceneUserLocation(
                coordinate: coordinate, horizontalAccuracy: accuracy, heading: heading, trackingMode: tracking)
        }
        if let fit = json["fitAnnotations"] {
            var padding: EdgeInsets?
            if let flag = fit.bool {
                padding = flag ? .zero : nil
            } else if let n = fit["padding"]?.number ?? fit.number {
                padding = EdgeInsets(top: n, left: n, bottom: n, right: n)
            } else if let a = fit["padding"]?.array, a.count == 4, a.allSatisfy({ $0.number != nil }) {
                let v = a.compactMap(\.number)
                padding = EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
            } else {
                throw invalid(
                    "fitAnnotations",
                    "expected true, false, or {\"padding\": points or [top, left, bottom, right]}")
            }
            if let p = padding {
                guard [p.top, p.left, p.bottom, p.right].allSatisfy({ $0.isFinite && $0 >= 0 }) else {
                    throw invalid("fitAnnotations.padding", "each side must be a number of points >= 0")
                }
            }
            scene.fitAnnotations = padding
        }
    }
}

extension Scene {
    /// The view of a scene annotation: its image marker or its pin, with its collision settings.
    func makeView(_ style: PinStyle) -> AnnotationView {
        let marker = style.marker
        let view: AnnotationView
        if let path = marker.imagePath, let image = markerImages[path] {
            view = AnnotationView(
                image: image, imageScale: marker.imageScale, centerOffset: marker.centerOffset,
                reuseIdentifier: path)
        } else {
            let pin = PinAnnotationView(pinTintColor: style.color, sizeFactor: style.sizeFactor)
            pin.glyphText = style.label
            view = pin
            if marker.centerOffset != .zero { view.centerOffset = marker.centerOffset }
        }
        marker.apply(to: view)
        view.leftCalloutAccessoryImage = marker.leftCalloutImagePath.flatMap { markerImages[$0] }
        view.rightCalloutAccessoryImage = marker.rightCalloutImagePath.flatMap { markerImages[$0] }
        return view
    }

    /// Selects, shows the user location, follows it and fits the annotations, as the file says.
    func applyAnnotationSettings(to snapshotter: MapSnapshotter) {
        if let selected = annotations.first(where: { $0.pin.marker.isSelected }) {
            snapshotter.selectAnnotation(selected.annotation)
        }
        if let user = userLocation {
            snapshotter.userLocation.location = user.coordinate
            snapshotter.userLocation.horizontalAccuracy = user.horizontalAccuracy
            snapshotter.userLocation.heading = user.heading
            snapshotter.showsUserLocation = true
        }
        if let padding = fitAnnotations {
            // A scene's `fitAnnotations` fits everything the scene draws (pins with their whole views, lines,
            // polygons, circles, visible points), not only the pins as MapKit's showAnnotations does: a scene
            // of a route with its end markers shows the whole route. Views and coordinates of a scene are
            // valid (checked when decoded), so this does not throw; if it ever did, snapshot() reports it.
            try? snapshotter.show(
                annotations: snapshotter.annotations,
                overlays: snapshotter.overlays(in: .aboveRoads) + snapshotter.overlays(in: .aboveLabels),
                coordinates: visibleCoordinates, edgePadding: padding)
        }
        if let user = userLocation, user.trackingMode != .none {
            snapshotter.userTrackingMode = user.trackingMode
        }
    }
}
