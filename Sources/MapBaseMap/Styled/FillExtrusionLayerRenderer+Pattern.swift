import Foundation
import MapGeometry
import MapGraphics

/// `fill-extrusion-pattern` as MapLibre's `fill_extrusion_pattern` shader places the image: on a roof in
/// the map's pixels at the integer zoom (repeated from the world's top-left corner, as `fill-pattern`); on a
/// wall along the ring's edges (the distance walked around the ring in the source tile's units, from the
/// ring's first vertex) across, and up the wall by MapLibre's height factor (`-2^z / 4096` tile units per
/// metre, `z` the tile's zoom), both shifted by the source tile's corner in pixels at the integer zoom. The
/// image is lit per vertex by MapLibre's pattern lighting (``PatternSpace/light(_:normal:top:base:height:gradient:)``).
extension FillExtrusionLayerRenderer {
    /// Where one layer's pattern images fall, for one image.
    struct PatternSpace {
        /// MapLibre's integer zoom.
        let integerZoom: Double
        /// Pixels at the integer zoom per map point (MapLibre's world of `512 x 2^z` pixels).
        let pixelsPerMapPoint: Double

        init(zoom: Double) {
            integerZoom = zoom.isFinite ? max(0, min(30, zoom.rounded(.down))) : 0
            pixelsPerMapPoint = 512 * pow(2, integerZoom) / WebMercator.worldSize
        }

        /// MapLibre's pattern lighting (the colour's place taken by the image): the light's colour times the
        /// directional term, at least `0.3 x (1 - light)`, at most 1, over a base of `1 - intensity` rising to
        /// `max(0.5 + intensity, 1)`; walls darkened at their feet by the vertical gradient as in colour.
        static func light(
            _ lighting: Lighting, normal: (Double, Double, Double), top: Double, base: Double, height: Double,
            gradient: Double
        ) -> Color {
            let d = lighting.direction
            let dot = normal.0 * d.x + normal.1 * d.y + normal.2 * d.z
            let low = 1 - lighting.intensity
            let high = max(0.5 + lighting.intensity, 1)
            var directional = low + (high - low) * min(max(dot, 0), 1)
            if normal.2 == 0 {
                let floor = 0.7 + (0.98 - 0.7) * (1 - lighting.intensity)
                let ramp = min(max((top + base) * (height / 150).squareRoot(), floor), 1)
                directional *= (1 - gradient) + gradient * ramp
            }
            func channel(_ light: Double) -> Double { min(max(directional * light, 0.3 * (1 - light)), 1) }
            return Color(
                red: channel(lighting.color.red), green: channel(lighting.color.green),
                blue: channel(lighting.color.blue), alpha: 1)
        }
    }

    /// The source tile a ring's walls were cut from: its zoom and corner, and map points per tile unit
    /// (MapLibre's 8192 units a tile).
    struct SourceTile {
        let z: Double
        let x: Double
        let y: Double
        let unit: Double

        /// The tile whose square is `square` (map points).
        init(square: MapRect) {
            let z = log2(WebMercator.worldSize / square.width).rounded()
            let size = WebMercator.worldSize / pow(2, z)
            self.z = z
            x = (square.minX / size).rounded()
            y = (square.minY / size).rounded()
            unit = size / 8192
        }

        /// The square of tile `x`, `y` at zoom `z`.
        static func square(z: Double, x: Double, y: Double) -> MapRect {
            let size = WebMercator.worldSize / pow(2, z)
            return MapRect(x: x * size, y: y * size, width: size, height: size)
        }
    }

    /// One pattern image and where its copies sit.
    struct FacePattern {
        let texture: Texture
        /// One copy, pixels at the integer zoom (the image's pixels over its pixel ratio).
        let width: Double
        let height: Double
        let space: PatternSpace

        /// The roof at `z` (points up) of rings whose first vertex is `origin` (ring coordinates: turned
        /// points under a camera, image points otherwise), the rings moved by `translation`.
        func roof(origin: Point, z: Double, translation: (x: Double, y: Double), camera: Camera) -> ExtrusionMesh
            .Pattern?
        {
            Self.roof(
                origin: origin, z: z, translation: translation, camera: camera, width: width, height: height,
                space: space
            ).flatMap { ExtrusionMesh.Pattern(texture: texture, homography: $0) }
        }

        /// The homography of ``roof(origin:z:translation:camera:)`` for copies `width` x `height` (pixels at the
        /// integer zoom), from user space to copies of the image.
        static func roof(
            origin: Point, z: Double, translation: (x: Double, y: Double), camera: Camera, width: Double,
            height: Double, space: PatternSpace
        ) -> [Double]? {
            // Plane coordinates (a, b): the ring point origin + (a, b).
            let screen = camera.plane(
                origin: (origin, z), a: (Point(x: origin.x + 1, y: origin.y), z),
                b: (Point(x: origin.x, y: origin.y + 1), z))
            let m0 = camera.mapPoint(of: Point(x: origin.x - translation.x, y: origin.y - translation.y))
            let ma = camera.mapPoint(of: Point(x: origin.x + 1 - translation.x, y: origin.y - translation.y))
            let mb = camera.mapPoint(of: Point(x: origin.x - translation.x, y: origin.y + 1 - translation.y))
            let k = space.pixelsPerMapPoint
            let u0 = m0.x * k / width
            let v0 = m0.y * k / height
            let affine = [
                (ma.x - m0.x) * k / width, (mb.x - m0.x) * k / width, u0 - u0.rounded(.down),
                (ma.y - m0.y) * k / height, (mb.y - m0.y) * k / height, v0 - v0.rounded(.down),
            ]
            return homography(affine: affine, screen: screen)
        }

