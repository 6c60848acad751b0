import MapData
import MapGeometry

/// Signed distance fields of glyph outlines, as node-fontnik (the builder of the glyph PBFs tileserver-gl
/// serves and MapLibre's test glyphs) makes them.
///
/// The outline (unhinted, at ``SDFGlyph/fontSize`` pixels) is flattened to closed rings; the glyph's box is
/// the rings' bounds rounded to whole pixels: `left` = min x, `top` = max y minus the size's ascender (so a
/// glyph PBF's `top` is measured from the ascender line, not the baseline: a space has top -ascender),
/// `width` and `height` the rounded extent. The bitmap adds ``SDFGlyph/border`` pixels on every side; each
/// pixel center gets its exact Euclidean distance `d` to the nearest ring segment, negative inside (nonzero
/// winding), stored as `255 - clamp(32 d + 64, 0, 255)` truncated: the outline is at 191 and the value falls
/// by 32 per pixel outwards (8 pixels of distance, cutoff 0.25).
///
/// This is a different maker from the sprites' `SignedDistanceField` on purpose: an icon is a raster
/// (coverage from an SVG), so its distances come from a distance transform over pixels; a glyph is an
/// outline, so its distances are exact, as every glyph PBF a GL client has ever read.
enum GlyphDistanceField {
    /// The largest distance, in pixels, that changes a byte: 6 px outside gives 32 * 6 + 64 >= 255 (byte 0)
    /// and 2 px inside already gives byte 255, so farther pixels are "far".
    static let reach = 6.0
    /// How far a flattened curve may stray from the curve, in pixels.
    static let flatness = 0.05
    /// The most pieces one curve is cut into (a hostile font's huge curves stay bounded).
    static let maximumPieces = 64
    /// The largest ink box, in pixels, a glyph may have (larger glyphs get no bitmap, as in fontnik).
    static let maximumExtent = 255

    /// The closed rings of an outline, curves flattened to within ``flatness``.
    static func rings(_ commands: [OutlineCommand]) -> [[Point]] {
        var rings: [[Point]] = []
        var ring: [Point] = []
        func close() {
            if let first = ring.first, let last = ring.last, ring.count > 1 {
                if first != last { ring.append(first) }
                rings.append(ring)
            }
            ring = []
        }
        for command in commands {
            switch command {
            case .move(let to):
                close()
                ring = [to]
            case .line(let to):
                ring.append(to)
            case .quadratic(let c, let to):
                let from = ring.last ?? c
                let pieces = pieceCount(secondDerivative: 2 * bend(from, c, to))
                for i in 1...pieces {
                    let t = Double(i) / Double(pieces)
                    ring.append(mix(mix(from, c, t), mix(c, to, t), t))
                }
            case .cubic(let c1, let c2, let to):
                let from = ring.last ?? c1
                let pieces = pieceCount(secondDerivative: 6 * max(bend(from, c1, c2), bend(c1, c2, to)))
                for i in 1...pieces {
                    let t = Double(i) / Double(pieces)
                    let a = mix(mix(from, c1, t), mix(c1, c2, t), t)
                    let b = mix(mix(c1, c2, t), mix(c2, to, t), t)
                    ring.append(mix(a, b, t))
                }
            }
        }
        close()
        return rings
    }

