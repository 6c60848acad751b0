import Foundation
import MapAnnotations
import MapData
import MapGeometry
import MapGraphics
import MapRender

/// A scene file read, parsed and checked once, to be turned into fresh ``Scene``s (annotations and
/// overlays are MapKit-style objects that a snapshotter owns) on any thread without parsing the JSON or
/// decoding a marker image again: a tile pyramid makes one per metatile.
///
/// ```swift
/// let prepared = try PreparedScene(data: data, source: "scene.json")
/// DispatchQueue.concurrentPerform(iterations: 8) { _ in try? prepared.makeScene().populate(snapshotter()) }
/// ```
public struct PreparedScene: Sendable {
    /// The scene's name in error messages.
    public let source: String
    private let json: JSONValue
    private let images = OnceCache<String, RGBAImage>()
    private let resolvePlace: Scene.PlaceResolver?

    /// Parses and checks a scene.
    ///
    /// - Throws: what ``Scene/decode(_:source:)`` throws.
    public init(data: Data, source: String, resolvePlace: Scene.PlaceResolver? = nil) throws {
        self.source = source
        self.resolvePlace = resolvePlace
        json = try Scene.parse(data, source: source)
        _ = try makeScene()
    }

    /// A new scene with its own objects; images are decoded once per prepared scene.
    public func makeScene() throws -> Scene {
        try Scene.decode(
            json, source: source,
            loadImage: { [images] path in
                let image = try images.value(path) { RGBAImage(try AnnotationView.loadImage(path: path)) }
                return try ImageSurface(rgba: image.bytes, width: image.width, height: image.height)
            }, resolvePlace: resolvePlace)
    }
}
