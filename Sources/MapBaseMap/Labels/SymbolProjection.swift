import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// How a symbol's text or its icon sits under the view's heading and pitch, MapLibre's `*-rotation-alignment`
/// and `*-pitch-alignment` resolved: `rotateWithMap` for `map` (`auto`: `map` for line placement),
/// `pitchWithMap` for `map` (`auto`: as the rotation alignment; `viewport-glyph` counts as `viewport`).
struct SymbolAlignment: Equatable {
    var rotateWithMap: Bool
    var pitchWithMap: Bool

    init(rotateWithMap: Bool, pitchWithMap: Bool) {
        self.rotateWithMap = rotateWithMap
        self.pitchWithMap = pitchWithMap
    }

    /// The alignment of the property values `rotation` and `pitch` for `symbol-placement` `placement`.
    init(rotation: String, pitch: String, placement: String) {
        let rotation = rotation == "auto" ? (placement == "point" ? "viewport" : "map") : rotation
        rotateWithMap = rotation == "map"
        pitchWithMap = pitch == "auto" ? rotation == "map" : pitch == "map"
    }
}

/// MapLibre's perspective ratios (`symbol_sdf.vertex`, `CollisionIndex::projectAndGetPerspectiveRatio`) at a
/// symbol whose anchor is `depth` points from the camera along the view axis, the camera `distance` points
/// from the center:
///
/// - `viewport` (a symbol facing the camera, and every collision box): `0.5 + 0.5 x distance / depth`, so
///   far symbols shrink half as fast as the ground;
/// - `map` (a symbol lying on the ground, which perspective already shrinks): `0.5 + 0.5 x depth / distance`,
///   undoing half of that shrinking;
/// - `alongLine` (the spacing of a ground line label's glyphs, MapLibre's `pitchScaledFontSize`): one over
///   the viewport ratio.
///
/// Each is clamped to 0...4 as MapLibre clamps it; a depth that is not positive gives 1.
struct PerspectiveRatios: Equatable {
    var viewport: Double
    var map: Double

    init(depth: Double, distance: Double) {
        guard depth > 0, distance > 0, depth.isFinite else {
            (viewport, map) = (1, 1)
            return
        }
        viewport = min(max(0.5 + 0.5 * distance / depth, 0), 4)
        map = min(max(0.5 + 0.5 * depth / distance, 0), 4)
    }

    var alongLine: Double { viewport > 0 ? 1 / viewport : 1 }
}

extension MapViewport {
    /// The depth (points along the view axis) of the ground seen at image point `p` of a tilted view; nil at or
    /// above the horizon, or when the view is flat.
    func groundDepth(at p: Point) -> Double? {
        let projection = self.projection
        guard !projection.isFlat, let g = projection.groundTurned(at: p) else { return nil }
        return projection.depth(g)
    }

    /// The angle (radians, clockwise on the image) of the map's east at image point `p` of a tilted view:
    /// MapLibre's `symbol_rotation` for a symbol turned with the map but facing the camera (it projects a
    /// short step east of the anchor and measures its angle on the image). ``mapAngle`` in a flat view.
    func projectedMapAngle(at p: Point) -> Double {
        let projection = self.projection
        guard !projection.isFlat, let g = projection.groundTurned(at: p) else { return mapAngle }
        let a = projection.project(turned: g).point
        let b = projection.project(turned: Point(x: g.x + projection.cosH, y: g.y - projection.sinH)).point
        return atan2(b.y - a.y, b.x - a.x)
    }
}

/// The plane a line label of a tilted view is laid out in (MapLibre's label plane), and the scale of its
/// collision circles on the image.
struct LabelPlane {
    /// The view; with `ground`, the line is on the turned ground (``ViewProjection/turned(_:)``) and
    /// projected to the image, else it is already on the image.
    let projection: ViewProjection
    let ground: Bool
    /// The ground that may be projected (``ViewProjection/groundStrip(margin:)``).
    let strip: ClosedRange<Double>
    /// The perspective ratio at the label's anchor (``PerspectiveRatios/viewport``): its collision circles'
    /// scale.
    var perspectiveRatio = 1.0

    /// The image point of a point of the plane (nil for ground beyond the strip).
    func image(_ p: Point) -> Point? {
        guard ground else { return p }
        guard strip.contains(p.y) else { return nil }
        return projection.project(turned: p).point
    }
}

