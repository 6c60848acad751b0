import MapGeometry
import MapGraphics
import MapStyle

/// A label that won its place, in world points, ready to draw.
struct PlacedLabel {
    /// Lines of a point label with their baseline origins, or glyphs along a line.
    enum Content {
        case lines([(text: String, origin: Point)])
        case glyphs([PlacedGlyph])
        /// Glyph quads of SDF glyphs (glyph PBFs), drawn by ``drawSDF(_:in:)``.
        case sdf(SDFText)
        /// An icon without text.
        case none
    }

    var content: Content
    var font: Font
    var size: Double
    var color: Color
    var haloColor: Color
    var haloWidth: Double
    /// `text-halo-blur`: how far (points) the halo's outer edge fades out.
    var haloBlur = 0.0
    /// The label's icon, drawn below the text (of every label of its layer).
    var icon: PlacedIcon?
    /// The index of the label's symbol layer among the style's symbol layers, bottom first: a layer's
    /// icons are drawn before its text.
    var layer = 0
    /// The origin of the vector tile the label's feature came from (nil for other sources): MapLibre draws a
    /// layer's SDF text tile by tile, each tile's halos before its fills.
    var tile: Point?
    /// The label's `symbol-sort-key` when its layer's symbols are drawn by key (a data-driven key and
    /// `symbol-z-order` not `viewport-y`): MapLibre then draws each key's icons, halos and fills in turn.
    var sortKey: Double?
    /// A box around everything the label draws, in world points.
    var bounds = Rect(x: 0, y: 0, width: 0, height: 0)

    /// A generous box around the label's glyphs and halo, in world points.
    func contentBounds() -> Rect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        let pad = haloWidth + size * 0.5
        func add(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            minX = min(minX, x0 - pad); minY = min(minY, y0 - pad); maxX = max(maxX, x1 + pad);
            maxY = max(maxY, y1 + pad)
        }
        switch content {
        case .lines(let lines):
            for line in lines {
                let width = font.measure(line.text, size: size).width
                add(line.origin.x, line.origin.y - size * 1.2, line.origin.x + width, line.origin.y + size * 0.4)
            }
        case .glyphs(let glyphs):
            for glyph in glyphs {
                let s = size * max(1, glyph.scale)
                add(glyph.origin.x - s, glyph.origin.y - s * 1.2, glyph.origin.x + s, glyph.origin.y + s)
            }
        case .sdf(let text):
            let box = text.bounds
            if box.width > 0 { add(box.minX, box.minY, box.maxX, box.maxY) }
        case .none: break
        }
        if let box = icon?.bounds {
            add(box.minX + pad - 1, box.minY + pad - 1, box.maxX - pad + 1, box.maxY - pad + 1)
        }
        return minX.isFinite ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : bounds
    }

    /// Draws the labels of `labels` moved by `shift` (world points to image points): for each run of
    /// labels of one layer, their icons and then their text, as MapLibre draws a symbol layer; a layer
    /// drawn by sort key, each run of one key and tile in turn.
    static func draw(_ labels: [(label: PlacedLabel, shift: Point)], in context: GraphicsContext) {
        var start = 0
        while start < labels.count {
            var end = start + 1
            let head = labels[start].label
            while end < labels.count, labels[end].label.layer == head.layer,
                head.sortKey == nil
                    || (labels[end].label.sortKey == head.sortKey && labels[end].label.tile == head.tile)
            {
                end += 1
            }
            for (label, shift) in labels[start..<end] { label.icon?.draw(in: context, shift: shift) }
            for (label, shift) in labels[start..<end] { label.drawText(in: context, shift: shift) }
            var first = start
            while first < end {
                var last = first + 1
                while last < end, labels[last].label.tile == labels[first].label.tile { last += 1 }
                drawSDF(labels[first..<last], in: context)
                first = last
            }
            start = end
        }
    }

    /// Draws the label's text moved by `shift` (world points to image points).
    func drawText(in context: GraphicsContext, shift: Point) {
        switch content {
        case .none, .sdf: break
        case .lines(let lines) where haloBlur > 0 && haloWidth > 0:
            // A blurred halo is drawn by the glyph path, which fades the halo's edge.
            for line in lines {
                let glyphs = font.shape(line.text, size: size).glyphs.map {
                    PlacedGlyph(
                        index: $0.index,
                        origin: Point(x: line.origin.x - shift.x + $0.x, y: line.origin.y - shift.y + $0.y), angle: 0,
                        face: $0.face, scale: $0.scale)
                }
                context.drawGlyphs(
                    glyphs, font: font, size: size, color: color, haloColor: haloColor, haloWidth: haloWidth,
                    haloBlur: haloBlur)
            }
        case .lines(let lines):
            for line in lines {
                context.drawText(
                    line.text, at: Point(x: line.origin.x - shift.x, y: line.origin.y - shift.y), font: font,
                    size: size, color: color, haloColor: haloWidth > 0 ? haloColor : nil, haloWidth: haloWidth)
            }
        case .glyphs(let glyphs):
            let moved = glyphs.map {
                var glyph = $0
                glyph.origin = Point(x: $0.origin.x - shift.x, y: $0.origin.y - shift.y)
                return glyph
            }
            context.drawGlyphs(
                moved, font: font, size: size, color: color, haloColor: haloWidth > 0 ? haloColor : nil,
                haloWidth: haloWidth, haloBlur: haloBlur)
        }
    }
}
