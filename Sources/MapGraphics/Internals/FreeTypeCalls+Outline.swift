internal import CFreeType
import MapGeometry

// Unhinted glyph outlines at a pixel size, for distance fields (glyph PBFs). The face must be one of the
// SDF maker's own (`GlyphOutlineFace`): sizing a face Cairo also uses would race with its drawing.

/// One drawing command of a glyph outline, in pixels, y up (FreeType's orientation).
enum OutlineCommand: Equatable {
    case move(Point)
    case line(Point)
    case quadratic(control: Point, to: Point)
    case cubic(control1: Point, control2: Point, to: Point)
}

/// A glyph as FreeType loads it without hinting at the face's current size.
struct LoadedOutline {
    /// The outline's commands (empty for a glyph without an outline, such as a space or a bitmap glyph).
    var commands: [OutlineCommand]
    /// The horizontal advance in whole pixels (FreeType's `horiAdvance` in 26.6, truncated).
    var advance: Int
}

extension FreeTypeFace {
    /// Sets the size to `pixels` per em (FreeType's character size at 72 dpi); false when FreeType refuses.
    func setPixelSize(_ pixels: Int) -> Bool {
        guard let size = FT_F26Dot6(exactly: pixels * 64) else { return false }
        return FT_Set_Char_Size(FT_Face(raw), 0, size, 0, 0) == 0
    }

    /// The size's ascender in whole pixels (FreeType's scaled ascender in 26.6, truncated).
    var scaledAscender: Int {
        guard let metrics = FT_Face(raw).pointee.size?.pointee.metrics else { return 0 }
        return Int(exactly: metrics.ascender / 64) ?? 0
    }

    /// The face's glyph index for a code point (0 when it has none).
    func glyphIndex(codePoint: UInt32) -> UInt32 {
        UInt32(FT_Get_Char_Index(FT_Face(raw), FT_ULong(codePoint)))
    }

    /// The code points the face maps, in ascending order, within `range`.
    func mappedCodePoints(in range: ClosedRange<UInt32>) -> [UInt32] {
        range.filter { glyphIndex(codePoint: $0) != 0 }
    }

    /// Loads glyph `index` unhinted at the current size; nil when FreeType cannot load it.
    func loadOutline(glyphIndex index: UInt32) -> LoadedOutline? {
        let face = FT_Face(raw)
        guard FT_Load_Glyph(face, FT_UInt(index), FT_Int32(FT_LOAD_NO_HINTING)) == 0, let slot = face.pointee.glyph
        else { return nil }
        let advance = Int(exactly: slot.pointee.metrics.horiAdvance / 64) ?? 0
        // Bitmap glyphs (colour emoji) have no outline: no ink, as fontnik draws them.
        guard slot.pointee.outline.n_points > 0 else { return LoadedOutline(commands: [], advance: advance) }
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in appendOutlineCommand(user, .move(outlinePoint(to))) },
            line_to: { to, user in appendOutlineCommand(user, .line(outlinePoint(to))) },
            conic_to: { control, to, user in
                appendOutlineCommand(user, .quadratic(control: outlinePoint(control), to: outlinePoint(to)))
            },
            cubic_to: { c1, c2, to, user in
                appendOutlineCommand(
                    user, .cubic(control1: outlinePoint(c1), control2: outlinePoint(c2), to: outlinePoint(to)))
            },
            shift: 0, delta: 0)
        var commands: [OutlineCommand] = []
        var outline = slot.pointee.outline
        let status = withUnsafeMutablePointer(to: &commands) { pointer in
            FT_Outline_Decompose(&outline, &funcs, UnsafeMutableRawPointer(pointer))
        }
        return status == 0 ? LoadedOutline(commands: commands, advance: advance) : nil
    }
}

private func outlinePoint(_ vector: UnsafePointer<FT_Vector>?) -> Point {
    guard let vector else { return .zero }
    return Point(x: Double(vector.pointee.x) / 64, y: Double(vector.pointee.y) / 64)
}

private func appendOutlineCommand(_ user: UnsafeMutableRawPointer?, _ command: OutlineCommand) -> Int32 {
    guard let commands = user?.assumingMemoryBound(to: [OutlineCommand].self) else { return 1 }
    // A hostile font cannot make one glyph's outline unbounded: stop decomposing past 20,000 commands (the most
    // intricate CJK glyphs have a few hundred).
    guard commands.pointee.count < 20_000 else { return 1 }
    commands.pointee.append(command)
    return 0
}