extension SymbolLayerRenderer {
    /// The alignment of the layer's text for `context`.
    func textAlignment(_ context: EvaluationContext) -> SymbolAlignment {
        SymbolAlignment(
            rotation: properties.string(.textRotationAlignment, context),
            pitch: properties.string(.textPitchAlignment, context),
            placement: properties.string(.symbolPlacement, context))
    }

    /// The alignment of the layer's icons for `context`.
    func iconAlignment(_ context: EvaluationContext) -> SymbolAlignment {
        SymbolAlignment(
            rotation: properties.string(.iconRotationAlignment, context),
            pitch: properties.string(.iconPitchAlignment, context),
            placement: properties.string(.symbolPlacement, context))
    }

    /// The angle an icon at image point `anchor` is turned by before `icon-rotate`: with the map when it
    /// rotates with it (on the image, facing the camera: the map's east as projected there), else 0.
    func iconAngle(_ context: EvaluationContext, at anchor: Point) -> Double {
        let alignment = iconAlignment(context)
        guard alignment.rotateWithMap else { return 0 }
        return alignment.pitchWithMap ? selection.viewport.mapAngle : selection.viewport.projectedMapAngle(at: anchor)
    }

    /// A point label of SDF glyphs laid out upright at `anchor` (image points) as the view's heading and
    /// pitch show it (MapLibre's `symbol_sdf` vertex shader). North up and flat: unchanged. Turned and flat:
    /// text aligned to the map turns with it about the anchor. Tilted: facing the camera, scaled by the
    /// viewport ratio (turned by the map's projected east when aligned to the map); lying on the ground,
    /// its layout offsets put on the turned ground (turned with the map when aligned to it), scaled by the
    /// map ratio and projected, its edge widened by MapLibre's gamma scale. The collision box is the
    /// upright box scaled by the viewport ratio about the anchor in both cases (MapLibre's CollisionIndex).
    ///
    /// With `variable` anchors (turned and flat, text aligned to the map) the box keeps its upright size but
    /// moves by the anchor's shift turned with the map (MapLibre's `calculateVariableLayoutOffset` with
    /// `rotateWithMap`); a fixed anchor's box stays where the upright text has it.
    func alignedPointText(
        _ candidate: (content: PlacedLabel.Content, box: Rect), at anchor: Point, context: EvaluationContext,
        variable: Bool = false
    ) -> (content: PlacedLabel.Content, box: Rect) {
        let viewport = selection.viewport
        let projection = viewport.projection
        guard !projection.isNorthUpAndFlat, case .sdf(var text) = candidate.content else { return candidate }
        let alignment = textAlignment(context)
        let toAnchor = Transform(translationX: -anchor.x, y: -anchor.y)
        if projection.isFlat {
            guard alignment.rotateWithMap, viewport.mapAngle != 0 else { return candidate }
            let rotation = Transform(rotationAngle: viewport.mapAngle)
            let turn = toAnchor.concatenating(rotation).concatenating(Transform(translationX: anchor.x, y: anchor.y))
            for k in text.quads.indices { text.quads[k].transform = text.quads[k].transform.concatenating(turn) }
            return (.sdf(text), variable ? Self.shiftTurned(candidate.box, about: anchor, by: rotation) : candidate.box)
        }
        guard let depth = viewport.groundDepth(at: anchor), let ground = projection.groundTurned(at: anchor) else {
            return candidate
        }
        let ratios = PerspectiveRatios(depth: depth, distance: projection.distance)
        // The anchor's shift turned with the map, as on a flat map (above).
        let turnsShift = variable && alignment.pitchWithMap && alignment.rotateWithMap && viewport.mapAngle != 0
        let upright =
            turnsShift
            ? Self.shiftTurned(candidate.box, about: anchor, by: Transform(rotationAngle: viewport.mapAngle))
            : candidate.box
        let box = Self.scaled(upright, about: anchor, by: ratios.viewport)
        if alignment.pitchWithMap {
            // A variable anchor's shift (from the text centred on the anchor to the anchor chosen) moves the
            // anchor on the map plane scaled by the viewport ratio; the glyphs about the moved anchor take the
            // map ratio (MapLibre's `updateVariableAnchorsForBucket` adds the shift, in tile units at the
            // perspective-scaled text size, to the anchor before projecting it).
            let shift = variable ? Point(x: upright.midX - anchor.x, y: upright.midY - anchor.y) : Point(x: 0, y: 0)
            let turn = Transform(rotationAngle: alignment.rotateWithMap ? viewport.mapAngle : 0)
            let onGround = Transform(translationX: -anchor.x - shift.x, y: -anchor.y - shift.y)
                .concatenating(turn)
                .concatenating(Transform(scaleX: ratios.map, y: ratios.map))
                .concatenating(
                    Transform(translationX: shift.x * ratios.viewport, y: shift.y * ratios.viewport).concatenating(turn)
                )
                .concatenating(Transform(translationX: ground.x, y: ground.y))
            let homography = projection.groundHomography
            for k in text.quads.indices {
                text.quads[k].projective = Homography(text.quads[k].transform.concatenating(onGround))
                    .concatenating(homography)
            }
            text.fontScale *= ratios.map
            text.gammaScale = depth / (projection.distance * projection.cosP)
        } else {
            let facing = toAnchor.concatenating(
                Transform(rotationAngle: alignment.rotateWithMap ? viewport.projectedMapAngle(at: anchor) : 0)
            )
            .concatenating(Transform(scaleX: ratios.viewport, y: ratios.viewport))
            .concatenating(Transform(translationX: anchor.x, y: anchor.y))
            for k in text.quads.indices { text.quads[k].transform = text.quads[k].transform.concatenating(facing) }
            text.fontScale *= ratios.viewport
        }
        return (.sdf(text), box)
    }

