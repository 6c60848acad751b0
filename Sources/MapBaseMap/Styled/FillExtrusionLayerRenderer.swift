import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `fill-extrusion` layer as MapLibre draws it with the camera straight above the centre of the
/// view: each polygon raised from `fill-extrusion-base` to `-height` (metres), seen through MapLibre's
/// perspective (a field of view of 36.87 degrees, the camera 1.5 view heights above the centre), so roofs
/// grow and lean away from the centre and the walls facing it show. Roofs and walls are lit per vertex with
/// MapLibre's model (the style's `light`: direction, colour, intensity; `-vertical-gradient` darkening the
/// feet of walls), and the layer is drawn as MapLibre draws it: a depth pass, then each pixel coloured once
/// by the nearest face, times `-opacity`, over what is below.
///
/// The faces go through the one rasterizer (``Rasterizer/addExtrusion(_:bottom:top:opacity:pass:buffer:)``);
/// a layer whose faces would cover more than ``pixelBudget(imagePixels:)`` pixels stops adding buildings
/// there (the nearest are not known before drawing; the work stays bounded by the image).
enum FillExtrusionLayerRenderer {
    /// MapLibre's vertical field of view, radians (`atan(1/3) * 2`: the camera 1.5 heights from the centre).
    static let fieldOfView = 0.6435011087932844

    /// At most this many pixels of faces per layer: 32 per image pixel (each face is rasterized twice).
    static func pixelBudget(imagePixels: Double) -> Double { 32 * imagePixels + 2_000_000 }

    /// One feature's faces, lit.
    struct Building {
        var walls: [(mesh: ExtrusionMesh, bottom: Color, top: Color)] = []
        var roof: (mesh: ExtrusionMesh, color: Color)?
    }

    /// The depth buffer the extrusion layers of one turned or tilted image share (MapLibre's 3D pass: one
    /// depth buffer, cleared once per frame). A view facing north and looking down gives each layer its own.
    final class SharedDepth {
        var buffer: DepthBuffer?
        init() {}
    }

