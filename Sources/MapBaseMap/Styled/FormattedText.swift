import MapGeometry
import MapGraphics
import MapStyle

extension FontCatalog {
    /// The sections of a `format` value ready for shaping (``Font/shape(sections:size:lineHeight:vertical:)``):
    /// each section's `text-font` resolved through the catalog, the layer's stack where it gives none; image
    /// sections left out (inline images are drawn with glyph PBF text only).
    ///
    /// ```swift
    /// if case .formatted(let parts) = layer.value(.textField, context) {
    ///     let shaped = Font.shape(sections: try fonts.textSections(parts, stack: names), size: 16)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sections: the evaluated `format` value.
    ///   - stack: the layer's `text-font`.
    /// - Throws: ``GraphicsError/unknownFontStack(stack:available:)`` when a stack names no installed font.
    public func textSections(_ sections: [FormattedSection], stack: [String]) throws -> [TextSection] {
        let base = try font(stack: stack)
        return try sections.filter { $0.image == nil }.map { section in
            TextSection(
                text: section.text, font: try section.fontStack.map { try font(stack: $0) } ?? base,
                scale: section.scale ?? 1, color: section.color)
        }
    }
}