    /// An icon placed by ``placeIcon`` at `anchor` (image points) of a tilted view, laid on the ground when
    /// its pitch alignment is `map`: its quads (sized by the viewport ratio) rescaled to the map ratio about
    /// the anchor, put on the turned ground there and projected. The collision box is kept (the viewport's).
    func alignedIcon(
        _ candidate: (icon: PlacedIcon, box: Rect), at anchor: Point, context: EvaluationContext
    ) -> (icon: PlacedIcon, box: Rect) {
        let viewport = selection.viewport
        let projection = viewport.projection
        guard !projection.isFlat, iconAlignment(context).pitchWithMap,
            let depth = viewport.groundDepth(at: anchor), let ground = projection.groundTurned(at: anchor)
        else { return candidate }
        let ratios = PerspectiveRatios(depth: depth, distance: projection.distance)
        guard ratios.viewport > 0 else { return candidate }
        let k = ratios.map / ratios.viewport
        let onGround = Transform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(Transform(scaleX: k, y: k))
            .concatenating(Transform(translationX: ground.x, y: ground.y))
        var icon = candidate.icon
        let homography = projection.groundHomography
        for q in icon.quads.indices {
            icon.quads[q].projective = Homography(icon.quads[q].transform.concatenating(onGround))
                .concatenating(homography)
        }
        icon.linear = true
        return (icon, candidate.box)
    }

    /// `box` moved so that its centre's offset from `anchor` is turned by `rotation` (its size kept): a variable
    /// anchor's collision box on a map that turns the text (MapLibre's `calculateVariableLayoutOffset`).
    static func shiftTurned(_ box: Rect, about anchor: Point, by rotation: Transform) -> Rect {
        let shift = Point(x: box.midX - anchor.x, y: box.midY - anchor.y)
        let turned = shift.applying(rotation)
        return box.offsetBy(dx: turned.x - shift.x, dy: turned.y - shift.y)
    }

    /// `box` scaled by `k` about `point`.
    static func scaled(_ box: Rect, about point: Point, by k: Double) -> Rect {
        Rect(
            x: point.x + (box.minX - point.x) * k, y: point.y + (box.minY - point.y) * k, width: box.width * k,
            height: box.height * k)
    }

    /// How far outside the image MapLibre's collision grid reaches, in points: a symbol whose box lies
    /// wholly farther out is not placed (it neither shows nor blocks others). Twice as far in a tilted view
    /// (MapLibre Native's `findViewportPadding`).
    static let gridPadding = 100.0

    /// Whether a box (world points) meets the image grown by ``gridPadding`` (MapLibre's `isInsideGrid`).
    func onGrid(_ box: Rect) -> Bool {
        let viewport = selection.viewport
        let p = viewport.projection.isFlat ? Self.gridPadding : 2 * Self.gridPadding
        if !viewport.projection.isNorthUpAndFlat {
            return Rect(origin: viewport.worldOrigin, size: viewport.size).insetBy(dx: -p, dy: -p).intersects(box)
        }
        let perPoint = viewport.mapPointsPerPoint
        let visible = viewport.visibleMapRect
        return box.maxX >= visible.minX / perPoint - p && box.minX < visible.maxX / perPoint + p
            && box.maxY >= visible.minY / perPoint - p && box.minY < visible.maxY / perPoint + p
    }
}