    static func draw(
        _ layer: StyleLayer, source: FeatureSource, light: StyleLight, in frame: LayerFrame,
        sharing shared: SharedDepth? = nil
    ) {
        let viewport = frame.viewport
        let constant = frame.constantContext
        let (tx, ty) = frame.translation(layer, .fillExtrusionTranslate)
        // Polygons are clipped this far outside the view before they are translated: the edges the clip adds
        // (and their walls, which lean outward) stay out of sight.
        let margin = 2 + max(abs(tx), abs(ty))
        let pipeline = GeometryPipeline(viewport: viewport, margin: margin, tolerance: 0.5)
        let opacity = ResolvedStyleProperty(layer, .fillExtrusionOpacity, at: constant).number(constant)
        guard opacity > 0 else { return }
        let colorProperty = ResolvedStyleProperty(layer, .fillExtrusionColor, at: constant)
        let heightProperty = ResolvedStyleProperty(layer, .fillExtrusionHeight, at: constant)
        let baseProperty = ResolvedStyleProperty(layer, .fillExtrusionBase, at: constant)
        let gradient = layer.bool(.fillExtrusionVerticalGradient, constant) ? 1.0 : 0.0
        let patternProperty = ResolvedStyleProperty(layer, .fillExtrusionPattern, at: constant)
        let patternSpace = PatternSpace(zoom: frame.zoom)
        let camera = Camera(viewport: viewport)
        let geojsonGrid = GeoJSONGrid(zoom: frame.zoom)
        let lighting = Lighting(light: light, heading: camera.view == nil ? 0 : viewport.heading)
        var buildings: [Building] = []
        var work = 0.0
        let budget = pixelBudget(
            imagePixels: viewport.size.width * viewport.size.height * viewport.scale * viewport.scale)
        frame.forEachFeature(of: source, layer: layer, margin: margin) { feature, offset, context in
            guard work <= budget, case .polygons(let polygons) = feature.shape,
                let premultiplied = colorProperty.color(context).map(Lighting.premultiply)
            else { return }
            // A feature whose pattern the sprite lacks is not drawn (as `fill-pattern`).
            var facePattern: FacePattern?
            if patternProperty.isSet {
                guard let (texture, ratio) = frame.patterns?.texture(patternProperty.string(context)),
                    ratio > 0, texture.width > 0, texture.height > 0
                else { return }
                facePattern = FacePattern(
                    texture: texture, width: Double(texture.width) / ratio, height: Double(texture.height) / ratio,
                    space: patternSpace)
            }
            // Metres as MapLibre clamps them, then points of the view at its centre's latitude.
            let baseMetres = max(0, baseProperty.number(context))
            let heightMetres = max(0, heightProperty.number(context))
            let zBase = min(baseMetres / camera.metresPerPoint, camera.highest)
            let zTop = min(heightMetres / camera.metresPerPoint, camera.highest)
            guard baseMetres / camera.metresPerPoint < camera.highest else { return }
            let cut = feature.tileBounds.map { square -> Rect in
                let a = pipeline.project(MapPoint(x: square.minX, y: square.minY), offset: offset)
                let b = pipeline.project(MapPoint(x: square.maxX, y: square.maxY), offset: offset)
                return Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
            }
            // Where a wall runs along a tile's cut, and is left out.
            func leaving(_ square: MapRect) -> Cut {
                guard camera.view == nil else { return .ground(square, offset: offset, tx: tx, ty: ty) }
                let a = pipeline.project(MapPoint(x: square.minX, y: square.minY), offset: offset)
                let b = pipeline.project(MapPoint(x: square.maxX, y: square.maxY), offset: offset)
                return .image(Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y).offsetBy(dx: tx, dy: ty))
            }
            func project(_ ring: [MapPoint]) -> [Point]? {
                let points =
                    camera.view == nil
                    ? pipeline.ring(ring, offset: offset, dropsTinyRings: true)
                    : pipeline.groundRing(
                        feature.tileBounds == nil ? geojsonGrid.map(ring) : ring, offset: offset,
                        nearDepth: 1.05 * camera.near)
                return points?.map { Point(x: $0.x + tx, y: $0.y + ty) }
            }
            let featureTile = feature.tileBounds.map(SourceTile.init(square:))
            var building = Building()
            for polygon in polygons {
                var rings: [[Point]] = []
                // The rings walls are raised from: the polygon's own, or under a pattern, a GeoJSON ring's
                // pieces in the tiles geojson-vt cuts it into (the pattern on a wall depends on the tile).
                var wallRings: [(ring: [Point], tile: SourceTile?, leaving: Cut?)] = []
                for (k, ring) in polygon.enumerated() {
                    guard let points = project(ring) else {
                        if k == 0 { break }
                        continue
                    }
                    rings.append(points)
                    guard facePattern != nil, feature.tileBounds == nil else {
                        let along: Cut? =
                            camera.view == nil
                            ? cut.map { .image($0.offsetBy(dx: tx, dy: ty)) }
                            : feature.tileBounds.map { .ground($0, offset: offset, tx: tx, ty: ty) }
                        wallRings.append((points, featureTile, along))
                        continue
                    }
                    for piece in Self.geojsonPieces(geojsonGrid.map(ring), z: geojsonGrid.z) {
                        guard let points = project(piece.ring) else { continue }
                        wallRings.append((points, SourceTile(square: piece.tile), leaving(piece.tile)))
                    }
                }
                guard !rings.isEmpty else { continue }
                for (ring, tile, along) in wallRings {
                    let edges =
                        facePattern == nil
                        ? []
                        : Self.edgeDistances(
                            ring, perPoint: viewport.mapPointsPerPoint, unit: tile?.unit ?? geojsonGrid.unit)
                    for (mesh, normal, k) in camera.walls(ring, from: zBase, to: zTop, leaving: along) {
                        var mesh = mesh
                        let bottom: Color
                        let top: Color
                        if let facePattern {
                            let previous = ring[k == 0 ? ring.count - 1 : k - 1]
                            mesh.pattern = facePattern.wall(
                                from: ring[k], to: previous, start: edges[k].start, length: edges[k].length,
                                tile: tile ?? geojsonGrid.tile(of: ring[k], camera: camera), camera: camera)
                            let packed = Lighting.packed(normal)
                            bottom = PatternSpace.light(
                                lighting, normal: (packed.0, packed.1, 0), top: 0, base: baseMetres,
                                height: heightMetres, gradient: gradient)
                            top = PatternSpace.light(
                                lighting, normal: (packed.0 + 1 / 16384, packed.1, 0), top: 1, base: baseMetres,
                                height: heightMetres, gradient: gradient)
                        } else {
                            bottom = lighting.wall(
                                premultiplied, normal: normal, top: 0, base: baseMetres, height: heightMetres,
                                gradient: gradient)
                            top = lighting.wall(
                                premultiplied, normal: normal, top: 1, base: baseMetres, height: heightMetres,
                                gradient: gradient)
                        }
                        work += camera.area(of: mesh)
                        building.walls.append((mesh, bottom, top))
                    }
                }
                if heightMetres / camera.metresPerPoint < camera.highest, var mesh = camera.roof(rings, at: zTop) {
                    var color = lighting.roof(premultiplied)
                    if let facePattern {
                        mesh.pattern = facePattern.roof(
                            origin: rings[0][0], z: zTop, translation: (tx, ty), camera: camera)
                        color = PatternSpace.light(
                            lighting, normal: (1 / 16384, 0, 1), top: 1, base: 0, height: 0, gradient: 0)
                    }
                    work += camera.area(of: mesh)
                    building.roof =
                        building.roof.map { old in
                            var merged = old.mesh
                            let base = Int32(merged.vertices.count)
                            merged.vertices += mesh.vertices
                            merged.indices += mesh.indices.map { $0 + base }
                            return (merged, old.color)
                        } ?? (mesh, color)
                }
            }
            buildings.append(building)
        }
        guard !buildings.isEmpty else { return }
        let g = frame.context
        let buffer: DepthBuffer
        if camera.view != nil, let shared, let old = shared.buffer, old.matches(g) {
            old.clearStencil()
            buffer = old
        } else {
            guard let fresh = DepthBuffer(for: g, limit: 1 << 28) else { return }
            buffer = fresh
            if camera.view != nil { shared?.buffer = fresh }
        }
        let rasterizer = g.makeRasterizer()
        for pass in [ExtrusionPass.depth, .color] {
            for building in buildings {
                // A building's walls, then its roof, as MapLibre's bucket orders them.
                for wall in building.walls {
                    rasterizer.addExtrusion(
                        wall.mesh, bottom: wall.bottom, top: wall.top, opacity: opacity, pass: pass, buffer: buffer)
                }
                if let roof = building.roof {
                    rasterizer.addExtrusion(
                        roof.mesh, bottom: roof.color, top: roof.color, opacity: opacity, pass: pass, buffer: buffer)
                }
            }
        }
        g.draw(rasterizer)
        withExtendedLifetime(buffer) {}
    }

    /// GeoJSON vertices as MapLibre's geojson-vt stores them: rounded to the 8192-unit grid of the tile at
    /// the view's integer zoom (MapLibre's, at most the source's default maxzoom 18). A tilted view shows the
    /// eighth of a pixel this moves a roof's edge at zoom 19.
    struct GeoJSONGrid {
        /// The tiles' zoom.
        let z: Double
        /// Map points per tile unit.
        let unit: Double

        init(zoom: Double) {
            z = zoom.isFinite ? max(0, min(18, zoom.rounded(.down))) : 0
            unit = WebMercator.worldSize / pow(2, z) / 8192
        }

        /// The tile holding the ring point `p` (``Camera/mapPoint(of:)``).
        func tile(of p: Point, camera: Camera) -> SourceTile {
            let m = camera.mapPoint(of: p)
            let size = unit * 8192
            return SourceTile(
                square: SourceTile.square(z: z, x: (m.x / size).rounded(.down), y: (m.y / size).rounded(.down)))
        }

        func map(_ ring: [MapPoint]) -> [MapPoint] {
            ring.map {
                MapPoint(x: ($0.x / unit + 0.5).rounded(.down) * unit, y: ($0.y / unit + 0.5).rounded(.down) * unit)
            }
        }
    }

    /// Where a wall runs along a vector tile's cut, and is left out: the tile's square in image points
    /// (facing north, looking down), or in map points with the world copy's offset and the layer's
    /// translation (points on the ground plane) for a turned or tilted view.
    enum Cut {
        case image(Rect)
        case ground(MapRect, offset: Double, tx: Double, ty: Double)
    }

    /// MapLibre's camera: where a point of the view (points) at a height (points) is seen. Facing north and
    /// looking straight down, the camera over the view's centre written out (the drawing of north-up maps);
    /// otherwise the view's own projection (``ViewProjection``), points on the ground plane being turned
    /// offsets from the centre.
    struct Camera {
        /// The view's projection when it is turned or tilted; nil facing north, looking straight down.
        let view: ViewProjection?
        /// MapLibre's near plane for 3D layers (`0.1 x` the camera distance), as a depth.
        let near: Double
        let center: Point
        /// Camera to centre, points.
        let distance: Double
        /// The highest point drawn: below the near plane (MapLibre's `height / 50` from the camera).
        let highest: Double
        /// Ground metres per point at the centre's latitude, for heights: on a sphere of
        /// ``heightEarthRadius``.
        let metresPerPoint: Double
        /// The Earth's radius heights are scaled by, metres: the mean radius (IUGG, 6371008.8 m), MapLibre GL
        /// JS's `earthRadius` in `mercatorZfromAltitude`, which its render tests' images follow (the roofs and
        /// the tops of walls sit 0.11 % higher than with the 6378137 m of the Web Mercator sphere).
        static let heightEarthRadius = 6_371_008.8
        /// The view's top-left corner and map points per point (facing north, looking down: image points to
        /// map points).
        let mapOrigin: MapPoint
        let mapPointsPerPoint: Double

        init(viewport: MapViewport) {
            view = viewport.projection.isNorthUpAndFlat ? nil : viewport.projection
            near = 0.1 * viewport.projection.distance
            center = Point(x: viewport.size.width / 2, y: viewport.size.height / 2)
            distance = 0.5 * viewport.size.height / tan(FillExtrusionLayerRenderer.fieldOfView / 2)
            highest = distance - viewport.size.height / 50
            let latitude = viewport.centerCoordinate.latitude * .pi / 180
            metresPerPoint =
                viewport.mapPointsPerPoint * 2 * .pi * Self.heightEarthRadius / WebMercator.worldSize * cos(latitude)
            mapOrigin = viewport.visibleMapRect.origin
            mapPointsPerPoint = viewport.mapPointsPerPoint
        }

        /// The map point under a ring point (turned points on the ground under a camera, image points
        /// otherwise).
        func mapPoint(of p: Point) -> MapPoint {
            if let view { return view.unturned(p) }
            return MapPoint(x: mapOrigin.x + p.x * mapPointsPerPoint, y: mapOrigin.y + p.y * mapPointsPerPoint)
        }

        /// The vertex of `p` raised by `z` points.
        func vertex(_ p: Point, _ z: Double, top: Double) -> ExtrusionMesh.Vertex {
            if let view {
                let (point, w) = view.project(turned: p, z: z)
                return ExtrusionMesh.Vertex(position: point, inverseDepth: view.distance / w, top: top)
            }
            let k = distance / (distance - z)
            return ExtrusionMesh.Vertex(
                position: Point(x: center.x + (p.x - center.x) * k, y: center.y + (p.y - center.y) * k),
                inverseDepth: k, top: top)
        }

        /// Each wall of `ring` (a quadrilateral from `bottom` to `top`) with its normal as MapLibre packs it
        /// (x east, y south) and the index in `ring` of the vertex it runs from (back to the vertex before),
        /// except along `cut` (the square a vector tile cut the polygon along).
        func walls(_ ring: [Point], from bottom: Double, to top: Double, leaving cut: Cut?) -> [(
            ExtrusionMesh, (x: Double, y: Double), Int
        )] {
            guard top > bottom, ring.count > 1 else { return [] }
            var result: [(ExtrusionMesh, (x: Double, y: Double), Int)] = []
            var previous = ring[ring.count - 1]
            for (k, p) in ring.enumerated() {
                defer { previous = p }
                let dx = p.x - previous.x
                let dy = p.y - previous.y
                let length = (dx * dx + dy * dy).squareRoot()
                guard length > 0, length.isFinite else { continue }
                if let cut, self.along(cut, previous, p) { continue }
                // MapLibre: perp(p1 - p2) unit, packed into 16-bit integers (x carries the top flag), in the
                // map's axes (x east, y south).
                var nx = -dy / length
                var ny = dx / length
                if let view { (nx, ny) = (nx * view.cosH - ny * view.sinH, nx * view.sinH + ny * view.cosH) }
                var mesh = ExtrusionMesh()
                mesh.vertices = [
                    vertex(p, bottom, top: 0), vertex(p, top, top: 1), vertex(previous, bottom, top: 0),
                    vertex(previous, top, top: 1),
                ]
                mesh.indices = [0, 1, 2, 1, 3, 2]
                guard isInFront(mesh) else { continue }
                result.append((mesh, (nx, ny), k))
            }
            return result
        }

        /// Whether every vertex of `mesh` lies beyond the near plane (always, facing north and looking down,
        /// where heights are capped instead).
        func isInFront(_ mesh: ExtrusionMesh) -> Bool {
            guard let view else { return true }
            let limit = view.distance / near
            return mesh.vertices.allSatisfy { $0.inverseDepth > 0 && $0.inverseDepth < limit }
        }

        /// Whether the edge a-b lies along a side of the cut's square.
        func along(_ cut: Cut, _ a: Point, _ b: Point) -> Bool {
            switch cut {
            case .image(let square): return Self.along(square, a, b)
            case let .ground(square, offset, tx, ty):
                guard let view else { return false }
                let ma = view.unturned(Point(x: a.x - tx, y: a.y - ty))
                let mb = view.unturned(Point(x: b.x - tx, y: b.y - ty))
                let e = square.width * 1e-7
                func on(_ u: Double, _ v: Double, _ edge: Double) -> Bool { abs(u - edge) <= e && abs(v - edge) <= e }
                let ax = ma.x - offset
                let bx = mb.x - offset
                return on(ax, bx, square.minX) || on(ax, bx, square.maxX) || on(ma.y, mb.y, square.minY)
                    || on(ma.y, mb.y, square.maxY)
            }
        }

        /// Whether the edge a-b lies along a side of `square`.
        static func along(_ square: Rect, _ a: Point, _ b: Point) -> Bool {
            let e = 1e-6
            return (abs(a.x - square.minX) <= e && abs(b.x - square.minX) <= e)
                || (abs(a.x - square.maxX) <= e && abs(b.x - square.maxX) <= e)
                || (abs(a.y - square.minY) <= e && abs(b.y - square.minY) <= e)
                || (abs(a.y - square.maxY) <= e && abs(b.y - square.maxY) <= e)
        }

        /// The roof of `rings` (outer ring, then holes) at height `z`, triangulated.
        func roof(_ rings: [[Point]], at z: Double) -> ExtrusionMesh? {
            let indices = PolygonTriangulation.triangulate(rings)
            guard !indices.isEmpty else { return nil }
            var mesh = ExtrusionMesh()
            mesh.vertices = rings.joined().map { vertex($0, z, top: 1) }
            mesh.indices = indices
            return isInFront(mesh) ? mesh : nil
        }

        /// The area a mesh covers on the screen (the sum of its triangles'), points.
        func area(of mesh: ExtrusionMesh) -> Double {
            var total = 0.0
            var i = 0
            let v = mesh.vertices
            while i + 2 < mesh.indices.count {
                let a = v[Int(mesh.indices[i])].position
                let b = v[Int(mesh.indices[i + 1])].position
                let c = v[Int(mesh.indices[i + 2])].position
                total += abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / 2
                i += 3
            }
            return total.isFinite ? total : .infinity
        }
    }

    /// MapLibre's `fill_extrusion` vertex lighting, per vertex, in its order of operations.
    struct Lighting {
        let direction: (x: Double, y: Double, z: Double)
        let intensity: Double
        let color: Color

        /// The light of a view facing `heading` degrees: a `viewport`-anchored light turns with the view
        /// (MapLibre rotates its position by the bearing), a `map`-anchored one keeps to the map's axes.
        init(light: StyleLight, heading: Double) {
            let d = light.direction
            if heading != 0, light.anchor == .viewport {
                let h = heading * .pi / 180
                direction = (d.x * cos(h) - d.y * sin(h), d.x * sin(h) + d.y * cos(h), d.z)
            } else {
                direction = d
            }
            intensity = light.intensity
            color = light.color
        }

        /// The colour premultiplied by its alpha (MapLibre's colours in a shader are), opaque.
        static func premultiply(_ c: Color) -> Color {
            Color(red: c.red * c.alpha, green: c.green * c.alpha, blue: c.blue * c.alpha, alpha: 1)
        }

        /// The roof's colour: MapLibre's normal (0, 0, 1) with the top flag packed into x.
        func roof(_ color: Color) -> Color {
            shade(color, normal: (1 / 16384, 0, 1), top: 1, base: 0, height: 0, gradient: 0)
        }

        /// A wall vertex's colour: the normal packed as MapLibre packs it (x * 2^13 floored, times 2, plus
        /// the top flag; y * 2^14 truncated), over 2^14.
        func wall(
            _ color: Color, normal: (x: Double, y: Double), top: Double, base: Double, height: Double,
            gradient: Double
        ) -> Color {
            let px = ((normal.x * 8192).rounded(.down) * 2 + top) / 16384
            let py = (normal.y * 16384).rounded(.towardZero) / 16384
            return shade(color, normal: (px, py, 0), top: top, base: base, height: height, gradient: gradient)
        }

        /// A wall's normal as MapLibre packs it (x * 2^13 floored, times 2; y * 2^14 truncated), over 2^14,
        /// without the top flag (which adds 1 / 2^14 to x).
        static func packed(_ normal: (x: Double, y: Double)) -> (Double, Double) {
            ((normal.x * 8192).rounded(.down) * 2 / 16384, (normal.y * 16384).rounded(.towardZero) / 16384)
        }

        func shade(
            _ color: Color, normal: (Double, Double, Double), top: Double, base: Double, height: Double,
            gradient: Double
        ) -> Color {
            let value = color.red * 0.2126 + color.green * 0.7152 + color.blue * 0.0722
            let dot = normal.0 * direction.x + normal.1 * direction.y + normal.2 * direction.z
            var directional = min(max(dot, 0), 1)
            let low = 1 - intensity
            let high = max(1 - value + intensity, 1)
            directional = low + (high - low) * directional
            // Walls (MapLibre's test is `normal.y != 0`; MapLibre Native darkens walls facing east or west
            // too, whose packed y is 0, so every wall is ramped here).
            if normal.2 == 0 {
                let floor = 0.7 + (0.98 - 0.7) * (1 - intensity)
                let ramp = min(max((top + base) * (height / 150).squareRoot(), floor), 1)
                directional *= (1 - gradient) + gradient * ramp
            }
            func channel(_ c: Double, _ light: Double) -> Double {
                min(max((c + 0.03) * directional * light, 0.3 * (1 - light)), 1)
            }
            return Color(
                red: channel(color.red, self.color.red), green: channel(color.green, self.color.green),
                blue: channel(color.blue, self.color.blue), alpha: 1)
        }
    }
}
