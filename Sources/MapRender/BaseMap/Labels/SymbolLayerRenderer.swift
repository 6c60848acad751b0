import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// Places the labels of a `symbol` layer: text from `text-field` (with `{field}` tokens), wrapped at
/// `text-max-width`, anchored and offset around the feature's label point, or laid glyph by glyph along
/// lines (`symbol-placement: line`), upright, not where the line bends more than `text-max-angle`.
///
/// Positions and collision boxes are in world points (map points / map points per point), a frame that
/// does not depend on the image's edges. Labels are tried in the layer's `symbol-sort-key` order (lower
/// first, then data order); one that overlaps an earlier label (grown by `text-padding`) is dropped
/// unless `text-allow-overlap`.
struct SymbolLayerRenderer {
    let layer: StyleLayer
    let source: FeatureSource
    let selection: FeatureSelection

    /// How far outside the image labels are considered, in points.
    static let margin = 128.0

    func place(into collisions: inout CollisionIndex) throws -> [PlacedLabel] {
        var placed: [PlacedLabel] = []
        var failure: Error?
        let perPoint = selection.viewport.mapPointsPerPoint
        selection.forEachFeature(of: source, layer: layer, margin: Self.margin) { feature, offset, context in
            guard failure == nil else { return }
            var text = resolveText(context)
            guard !text.isEmpty else { return }
            switch layer.string("text-transform", context) {
            case "uppercase": text = text.uppercased()
            case "lowercase": text = text.lowercased()
            default: break
            }
            let font: Font
            do { font = try self.font(for: text, context) } catch {
                failure = error
                return
            }
            let size = layer.number("text-size", context)
            guard size > 0 else { return }
            let opacity = layer.number("text-opacity", context)
            let color = layer.color("text-color", context) ?? .black
            let halo = layer.color("text-halo-color", context) ?? .clear
            var label = PlacedLabel(
                content: .lines([]), font: font, size: size, color: color.withAlphaComponent(color.alpha * opacity),
                haloColor: halo.withAlphaComponent(halo.alpha * opacity),
                haloWidth: layer.number("text-halo-width", context))
            let padding = layer.number("text-padding", context)
            let allowOverlap = layer.value("text-allow-overlap", context) == .bool(true)
            if layer.string("symbol-placement", context) == "line" {
                guard case .lines(let lines) = feature.shape else { return }
                for line in lines {
                    let world = line.map { Point(x: ($0.x + offset) / perPoint, y: $0.y / perPoint) }
                    for glyphs in placeAlongLine(
                        world, text: text, font: font, size: size, context: context, padding: padding,
                        allowOverlap: allowOverlap, collisions: &collisions)
                    {
                        label.content = .glyphs(glyphs)
                        label.bounds = label.contentBounds()
                        placed.append(label)
                    }
                }
            } else {
                for point in anchors(for: feature) {
                    let anchor = Point(x: (point.x + offset) / perPoint, y: point.y / perPoint)
                    guard
                        let lines = placeAtPoint(
                            anchor, text: text, font: font, size: size, context: context, padding: padding,
                            allowOverlap: allowOverlap, collisions: &collisions)
                    else { continue }
                    label.content = .lines(lines)
                    label.bounds = label.contentBounds()
                    placed.append(label)
                    break
                }
            }
        }
        if let failure { throw failure }
        return placed
    }