        /// The wall from `p` (bottom `z` 0) towards `previous` (the ring's vertex before it), `start` tile units
        /// along the ring at `p` and `length` (whole units) to `previous`, on a ring cut from `tile`.
        func wall(
            from p: Point, to previous: Point, start: Double, length: Double, tile: SourceTile, camera: Camera
        ) -> ExtrusionMesh.Pattern? {
            let screen = camera.plane(origin: (p, 0), a: (previous, 0), b: (p, 1))
            let tileRatio = 512 * pow(2, space.integerZoom - tile.z) / 8192
            let tileSize = (512 * pow(2, space.integerZoom - tile.z)).rounded(.down)
            let offsetX = Self.remainder(tileSize * tile.x, width)
            let offsetY = Self.remainder(tileSize * tile.y, height)
            let heightFactor = -pow(2, tile.z) / 512 / 8
            let u0 = (tileRatio * start + offsetX) / width
            let affine = [
                tileRatio * length / width, 0, u0 - u0.rounded(.down),
                0, tileRatio * heightFactor * camera.metresPerPoint / height, offsetY / height,
            ]
            return Self.homography(affine: affine, screen: screen).flatMap {
                ExtrusionMesh.Pattern(texture: texture, homography: $0)
            }
        }

        static func remainder(_ a: Double, _ b: Double) -> Double {
            let r = a - (a / b).rounded(.down) * b
            return r.isFinite ? r : 0
        }

        /// The homography from user space to copies of the image: `affine` (plane coordinates to copies,
        /// row-major 2 x 3) after the inverse of `screen` (plane coordinates to homogeneous user space).
        static func homography(affine: [Double], screen: [Double]) -> [Double]? {
            guard let inverse = invert3(screen) else { return nil }
            var h = [Double](repeating: 0, count: 9)
            for column in 0..<3 {
                for row in 0..<2 {
                    h[3 * row + column] =
                        affine[3 * row] * inverse[column] + affine[3 * row + 1] * inverse[3 + column]
                        + affine[3 * row + 2] * inverse[6 + column]
                }
                h[6 + column] = inverse[6 + column]
            }
            return h.allSatisfy(\.isFinite) ? h : nil
        }

        /// The inverse of a row-major 3 x 3 matrix; nil when it is singular or not finite.
        static func invert3(_ m: [Double]) -> [Double]? {
            let c00 = m[4] * m[8] - m[5] * m[7]
            let c01 = m[5] * m[6] - m[3] * m[8]
            let c02 = m[3] * m[7] - m[4] * m[6]
            let det = m[0] * c00 + m[1] * c01 + m[2] * c02
            guard det != 0, det.isFinite else { return nil }
            let r = [
                c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
            ].map { $0 / det }
            return r.allSatisfy(\.isFinite) ? r : nil
        }
    }

    /// A pattern image `width` x `height` (pixels at the integer zoom) on the ground of a turned or tilted
    /// view, as MapLibre's `background_pattern` and `fill_pattern` place it (the map's pixels at the integer
    /// zoom): the homography from image points to copies of the image; nil facing north, looking down.
    static func groundPattern(width: Double, height: Double, viewport: MapViewport, zoom: Double) -> [Double]? {
        guard !viewport.projection.isNorthUpAndFlat, width > 0, height > 0 else { return nil }
        return FacePattern.roof(
            origin: Point(x: 0, y: 0), z: 0, translation: (0, 0), camera: Camera(viewport: viewport), width: width,
            height: height, space: PatternSpace(zoom: zoom))
    }

    /// MapLibre's edge distances of a ring's walls (tile units of the source tile: `unit` map points, the ring
    /// in points of `perPoint` map points): for the wall ending at `ring[k]` (from `ring[k - 1]`, or the closing
    /// wall from the last vertex at `k` 0), where it starts and its length, walked from the ring's first
    /// vertex with each length truncated to whole units and the walk restarted at 0 past 32767.
    static func edgeDistances(_ ring: [Point], perPoint: Double, unit: Double) -> [(start: Double, length: Double)] {
        let n = ring.count
        guard n > 1, unit > 0, perPoint > 0 else { return Array(repeating: (0, 0), count: n) }
        let scale = perPoint / unit
        func length(_ a: Point, _ b: Point) -> Double {
            let d = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() * scale
            return d.isFinite ? min((d + 1e-6).rounded(.down), 1e9) : 0
        }
        var result = [(start: Double, length: Double)](repeating: (0, 0), count: n)
        var walked = 0.0
        func walk(_ k: Int, _ a: Point, _ b: Point) {
            let d = length(a, b)
            if walked + d > 32767 { walked = 0 }
            result[k] = (walked, d)
            walked += d
        }
        for k in 1..<n { walk(k, ring[k], ring[k - 1]) }
        if ring[0] != ring[n - 1] { walk(0, ring[0], ring[n - 1]) }
        return result
    }

