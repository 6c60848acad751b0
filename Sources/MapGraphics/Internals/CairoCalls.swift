internal import CCairo
import Foundation
import MapGeometry

// The one place that calls Cairo. Every cairo_* call of MapRaster is in this file.

/// Turns a Cairo status into a typed error carrying Cairo's own message.
func checkCairo(_ status: cairo_status_t, _ operation: String) throws {
    guard status == CAIRO_STATUS_SUCCESS else {
        throw GraphicsError.cairo(operation: operation, message: String(cString: cairo_status_to_string(status)))
    }
}

/// Owns one `cairo_surface_t` (ARGB32 image surface).
final class CairoSurface {
    let raw: OpaquePointer

    init(width: Int, height: Int) throws {
        guard width >= 1, height >= 1, width <= 32767, height <= 32767 else {
            throw GraphicsError.invalidSurfaceSize(width: width, height: height)
        }
        raw = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        do { try checkCairo(cairo_surface_status(raw), "creating a \(width)x\(height) surface") } catch {
            cairo_surface_destroy(raw)
            throw error
        }
    }

    deinit { cairo_surface_destroy(raw) }

    var width: Int { Int(cairo_image_surface_get_width(raw)) }
    var height: Int { Int(cairo_image_surface_get_height(raw)) }
    var stride: Int { Int(cairo_image_surface_get_stride(raw)) }

    func flush() { cairo_surface_flush(raw) }
    func markDirty() { cairo_surface_mark_dirty(raw) }
    func markDirty(x: Int, y: Int, width: Int, height: Int) {
        cairo_surface_mark_dirty_rectangle(raw, Int32(x), Int32(y), Int32(width), Int32(height))
    }

    /// Lends the premultiplied ARGB32 pixel memory (native-endian 32-bit words, rows of `stride` bytes).
    func withPixels<T>(_ body: (UnsafeMutableRawPointer, Int) throws -> T) rethrows -> T {
        flush()
        let data = cairo_image_surface_get_data(raw)!
        return try body(UnsafeMutableRawPointer(data), stride)
    }
}

/// Owns one `cairo_t`.
final class CairoContext {
    let raw: OpaquePointer
    let surface: CairoSurface

    init(surface: CairoSurface) throws {
        self.surface = surface
        raw = cairo_create(surface.raw)
        do { try checkCairo(cairo_status(raw), "creating a context") } catch {
            cairo_destroy(raw)
            throw error
        }
        let options = cairo_font_options_create()
        // Unhinted grey antialiasing: the same glyph shapes at every scale and on every machine.
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(raw, options)
        cairo_font_options_destroy(options)
    }

    deinit { cairo_destroy(raw) }

    func status(_ operation: String) throws { try checkCairo(cairo_status(raw), operation) }

    func save() { cairo_save(raw) }
    func restore() { cairo_restore(raw) }

    func setSource(_ c: Color) { cairo_set_source_rgba(raw, c.red, c.green, c.blue, c.alpha) }

    func translate(_ x: Double, _ y: Double) { cairo_translate(raw, x, y) }
    func rotate(_ angle: Double) { cairo_rotate(raw, angle) }
    func identityMatrix() { cairo_identity_matrix(raw) }
    func scale(_ x: Double, _ y: Double) { cairo_scale(raw, x, y) }
    func transform(_ t: Transform) {
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_transform(raw, &m)
    }
    var matrix: Transform {
        var m = cairo_matrix_t()
        cairo_get_matrix(raw, &m)
        return Transform(a: m.xx, b: m.yx, c: m.xy, d: m.yy, tx: m.x0, ty: m.y0)
    }

