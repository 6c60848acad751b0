import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// Line labels of SDF glyphs in a tilted view, as MapLibre's `symbol_projection` places them: anchors found on
/// the ground (they are layout, in tile units), each label then laid out in its label plane.
extension SymbolLayerRenderer {
    /// The copies of a line label along `line` (map points of the world copy `offset`) in a tilted view.
    ///
    /// - Pitched with the map: glyphs walk the line on the turned ground, their pens scaled by one over the
    ///   anchor's viewport ratio (MapLibre's `pitchScaledFontSize`), each quad scaled by the map ratio and
    ///   projected; the label reads upright on the image.
    /// - Facing the camera: the part of the line around the anchor that lies in front of the camera is
    ///   projected and the glyphs walk it on the image, pens and quads scaled by the viewport ratio.
    ///
    /// Both collide by MapLibre GL's circles along the glyphs' path on the image, scaled by the viewport ratio
    /// at the anchor.
    /// Anchors beyond the view's ground strip (``ViewProjection/groundStrip(margin:)``) are not placed.
    func placeGlyphsAlongTiltedLine(
        _ line: [MapPoint], offset: Double, text: String, glyphText: GlyphText, glyphs: SDFGlyphSource, size: Double,
        context: EvaluationContext, padding: Double, overlap: SymbolOverlap, collisions: inout SpatialGrid,
        center: Bool,
        repeats: inout RepeatedAnchors, tileBounds: MapRect?, cut: MapRect? = nil
    ) -> [SDFText] {
        let tileWidth = tileBounds.map { $0.width / selection.viewport.mapPointsPerPoint }
        let projection = selection.viewport.projection
        guard !projection.isFlat, line.count > 1 else { return [] }
        let strip = projection.groundStrip(margin: 2 * Self.gridPadding)
        let ground = line.map { projection.turned(MapPoint(x: $0.x + offset, y: $0.y)) }
        let em = GlyphShaping.oneEm
        let align = Self.alignment(properties.string(.textAnchor, context))
        let shaping = GlyphShaping.shape(
            glyphText.characters, maxWidth: .infinity, lineHeight: properties.number(.textLineHeight, context) * em,
            align: align, justify: 0.5, spacing: properties.number(.textLetterSpacing, context) * em,
            offset: (0, 0))
        let placed = shaping.lines.flatMap { $0 }
        guard !placed.isEmpty, !shaping.isEmpty else { return [] }
        let fontScale = size / em
        let pens = placed.map { ($0.x - shaping.left) * fontScale }
        let advances = placed.map { Double($0.glyph.advance) * $0.scale * fontScale }
        let width = (shaping.right - shaping.left) * fontScale
        let across = (properties.numbers(.textOffset, context).map { $0.count > 1 ? $0[1] : 0 } ?? 0) * size
        let anchors = layoutAnchors(
            line, ground: ground, offset: offset, shapedLength: shaping.right - shaping.left, context: context,
            center: center, tileWidth: tileWidth, cut: cut)
        let pitchWithMap = textAlignment(context).pitchWithMap
        // `viewport-glyph`: each glyph stands upright on the image at its place on the line.
        let uprightGlyphs = properties.string(.textRotationAlignment, context) == "viewport-glyph"
        var distances: [Double] = [0]
        for (a, b) in zip(ground, ground.dropFirst()) {
            distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y))
        }
        var result: [SDFText] = []
        for along in anchors {
            var i = 0
            while i + 2 < distances.count, distances[i + 1] < along { i += 1 }
            let segment = distances[i + 1] - distances[i]
            let t = segment > 0 ? (along - distances[i]) / segment : 0
            let anchor = Self.lerp(ground[i], ground[i + 1], t)
            guard strip.contains(anchor.y) else { continue }
            let depth = projection.depth(anchor)
            let ratios = PerspectiveRatios(depth: depth, distance: projection.distance)
            // The line, the anchor's distance along it, the pens' scale and the quads' scale in the label plane.
            let planeLine: [Point]
            let planeAnchor: Double
            let plane: LabelPlane
            let (penScale, quadScale) =
                pitchWithMap ? (ratios.alongLine, ratios.map) : (ratios.viewport, ratios.viewport)
            if pitchWithMap {
                (planeLine, planeAnchor) = (ground, along)
                plane = LabelPlane(
                    projection: projection, ground: true, strip: strip, perspectiveRatio: ratios.viewport)
            } else {
                let (run, index) = Self.run(of: ground, around: anchor, segment: i, in: strip)
                planeLine = run.map { projection.project(turned: $0).point }
                var d = 0.0
                for k in 0..<index {
                    d += hypot(planeLine[k + 1].x - planeLine[k].x, planeLine[k + 1].y - planeLine[k].y)
                }
                planeAnchor = d
                plane = LabelPlane(
                    projection: projection, ground: false, strip: strip, perspectiveRatio: ratios.viewport)
            }
            let frames = glyphsAlongLine(
                planeLine, text: text, pens: pens.map { $0 * penScale }, advances: advances.map { $0 * penScale },
                width: width * penScale, context: context, padding: padding, overlap: overlap,
                collisions: &collisions, center: center, repeats: &repeats, anchors: [planeAnchor], plane: plane,
                repeatPoint: anchor,
                repeatTile: cut.map { Rect(x: $0.minX + offset, y: $0.minY, width: $0.width, height: $0.height) },
                alignX: align.x)
            let homography = projection.groundHomography
            for copy in frames {
                var quads: [SDFGlyphQuad] = []
                for frame in copy {
                    let g = placed[frame.index]
                    guard g.glyph.hasBitmap, let texture = glyphs.texture(g.glyph, stack: glyphText.stacks[g.section])
                    else { continue }
                    let down = Point(x: -sin(frame.angle), y: cos(frame.angle))
                    let shift = across * quadScale
                    let place = Transform(scaleX: fontScale * quadScale, y: fontScale * quadScale)
                        .concatenating(Transform(rotationAngle: uprightGlyphs ? 0 : frame.angle))
                        .concatenating(
                            Transform(translationX: frame.point.x + down.x * shift, y: frame.point.y + down.y * shift))
                    let half = Double(g.glyph.advance) * g.scale / 2
                    var quad = SDFText.quad(
                        g.glyph, texture: texture, origin: Point(x: -half, y: g.y), scale: g.scale, place: place)
                    quad.color = glyphText.colors[g.section]
                    if pitchWithMap { quad.projective = Homography(quad.transform).concatenating(homography) }
                    quads.append(quad)
                }
                var drawn = SDFText(
                    quads: quads, fontScale: fontScale * quadScale, pixelRatio: selection.viewport.scale)
                if pitchWithMap { drawn.gammaScale = depth / (projection.distance * projection.cosP) }
                result.append(drawn)
            }
        }
        return result
    }

    /// The image points of the anchors of a line symbol facing the camera (`text-rotation-alignment:
    /// viewport` on a line) along `line` (map points of the world copy `offset`) in a tilted view: MapLibre's
    /// anchors (``textLineAnchors(_:shapedLength:context:center:tileWidth:)``) found on the turned ground for
    /// text `width` points long at `size`, projected; those beyond the ground strip are left out.
    func tiltedLineAnchors(
        _ line: [MapPoint], offset: Double, width: Double, size: Double, context: EvaluationContext,
        tileBounds: MapRect?, cut: MapRect? = nil
    ) -> [Point] {
        let projection = selection.viewport.projection
        guard line.count > 1, size > 0 else { return [] }
        let strip = projection.groundStrip(margin: 2 * Self.gridPadding)
        let ground = line.map { projection.turned(MapPoint(x: $0.x + offset, y: $0.y)) }
        let distances = layoutAnchors(
            line, ground: ground, offset: offset, shapedLength: width * GlyphShaping.oneEm / size, context: context,
            center: properties.string(.symbolPlacement, context) == "line-center",
            tileWidth: tileBounds.map { $0.width / selection.viewport.mapPointsPerPoint }, cut: cut)
        var lengths: [Double] = [0]
        for (a, b) in zip(ground, ground.dropFirst()) { lengths.append(lengths.last! + hypot(b.x - a.x, b.y - a.y)) }
        return distances.compactMap { along in
            var i = 0
            while i + 2 < lengths.count, lengths[i + 1] < along { i += 1 }
            let segment = lengths[i + 1] - lengths[i]
            let p = Self.lerp(ground[i], ground[i + 1], segment > 0 ? (along - lengths[i]) / segment : 0)
            return strip.contains(p.y) ? projection.project(turned: p).point : nil
        }
    }

    /// The distances along `ground` (the line turned) of a line label's anchors in a tilted view. Anchors are
    /// layout, found in the tile, not on the image: on a piece cut to its tile (`cut`), they are found on the
    /// unturned line at the view's scale with that tile's tests (turning changes no distance along the line,
    /// nor its angles); otherwise on the turned line itself.
    func layoutAnchors(
        _ line: [MapPoint], ground: [Point], offset: Double, shapedLength: Double, context: EvaluationContext,
        center: Bool, tileWidth: Double?, cut: MapRect?
    ) -> [Double] {
        guard let cut, !center else {
            return textLineAnchors(
                ground, shapedLength: shapedLength, context: context, center: center, tileWidth: tileWidth,
                reach: labelReach(.turned))
        }
        let k = selection.viewport.mapPointsPerPoint
        let flat = line.map { Point(x: ($0.x + offset) / k, y: $0.y / k) }
        let tile = Rect(x: (cut.minX + offset) / k, y: cut.minY / k, width: cut.width / k, height: cut.height / k)
        return textLineAnchors(
            flat, shapedLength: shapedLength, context: context, center: center,
            tileWidth: cut.width / k, tile: tile, reach: labelReach(.scaledMap))
    }

    /// The anchors (world points) of a line symbol facing the viewport along `line` (world points) in an
    /// untilted view: MapLibre's anchors (``textLineAnchors(_:shapedLength:context:center:tileWidth:)``) for text
    /// `width` points long at `size`.
    func flatLineAnchors(
        _ line: [Point], width: Double, size: Double, context: EvaluationContext, center: Bool, tileBounds: MapRect?,
        tile: Rect? = nil
    ) -> [Point] {
        guard line.count > 1, size > 0 else { return [] }
        let distances = textLineAnchors(
            line, shapedLength: width * GlyphShaping.oneEm / size, context: context, center: center,
            tileWidth: tileBounds.map { $0.width / selection.viewport.mapPointsPerPoint }, tile: tile,
            reach: labelReach(.world))
        var lengths: [Double] = [0]
        for (a, b) in zip(line, line.dropFirst()) { lengths.append(lengths.last! + hypot(b.x - a.x, b.y - a.y)) }
        return distances.map { Self.point(along: line, distances: lengths, at: $0).point }
    }

    /// The length (points) of `glyphText` at `size` shaped on one line as line labels are (letter spacing
    /// included).
    func glyphTextWidth(_ glyphText: GlyphText, size: Double, context: EvaluationContext) -> Double {
        let em = GlyphShaping.oneEm
        let shaping = GlyphShaping.shape(
            glyphText.characters, maxWidth: .infinity, lineHeight: properties.number(.textLineHeight, context) * em,
            align: (0.5, 0.5), justify: 0.5, spacing: properties.number(.textLetterSpacing, context) * em,
            offset: (0, 0))
        return shaping.isEmpty ? 0 : (shaping.right - shaping.left) * size / em
    }

    /// The run of `line` (turned ground) through `point` on its segment `segment` that lies inside the `strip`
    /// (cut where it leaves it), and the index of `point` in the run.
    static func run(of line: [Point], around point: Point, segment: Int, in strip: ClosedRange<Double>)
        -> (run: [Point], index: Int)
    {
        func cut(_ inside: Point, _ outside: Point) -> Point {
            let y = outside.y < strip.lowerBound ? strip.lowerBound : strip.upperBound
            let t = (y - inside.y) / (outside.y - inside.y)
            return lerp(inside, outside, t.isFinite ? t : 0)
        }
        var before: [Point] = []
        var previous = point
        var j = segment
        while j >= 0 {
            let q = line[j]
            if !strip.contains(q.y) {
                before.append(cut(previous, q))
                break
            }
            before.append(q)
            previous = q
            j -= 1
        }
        var run = Array(before.reversed())
        let index = run.count
        run.append(point)
        previous = point
        j = segment + 1
        while j < line.count {
            let q = line[j]
            if !strip.contains(q.y) {
                run.append(cut(previous, q))
                break
            }
            run.append(q)
            previous = q
            j += 1
        }
        return (run, index)
    }

    static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
}