    /// Where point labels of a feature go, in map points: its label point; for a polygon whose label point
    /// is outside the image, the label points of its largest part cut to each 256-point world tile of
    /// the view (a grid fixed to the world) where enough of it is inside, nearest the image center first.
    /// The first anchor where the label fits wins.
    func anchors(for feature: FeatureSource.Feature) -> [MapPoint] {
        let viewport = selection.viewport
        let pad = Self.margin * viewport.mapPointsPerPoint
        let window = viewport.visibleMapRect.insetBy(dx: -pad, dy: -pad)
        let p = feature.labelPoint
        let inside = { (q: MapPoint) in
            q.x >= window.minX && q.x <= window.maxX && q.y >= window.minY && q.y <= window.maxY
        }
        let visible = viewport.visibleMapRect
        let shown = { (q: MapPoint) in
            q.x >= visible.minX && q.x <= visible.maxX && q.y >= visible.minY && q.y <= visible.maxY
        }
        // Also accept the label point in a neighbouring world copy.
        let world = WebMercator.worldSize
        let copies = [p, MapPoint(x: p.x + world, y: p.y), MapPoint(x: p.x - world, y: p.y)]
        guard case .polygons(let polygons) = feature.shape, !copies.contains(where: shown) else {
            return copies.contains(where: inside) ? [p] : []
        }
        guard
            let ring = polygons.compactMap(\.first).max(by: {
                abs(FeatureSource.signedArea($0)) < abs(FeatureSource.signedArea($1))
            })
        else { return [] }
        let tile = 256 * viewport.mapPointsPerPoint
        let area = FeatureSource.bounds(of: ring).intersection(
            MapRect(
                x: window.minX.truncatingRemainder(dividingBy: world), y: window.minY, width: window.width,
                height: window.height))
        guard !area.isNull, !area.isEmpty else { return [] }
        var result: [MapPoint] = []
        var ty = (area.minY / tile).rounded(.down)
        while ty * tile < area.maxY {
            var tx = (area.minX / tile).rounded(.down)
            while tx * tile < area.maxX {
                let cell = MapRect(x: tx * tile, y: ty * tile, width: tile, height: tile)
                let piece = Self.clip(ring, to: cell)
                if piece.count > 2, abs(FeatureSource.signedArea(piece)) > 0.25 * tile * tile {
                    let q = FeatureSource.labelPoint(piece)
                    if shown(q) { result.append(q) }
                }
                tx += 1
            }
            ty += 1
        }
        // One label per feature: the candidate nearest the image center is tried first.
        let center = MapPoint(x: visible.midX, y: visible.midY)
        return result.sorted { hypot($0.x - center.x, $0.y - center.y) < hypot($1.x - center.x, $1.y - center.y) }
    }