    func setLineWidth(_ w: Double) { cairo_set_line_width(raw, w) }
    var lineWidth: Double { cairo_get_line_width(raw) }
    func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(raw, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(raw, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(raw, CAIRO_LINE_CAP_SQUARE)
        }
    }
    func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(raw, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(raw, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(raw, CAIRO_LINE_JOIN_BEVEL)
        }
    }
    func setMiterLimit(_ limit: Double) { cairo_set_miter_limit(raw, limit) }
    func setDash(_ lengths: [Double], phase: Double) {
        lengths.withUnsafeBufferPointer { cairo_set_dash(raw, $0.baseAddress, Int32($0.count), phase) }
    }
    func setFillRule(_ rule: FillRule) {
        cairo_set_fill_rule(raw, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    func newPath() { cairo_new_path(raw) }
    func append(_ path: Path) {
        cairo_new_path(raw)
        for element in path.elements {
            switch element {
            case .move(let p): cairo_move_to(raw, p.x, p.y)
            case .line(let p): cairo_line_to(raw, p.x, p.y)
            case .curve(let c1, let c2, let p): cairo_curve_to(raw, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close: cairo_close_path(raw)
            }
        }
    }
    func rectangle(_ r: Rect) { cairo_rectangle(raw, r.minX, r.minY, r.width, r.height) }
    func fill() { cairo_fill(raw) }
    func stroke() { cairo_stroke(raw) }
    func clip() { cairo_clip(raw) }
    func resetClip() { cairo_reset_clip(raw) }
    func paint() { cairo_paint(raw) }
    func paint(alpha: Double) { cairo_paint_with_alpha(raw, alpha) }
    /// Starts drawing into an intermediate group (a transparency layer).
    func pushGroup() { cairo_push_group(raw) }
    /// Ends the group and makes it the source.
    func popGroupToSource() { cairo_pop_group_to_source(raw) }
    func setOperatorSource() { cairo_set_operator(raw, CAIRO_OPERATOR_SOURCE) }
    func setOperatorClear() { cairo_set_operator(raw, CAIRO_OPERATOR_CLEAR) }
    func setOperatorOver() { cairo_set_operator(raw, CAIRO_OPERATOR_OVER) }
    func setOperatorAdd() { cairo_set_operator(raw, CAIRO_OPERATOR_ADD) }
    /// Where a user-space point lands in device pixels under the current transform.
    func userToDevice(_ p: Point) -> Point {
        var x = p.x
        var y = p.y
        cairo_user_to_device(raw, &x, &y)
        return Point(x: x, y: y)
    }
    /// The current clip's bounding box in device pixels (from its user-space extents).
    func deviceClipExtents() -> Rect {
        var x1 = 0.0
        var y1 = 0.0
        var x2 = 0.0
        var y2 = 0.0
        cairo_clip_extents(raw, &x1, &y1, &x2, &y2)
        let corners = [(x1, y1), (x2, y1), (x1, y2), (x2, y2)].map { userToDevice(Point(x: $0.0, y: $0.1)) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let minX = xs.min() ?? 0
        let minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }
    /// The rectangle of device pixels that drawing straight into ``surface``'s memory may write, when doing
    /// so is the same as drawing through this context: no group pushed (the target is the surface), a
    /// transform without rotation or skew, and a clip that is one pixel-aligned rectangle (or none; the
    /// surface's extents). Nil otherwise.
    func directPixelRect() -> (x: Int, y: Int, width: Int, height: Int)? {
        guard cairo_get_group_target(raw) == surface.raw else { return nil }
        var m = cairo_matrix_t()
        cairo_get_matrix(raw, &m)
        guard m.yx == 0, m.xy == 0 else { return nil }
        guard let list = cairo_copy_clip_rectangle_list(raw) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1,
            let r = list.pointee.rectangles?.pointee
        else { return nil }
        // The list is in user space; a region clip is pixel-aligned in device space.
        let a = userToDevice(Point(x: r.x, y: r.y))
        let b = userToDevice(Point(x: r.x + r.width, y: r.y + r.height))
        let x0 = min(a.x, b.x).rounded()
        let y0 = min(a.y, b.y).rounded()
        let x1 = max(a.x, b.x).rounded()
        let y1 = max(a.y, b.y).rounded()
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, x0 >= 0, y0 >= 0,
            x1 <= Double(surface.width), y1 <= Double(surface.height), x0 < x1, y0 < y1
        else { return nil }
        return (Int(x0), Int(y0), Int(x1 - x0), Int(y1 - y0))
    }
    func setAntialias(_ on: Bool) { cairo_set_antialias(raw, on ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE) }
    func setOperatorDestOut() { cairo_set_operator(raw, CAIRO_OPERATOR_DEST_OUT) }

    /// Makes `surface` the source at (x, y): `smooth` filtered (Cairo's good filter, which averages over the
    /// area a shrunk pixel covers; bilinear only without `areaFilter`) or the nearest pixel.
    func setSource(
        _ surface: CairoSurface, x: Double, y: Double, smooth: Bool, padEdges: Bool = false, areaFilter: Bool = true
    ) {
        cairo_set_source_surface(raw, surface.raw, x, y)
        let filter = smooth ? (areaFilter ? CAIRO_FILTER_GOOD : CAIRO_FILTER_BILINEAR) : CAIRO_FILTER_NEAREST
        cairo_pattern_set_filter(cairo_get_source(raw), filter)
        if padEdges { cairo_pattern_set_extend(cairo_get_source(raw), CAIRO_EXTEND_PAD) }
    }

    /// Makes a linear gradient the source: `stops` (location 0...1, color) from `start` to `end`, the end
    /// colors continuing beyond.
    func setSourceLinearGradient(from start: Point, to end: Point, stops: [(Double, Color)]) {
        guard let pattern = cairo_pattern_create_linear(start.x, start.y, end.x, end.y) else { return }
        for (location, c) in stops {
            cairo_pattern_add_color_stop_rgba(pattern, location, c.red, c.green, c.blue, c.alpha)
        }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_set_source(raw, pattern)
        cairo_pattern_destroy(pattern)
    }

    /// Makes `surface` the source, repeated in both directions, one copy filling `tile` (user space).
    func setSourceRepeating(_ surface: CairoSurface, tile: Rect) {
        guard let pattern = cairo_pattern_create_for_surface(surface.raw) else { return }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        // Bilinear as a GPU samples a texture without mipmaps (MapLibre's patterns), also when shrinking.
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
        var m = cairo_matrix_t()
        cairo_matrix_init_scale(&m, Double(surface.width) / tile.width, Double(surface.height) / tile.height)
        cairo_matrix_translate(&m, -tile.minX, -tile.minY)
        cairo_pattern_set_matrix(pattern, &m)
        cairo_set_source(raw, pattern)
        cairo_pattern_destroy(pattern)
    }

    func setFont(_ face: CairoFontFace, size: Double) {
        cairo_set_font_face(raw, face.raw)
        cairo_set_font_size(raw, size)
    }

    /// Adds the outlines of positioned glyphs to the path, or fills them.
    func glyphs(_ glyphs: [ShapedGlyph], origin: Point, fill: Bool) {
        var cg = glyphs.map { cairo_glyph_t(index: UInt($0.index), x: origin.x + $0.x, y: origin.y + $0.y) }
        cg.withUnsafeMutableBufferPointer { buffer in
            if fill {
                cairo_show_glyphs(raw, buffer.baseAddress, Int32(buffer.count))
            } else {
                cairo_glyph_path(raw, buffer.baseAddress, Int32(buffer.count))
            }
        }
    }
}

/// Owns one `cairo_font_face_t` made from a FreeType face.
final class CairoFontFace: @unchecked Sendable {
    let raw: OpaquePointer
    init(freeTypeFace: FreeTypeFace) throws {
        raw = cairo_ft_font_face_create_for_ft_face(.init(freeTypeFace.raw), 0)
        try checkCairo(cairo_font_face_status(raw), "creating a font face")
    }
    deinit { cairo_font_face_destroy(raw) }
}

/// The versions of Cairo and pixman rendering depends on.
enum CairoVersions {
    static var cairo: String { String(cString: cairo_version_string()) }
}