    /// A GeoJSON ring cut into the tiles of zoom `z` it crosses, as geojson-vt cuts it (along x, then y; each
    /// piece starting where the ring first is inside the tile, closed), with each piece's tile; at most
    /// `limit` tiles (a larger ring stays whole, with the tile of its first vertex).
    static func geojsonPieces(_ ring: [MapPoint], z: Double, limit: Int = 16) -> [(ring: [MapPoint], tile: MapRect)] {
        guard let first = ring.first else { return [] }
        let size = WebMercator.worldSize / pow(2, z)
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in ring {
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        guard size > 0, minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return [] }
        let x0 = (minX / size).rounded(.down)
        let x1 = (maxX / size).rounded(.down)
        let y0 = (minY / size).rounded(.down)
        let y1 = (maxY / size).rounded(.down)
        let whole = [
            (ring, SourceTile.square(z: z, x: (first.x / size).rounded(.down), y: (first.y / size).rounded(.down)))
        ]
        guard (x1 - x0 + 1) * (y1 - y0 + 1) <= Double(limit) else { return whole }
        if x0 == x1, y0 == y1 { return whole }
        var pieces: [(ring: [MapPoint], tile: MapRect)] = []
        var tx = x0
        while tx <= x1 {
            let column = clip(ring, tx * size, (tx + 1) * size, axis: 0)
            var ty = y0
            while ty <= y1, column.count > 2 {
                let piece = clip(column, ty * size, (ty + 1) * size, axis: 1)
                if piece.count > 3, area(piece) != 0 {
                    pieces.append((piece, SourceTile.square(z: z, x: tx, y: ty)))
                }
                ty += 1
            }
            tx += 1
        }
        return pieces
    }

    /// geojson-vt's polygon clip of a closed ring to `k1...k2` along `axis` (0: x, 1: y).
    static func clip(_ ring: [MapPoint], _ k1: Double, _ k2: Double, axis: Int) -> [MapPoint] {
        guard ring.count > 1 else { return [] }
        func c(_ p: MapPoint) -> Double { axis == 0 ? p.x : p.y }
        func intersect(_ a: MapPoint, _ b: MapPoint, _ k: Double) -> MapPoint {
            let t = (k - c(a)) / (c(b) - c(a))
            return axis == 0
                ? MapPoint(x: k, y: a.y + (b.y - a.y) * t) : MapPoint(x: a.x + (b.x - a.x) * t, y: k)
        }
        var out: [MapPoint] = []
        for i in 0..<(ring.count - 1) {
            let a = ring[i]
            let b = ring[i + 1]
            let ak = c(a)
            let bk = c(b)
            if ak < k1 {
                if bk > k1 { out.append(intersect(a, b, k1)) }
            } else if ak > k2 {
                if bk < k2 { out.append(intersect(a, b, k2)) }
            } else {
                out.append(a)
            }
            if bk < k1, ak >= k1 { out.append(intersect(a, b, k1)) }
            if bk > k2, ak <= k2 { out.append(intersect(a, b, k2)) }
        }
        let last = ring[ring.count - 1]
        if c(last) >= k1, c(last) <= k2 { out.append(last) }
        if out.count > 1, out[0] != out[out.count - 1] { out.append(out[0]) }
        return out
    }

    /// Twice the signed area of a ring (map points).
    static func area(_ ring: [MapPoint]) -> Double {
        var total = 0.0
        var previous = ring[ring.count - 1]
        for p in ring {
            total += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return total
    }
}

extension FillExtrusionLayerRenderer.Camera {
    /// The homogeneous image position (x w, y w, w, scaled by one number) of `p` raised `z` points: linear in
    /// `p` and `z`.
    func homogeneous(_ p: Point, _ z: Double) -> (Double, Double, Double) {
        let v = vertex(p, z, top: 0)
        let w = 1 / v.inverseDepth
        return (v.position.x * w, v.position.y * w, w)
    }

    /// The plane through `origin` with axes towards `a` and `b` (points raised by heights) as the image sees
    /// it: a row-major 3 x 3 matrix from plane coordinates (s, t, 1) to homogeneous image points.
    func plane(origin: (Point, Double), a: (Point, Double), b: (Point, Double)) -> [Double] {
        let o = homogeneous(origin.0, origin.1)
        let ha = homogeneous(a.0, a.1)
        let hb = homogeneous(b.0, b.1)
        return [ha.0 - o.0, hb.0 - o.0, o.0, ha.1 - o.1, hb.1 - o.1, o.1, ha.2 - o.2, hb.2 - o.2, o.2]
    }
}