    /// The point a fraction `t` of the way from `a` to `b` (de Casteljau's step).
    private static func mix(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    /// The length of the second difference `a - 2b + c`: how far three control points bend.
    private static func bend(_ a: Point, _ b: Point, _ c: Point) -> Double {
        let x = a.x - 2 * b.x + c.x
        let y = a.y - 2 * b.y + c.y
        return (x * x + y * y).squareRoot()
    }

    /// Uniform pieces whose chords stay within ``flatness`` of a curve whose second derivative is at most
    /// `secondDerivative` (a chord of a piece of parameter length h strays at most h^2 / 8 times that).
    private static func pieceCount(secondDerivative: Double) -> Int {
        let pieces = (secondDerivative / (8 * flatness)).squareRoot().rounded(.up)
        guard pieces.isFinite else { return maximumPieces }
        return max(1, min(maximumPieces, Int(pieces)))
    }

    /// The SDF glyph of code point `id` whose outline is `rings` (pixels, y up), with the size's ascender and
    /// the glyph's advance in whole pixels.
    static func glyph(id: UInt32, rings: [[Point]], advance: Int, ascender: Int) -> SDFGlyph {
        let advance = max(0, min(255, advance))
        let blank = SDFGlyph(id: id, width: 0, height: 0, left: 0, top: -ascender, advance: advance, bitmap: [])
        let points = rings.joined()
        guard let first = points.first, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return blank }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for p in points {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        let limit = Double(maximumExtent)
        guard abs(minX) < 1000, abs(maxX) < 1000, abs(minY) < 1000, abs(maxY) < 1000 else { return blank }
        let left = Int(minX.rounded())
        let bottom = Int(minY.rounded())
        let width = Int(maxX.rounded()) - left
        let height = Int(maxY.rounded()) - bottom
        let top = bottom + height - ascender
        guard width > 0, height > 0, Double(width) <= limit, Double(height) <= limit, (-128...127).contains(left),
            (-128...127).contains(top)
        else { return blank }
        let border = SDFGlyph.border
        let field = distanceField(
            rings: rings, origin: Point(x: Double(left - border), y: Double(bottom - border)),
            width: width + 2 * border, height: height + 2 * border)
        return SDFGlyph(id: id, width: width, height: height, left: left, top: top, advance: advance, bitmap: field)
    }

    /// The field's bytes, rows from the top, for a grid of `width` x `height` pixels whose bottom-left corner
    /// is at `origin` in outline coordinates.
    static func distanceField(rings: [[Point]], origin: Point, width: Int, height: Int) -> [UInt8] {
        let reach2 = reach * reach
        var squared = [Double](repeating: reach2, count: width * height)  // indexed from the bottom row
        squared.withUnsafeMutableBufferPointer { squared in
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst()) {
                    let x0 = max(0, Int((min(a.x, b.x) - origin.x - 0.5 - reach).rounded(.up)))
                    let x1 = min(width - 1, Int((max(a.x, b.x) - origin.x - 0.5 + reach).rounded(.down)))
                    let y0 = max(0, Int((min(a.y, b.y) - origin.y - 0.5 - reach).rounded(.up)))
                    let y1 = min(height - 1, Int((max(a.y, b.y) - origin.y - 0.5 + reach).rounded(.down)))
                    guard x0 <= x1, y0 <= y1 else { continue }
                    let dx = b.x - a.x
                    let dy = b.y - a.y
                    let length2 = dx * dx + dy * dy
                    let inverse = length2 > 0 ? 1 / length2 : 0
                    for y in y0...y1 {
                        let py = origin.y + Double(y) + 0.5 - a.y
                        let row = y * width
                        for x in x0...x1 {
                            let px = origin.x + Double(x) + 0.5 - a.x
                            let t = max(0, min(1, (px * dx + py * dy) * inverse))
                            let ex = t * dx - px
                            let ey = t * dy - py
                            let d2 = ex * ex + ey * ey
                            if d2 < squared[row + x] { squared[row + x] = d2 }
                        }
                    }
                }
            }
        }
        var bytes = [UInt8](repeating: 0, count: width * height)
        var crossings: [(x: Double, direction: Int)] = []
        for y in 0..<height {
            let py = origin.y + Double(y) + 0.5
            crossings.removeAll(keepingCapacity: true)
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst()) {
                    let upward = a.y <= py && b.y > py
                    guard upward || (a.y > py && b.y <= py) else { continue }
                    let x = a.x + (py - a.y) * (b.x - a.x) / (b.y - a.y)
                    crossings.append((x, upward ? 1 : -1))
                }
            }
            let row = (height - 1 - y) * width
            for x in 0..<width {
                let px = origin.x + Double(x) + 0.5
                var winding = 0
                for crossing in crossings where crossing.x > px { winding += crossing.direction }
                let d2 = squared[y * width + x]
                let distance = d2 >= reach2 ? reach : d2.squareRoot()
                let value = 32 * (winding != 0 ? -distance : distance) + 64
                bytes[row + x] = 255 - UInt8(max(0, min(255, value)))
            }
        }
        return bytes
    }
}
