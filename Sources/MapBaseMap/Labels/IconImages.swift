import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// The icon images of a style's sprites, cut out of their sheet on first use.
final class IconImages {
    /// One image ready to draw.
    struct Icon: Sendable {
        let image: Texture
        let entry: Sprite.Entry
    }

    private let images: [String: (Sprite, Sprite.Entry)]
    private var cache: [String: Icon?] = [:]
    /// The names of all images (what `["image", name]` finds available).
    let names: Set<String>

    init(images: [String: (Sprite, Sprite.Entry)]) {
        self.images = images
        names = Set(images.keys)
    }

    /// The image named `name`, or nil (reported once per name and process on standard error, as MapLibre
    /// reports an image missing from the sprite) when no sprite has it.
    func icon(_ name: String) -> Icon? {
        if let known = cache[name] { return known }
        var made: Icon?
        if let (sprite, entry) = images[name],
            let image = try? Texture(rgba: sprite.pixels(entry), width: entry.width, height: entry.height)
        {
            // A distance field's alpha alone, as a glyph's: its quads then take the glyphs' way.
            made = Icon(image: entry.sdf ? image.withSeparateAlphas() : image, entry: entry)
        } else {
            MissingImages.shared.report(name)
        }
        cache[name] = made
        return made
    }
}

/// The images that `icon-image` named and no sprite has: the first ``listed`` reported by name once per
/// process, then one line saying more are missing (a style naming thousands of images cannot flood the
/// log); at most ``remembered`` names are kept.
final class MissingImages: @unchecked Sendable {
    static let shared = MissingImages()
    static let listed = 20
    static let remembered = 10_000
    private let reported = Locked(Set<String>())

    /// Writes a warning about `name` to standard error the first time it is reported (one summary line
    /// instead beyond the first ``listed`` names).
    func report(_ name: String) {
        let count = reported.withLock { set -> Int? in
            guard set.count < Self.remembered, set.insert(name).inserted else { return nil }
            return set.count
        }
        guard let count, count <= Self.listed + 1 else { return }
        let shown = name.count > 200 ? String(name.prefix(200)) + "..." : name
        let line =
            count <= Self.listed
            ? "warning: image \"\(shown)\" is not in the style's sprite; its icon is not drawn\n"
            : "warning: more images are not in the style's sprite (not listed beyond \(Self.listed)); their icons "
                + "are not drawn\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Whether `name` was reported (for tests).
    func wasReported(_ name: String) -> Bool {
        reported.withLock { $0.contains(name) }
    }
}

/// An icon that won its place: quads of its image in world points (one, or the pieces of a stretched
/// image), drawn in one or two passes (an SDF image's halo, then its fill).
struct PlacedIcon: Sendable {
    /// One piece: texels `source` (the image and a one-texel transparent border, as MapLibre pads its
    /// atlas, or part of it) mapped to world points by `transform`.
    struct Quad: Sendable {
        var source: Rect
        var transform: Transform
        /// Texels to world points with perspective, for an icon lying on the ground of a tilted view
        /// (`transform` is then not used); nil: `transform`.
        var projective: Homography? = nil
    }

    var image: Texture
    var quads: [Quad]
    var linear: Bool
    var passes: [QuadShading]

    /// The quads' bounds in world points.
    var bounds: Rect { Rect.bounds(ofQuads: quads.map { ($0.source, $0.transform, $0.projective) }) }

    /// Draws every pass of every quad, in order, through one rasterizer.
    func draw(in context: GraphicsContext, shift: Point) {
        let move = Transform(translationX: -shift.x, y: -shift.y)
        let rasterizer = context.makeRasterizer()
        for pass in passes {
            for quad in quads {
                if let projective = quad.projective {
                    rasterizer.addQuad(
                        image, source: quad.source, homography: projective.concatenating(move), linear: linear,
                        shading: pass)
                    continue
                }
                rasterizer.addQuad(
                    image, source: quad.source, transform: quad.transform.concatenating(move), linear: linear,
                    shading: pass)
            }
        }
        context.draw(rasterizer)
    }
}

extension Rect {
    /// The bounds of rectangles each mapped by its transform (the corners of every quad); an empty rectangle at
    /// the origin for none.
    static func bounds(ofQuads quads: [(source: Rect, transform: Transform, projective: Homography?)]) -> Rect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (s, transform, projective) in quads {
            for corner in [
                Point(x: s.minX, y: s.minY), Point(x: s.maxX, y: s.minY), Point(x: s.maxX, y: s.maxY),
                Point(x: s.minX, y: s.maxY),
            ] {
                let p = projective.map { $0.apply(corner).point } ?? corner.applying(transform)
                minX = min(minX, p.x)
                minY = min(minY, p.y)
                maxX = max(maxX, p.x)
                maxY = max(maxY, p.y)
            }
        }
        return minX.isFinite
            ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : Rect(x: 0, y: 0, width: 0, height: 0)
    }
}