    /// A ring cut to a rect (Sutherland–Hodgman), in map points.
    static func clip(_ ring: [MapPoint], to r: MapRect) -> [MapPoint] {
        var points = ring
        for edge in 0..<4 {
            guard !points.isEmpty else { return [] }
            func inside(_ p: MapPoint) -> Bool {
                switch edge {
                case 0: return p.x >= r.minX
                case 1: return p.x <= r.maxX
                case 2: return p.y >= r.minY
                default: return p.y <= r.maxY
                }
            }
            func cross(_ a: MapPoint, _ b: MapPoint) -> MapPoint {
                if edge < 2 {
                    let x = edge == 0 ? r.minX : r.maxX
                    return MapPoint(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
                }
                let y = edge == 2 ? r.minY : r.maxY
                return MapPoint(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
            }
            var out: [MapPoint] = []
            var previous = points[points.count - 1]
            for p in points {
                if inside(p) {
                    if !inside(previous) { out.append(cross(previous, p)) }
                    out.append(p)
                } else if inside(previous) {
                    out.append(cross(previous, p))
                }
                previous = p
            }
            points = out
        }
        return points
    }

    /// `text-field` evaluated, with `{field}` tokens replaced by the feature's values.
    func resolveText(_ context: EvaluationContext) -> String {
        let raw = layer.string("text-field", context)
        guard raw.contains("{") else { return raw.trimmingCharacters(in: .whitespaces) }
        var out = ""
        var rest = Substring(raw)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let key = String(rest[rest.index(after: open)..<close])
            out += context.properties[key]?.text ?? ""
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out.trimmingCharacters(in: .whitespaces)
    }

    /// The first font of `text-font` that has every character, else the first.
    func font(for text: String, _ context: EvaluationContext) throws -> Font {
        let names = layer.value("text-font", context).array?.compactMap(\.string) ?? ["DejaVu Sans"]
        var first: Font?
        for name in names {
            guard let path = StyleFonts.path(for: name) else { continue }
            let font = try Font.load(path: path)
            if first == nil { first = font }
            if font.covers(text) { return font }
        }
        return try first ?? Font.load(path: StyleFonts.dejaVuSans)
    }

    /// Greedy word wrap at `maxWidth` points.
    static func wrap(_ text: String, font: Font, size: Double, maxWidth: Double) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count > 1 else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in words {
            let candidate = current.isEmpty ? word : current + " " + word
            if !current.isEmpty, font.measure(candidate, size: size).width > maxWidth {
                lines.append(current)
                current = word
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    func placeAtPoint(
        _ anchor: Point, text: String, font: Font, size: Double, context: EvaluationContext, padding: Double,
        allowOverlap: Bool, collisions: inout CollisionIndex
    ) -> [(text: String, origin: Point)]? {
        let lines = Self.wrap(
            text, font: font, size: size, maxWidth: layer.number("text-max-width", context) * size)
        let lineHeight = layer.number("text-line-height", context) * size
        let widths = lines.map { font.measure($0, size: size).width }
        let width = widths.max() ?? 0
        let height = Double(lines.count) * lineHeight
        let offset = layer.value("text-offset", context).array?.compactMap(\.number) ?? [0, 0]
        let ox = (offset.first ?? 0) * size
        let oy = (offset.count > 1 ? offset[1] : 0) * size
        let anchorName = layer.string("text-anchor", context)
        var x = anchor.x - width / 2
        var y = anchor.y - height / 2
        if anchorName.contains("left") { x = anchor.x }
        if anchorName.contains("right") { x = anchor.x - width }
        if anchorName.hasPrefix("top") { y = anchor.y }
        if anchorName.hasPrefix("bottom") { y = anchor.y - height }
        x += ox
        y += oy
        let box = Rect(x: x, y: y, width: width, height: height)
        let padded = box.insetBy(dx: -padding, dy: -padding)
        if !allowOverlap, collisions.collides(padded) { return nil }
        collisions.insert(padded)
        let metrics = font.verticalMetrics
        let ascent = metrics.ascender * size
        let glyphHeight = (metrics.ascender + metrics.descender) * size
        return lines.enumerated().map { i, line in
            let baseline = y + Double(i) * lineHeight + (lineHeight - glyphHeight) / 2 + ascent
            return (line, Point(x: x + (width - widths[i]) / 2, y: baseline))
        }
    }

    func placeAlongLine(
        _ line: [Point], text: String, font: Font, size: Double, context: EvaluationContext, padding: Double,
        allowOverlap: Bool, collisions: inout CollisionIndex
    ) -> [[PlacedGlyph]] {
        guard line.count > 1 else { return [] }
        let shaped = font.shape(text, size: size)
        guard !shaped.glyphs.isEmpty else { return [] }
        var distances: [Double] = [0]
        for (a, b) in zip(line, line.dropFirst()) { distances.append(distances.last! + hypot(b.x - a.x, b.y - a.y)) }
        let total = distances.last!
        let width = shaped.width
        guard total >= width + 2 * padding else { return [] }
        let spacing = max(layer.number("symbol-spacing", context), width + 2 * padding)
        var centers: [Double] = []
        if total < spacing {
            centers = [total / 2]
        } else {
            var c = spacing / 2
            while c + width / 2 <= total {
                if c - width / 2 >= 0 { centers.append(c) }
                c += spacing
            }
            if centers.isEmpty { centers = [total / 2] }
        }
        let maxAngle = layer.number("text-max-angle", context) * .pi / 180
        func at(_ d: Double) -> (Point, Double) {
            var i = 0
            while i + 2 < distances.count, distances[i + 1] < d { i += 1 }
            let a = line[i]
            let b = line[i + 1]
            let seg = distances[i + 1] - distances[i]
            let t = seg > 0 ? (d - distances[i]) / seg : 0
            return (Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), atan2(b.y - a.y, b.x - a.x))
        }
        var results: [[PlacedGlyph]] = []
        for center in centers {
            let start = center - width / 2
            let (p0, _) = at(start)
            let (p1, _) = at(start + width)
            // Upright: read left to right; walk the line backwards when it runs right to left.
            let reversed = p1.x < p0.x
            var glyphs: [PlacedGlyph] = []
            var boxes: [Rect] = []
            var previousAngle: Double?
            var ok = true
            for g in shaped.glyphs {
                let along = g.x + g.advance / 2
                let d = reversed ? start + width - along : start + along
                var (p, angle) = at(d)
                if reversed { angle += .pi }
                if let previous = previousAngle {
                    var delta = angle - previous
                    while delta > .pi { delta -= 2 * .pi }
                    while delta < -.pi { delta += 2 * .pi }
                    if abs(delta) > maxAngle {
                        ok = false
                        break
                    }
                }
                previousAngle = angle
                let dir = Point(x: cos(angle), y: sin(angle))
                let down = Point(x: -dir.y, y: dir.x)
                let shift = 0.35 * size
                let origin = Point(
                    x: p.x - dir.x * g.advance / 2 + down.x * shift, y: p.y - dir.y * g.advance / 2 + down.y * shift)
                glyphs.append(PlacedGlyph(index: g.index, origin: origin, angle: angle))
                let half = size / 2 + padding
                boxes.append(Rect(x: p.x - half, y: p.y - half, width: 2 * half, height: 2 * half))
            }
            guard ok else { continue }
            if !allowOverlap, boxes.contains(where: { collisions.collides($0) }) { continue }
            for box in boxes { collisions.insert(box) }
            results.append(glyphs)
        }
        return results
    }
}
